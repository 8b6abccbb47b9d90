-- One team could hold up every other team's webhooks (review C): the claim took the 20 heads
-- due longest across all teams, a bot could have any number of endpoints, and test events and
-- redeliveries were not limited. Now:
--   * a bot has at most 20 endpoints (hint too_many_endpoints);
--   * send_test_webhook, redeliver_webhook and redeliver_failed_webhooks share one budget per
--     bot: 20 a minute (PT429, hint rate_limited; PostgREST answers 429);
--   * a claim takes at most 3 heads of one bot per pass (its longest due first), so the other
--     bots' due deliveries get the pass's remaining places.

-- endpoints per bot -------------------------------------------------------------------------------
create function private.check_webhook_endpoint_count() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- one insert at a time per bot, so two at once cannot both pass the count
  perform pg_advisory_xact_lock(hashtextextended('webhook_endpoints:' || new.bot_id::text, 0));
  if (select count(*) from public.webhook_endpoints e where e.bot_id = new.bot_id) >= 20 then
    raise exception 'A bot has at most 20 webhook endpoints: delete one first' using errcode = '22023', hint = 'too_many_endpoints';
  end if;
  return new;
end;
$$;
comment on function private.check_webhook_endpoint_count() is 'Trigger: a bot has at most 20 webhook endpoints (22023, hint too_many_endpoints).';
revoke execute on function private.check_webhook_endpoint_count() from public, anon, authenticated;

create trigger webhook_endpoints_count before insert on public.webhook_endpoints
  for each row execute function private.check_webhook_endpoint_count();

-- test events and redeliveries: one budget per bot ---------------------------------------------
create function private.spend_webhook_manual_budget(bot_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not private.consume_rate_limit('webhook-manual:' || spend_webhook_manual_budget.bot_id::text, 20, 60) then
    raise exception 'Too many test events and redeliveries for this bot: wait a minute and try again'
      using errcode = 'PT429', hint = 'rate_limited';
  end if;
end;
$$;
comment on function private.spend_webhook_manual_budget(uuid) is
  'A test event or a redelivery of the bot''s webhooks: 20 a minute per bot, else PT429 (hint rate_limited).';
revoke execute on function private.spend_webhook_manual_budget(uuid) from public, anon, authenticated;

create or replace function private.send_test_webhook(endpoint_id uuid) returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  endpoint public.webhook_endpoints;
  event public.webhook_events;
begin
  select * into endpoint from public.webhook_endpoints e
  where e.id = send_test_webhook.endpoint_id and private.has_bot_role(e.bot_id, 'admin');
  if endpoint.id is null then
    raise exception 'Endpoint not found' using errcode = 'PT404';
  end if;
  perform private.spend_webhook_manual_budget(endpoint.bot_id);
  insert into public.webhook_events (bot_id, type, data)
  values (endpoint.bot_id, 'webhook.test', jsonb_build_object('endpoint_id', endpoint.id, 'message', 'This is a test event from Parley.'))
  returning * into event;
  insert into public.webhook_deliveries (endpoint_id, event_id, event_seq, bot_id)
  values (endpoint.id, event.id, event.seq, endpoint.bot_id);
  return event.id;
end;
$$;
comment on function private.send_test_webhook(uuid) is
  'Queues a webhook.test event for one endpoint (admins and owners; PT404 otherwise; PT429 past the bot''s 20 test events and redeliveries a minute). Returns the event id.';

create or replace function private.redeliver_webhook(delivery_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  the_bot uuid := (select d.bot_id from public.webhook_deliveries d
                   where d.id = redeliver_webhook.delivery_id and private.has_bot_role(d.bot_id, 'admin'));
begin
  if the_bot is null then
    raise exception 'Delivery not found' using errcode = 'PT404';
  end if;
  perform private.spend_webhook_manual_budget(the_bot);
  update public.webhook_deliveries d
  set status = 'pending', attempt = 0, next_attempt_at = now(), locked_until = null, error = null
  where d.id = redeliver_webhook.delivery_id and d.status <> 'pending';
end;
$$;
comment on function private.redeliver_webhook(uuid) is
  'Sends a delivery again (admins and owners; PT404 otherwise; a pending one is left as it is; PT429 past the bot''s 20 test events and redeliveries a minute).';

create or replace function private.redeliver_failed_webhooks(endpoint_id uuid) returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  n integer;
  the_bot uuid := (select e.bot_id from public.webhook_endpoints e
                   where e.id = redeliver_failed_webhooks.endpoint_id and private.has_bot_role(e.bot_id, 'admin'));
begin
  if the_bot is null then
    raise exception 'Endpoint not found' using errcode = 'PT404';
  end if;
  perform private.spend_webhook_manual_budget(the_bot);
  update public.webhook_deliveries d
  set status = 'pending', attempt = 0, next_attempt_at = now(), locked_until = null, error = null
  where d.endpoint_id = redeliver_failed_webhooks.endpoint_id and d.status = 'failed';
  get diagnostics n = row_count;
  return n;
end;
$$;
comment on function private.redeliver_failed_webhooks(uuid) is
  'Sends every failed delivery of an endpoint again, in event order; returns how many (admins and owners; PT404 otherwise; PT429 past the bot''s 20 test events and redeliveries a minute).';

-- a fair claim ---------------------------------------------------------------------------------
create or replace function private.claim_webhook_deliveries(max_deliveries integer default 20, lease_seconds integer default 60,
  at_time timestamptz default now())
returns table (delivery_id uuid, endpoint_id uuid, url text, secret text, event_id uuid, event_type text,
  event_version integer, event_data jsonb, event_created_at timestamptz, bot_id uuid, attempt integer)
language plpgsql
security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
  with heads as (
    select distinct on (d.endpoint_id) d.id
    from public.webhook_deliveries d
    join public.webhook_endpoints e on e.id = d.endpoint_id and e.enabled
    where d.status = 'pending'
    order by d.endpoint_id, d.event_seq
  ),
  due as (
    -- each bot's due heads, longest due first: at most 3 of them in one pass
    select d.id, row_number() over (partition by d.bot_id order by d.next_attempt_at, d.id) as n
    from public.webhook_deliveries d
    where d.id in (select h.id from heads h)
      and d.next_attempt_at <= at_time
      and (d.locked_until is null or d.locked_until <= at_time)
  ),
  claimable as (
    select d.id from public.webhook_deliveries d
    where d.id in (select u.id from due u where u.n <= 3)
      and d.next_attempt_at <= at_time
      and (d.locked_until is null or d.locked_until <= at_time)
    order by d.next_attempt_at
    limit greatest(1, least(max_deliveries, 100))
    for update skip locked
  ),
  claimed as (
    update public.webhook_deliveries d
    set attempt = d.attempt + 1, locked_until = at_time + make_interval(secs => lease_seconds)
    from claimable c where d.id = c.id
    returning d.*
  )
  select c.id, c.endpoint_id, e.url, s.secret, ev.id, ev.type, ev.version, ev.data, ev.created_at, c.bot_id, c.attempt
  from claimed c
  join public.webhook_endpoints e on e.id = c.endpoint_id
  join public.webhook_endpoint_secrets s on s.endpoint_id = c.endpoint_id
  join public.webhook_events ev on ev.id = c.event_id;
end;
$$;
comment on function private.claim_webhook_deliveries(integer, integer, timestamptz) is
  'The worker''s claim: the due head delivery of each enabled endpoint, at most 3 of one bot per pass (longest due first), leased for lease_seconds (for update skip locked). Service role only.';
