-- Webhooks: a bot's endpoints, their service-only signing secrets, the event outbox and
-- the delivery queue the `deliver` edge function works through.
--
-- Never losing an event: every event is written by a trigger in the same transaction as
-- the change that caused it (private.enqueue_event), together with one delivery row per
-- enabled endpoint that subscribed to its type. If the transaction commits, the event and
-- its deliveries exist; the worker delivers them later (at least once, stable webhook-id =
-- the event id, in order per endpoint).
--
-- Events (payloads documented and versioned in frontend/content/docs/webhooks.md):
--   chat.created, message.created, feedback.created      (triggers here, on chats/messages/message_feedback)
--   data_source.synced, data_source.failed                (trigger here, on ingestion_jobs)
--   task.completed                                        (trigger in 20261123050100_tasks.sql)
--   lead.created, handoff.requested                       (power-ups: their triggers call enqueue_event)
--   test_run.completed                                    (tests: their trigger calls enqueue_event)
--   webhook.test                                          (public.send_test_webhook; one endpoint only)
--
-- For other domains: from a trigger (any security), call
--   perform private.enqueue_event(new.bot_id, 'lead.created', jsonb_build_object('lead', ...));
-- type must be one of public.webhook_event_types(); payload is the event's `data` object.
--
-- Who may do what:
--   * admins and owners of the bot's team read and manage its endpoints, read its events and
--     deliveries, see and rotate secrets (public.get_webhook_secret / rotate_webhook_secret),
--     send test events and redeliver (public.redeliver_webhook / redeliver_failed_webhooks);
--   * platform admins read endpoints, events and deliveries (never secrets);
--   * the worker (service role) claims and completes deliveries
--     (public.claim_webhook_deliveries / complete_webhook_delivery).

-- types -----------------------------------------------------------------------------------
create type public.webhook_delivery_status as enum ('pending', 'succeeded', 'failed');

create function public.webhook_event_types() returns text[]
language sql
immutable
set search_path = ''
as $$
  select array['chat.created', 'message.created', 'feedback.created', 'lead.created', 'handoff.requested',
    'data_source.synced', 'data_source.failed', 'test_run.completed', 'task.completed']::text[];
$$;
comment on function public.webhook_event_types() is 'The event types an endpoint may subscribe to.';
grant execute on function public.webhook_event_types() to anon, authenticated, service_role;

-- tables ----------------------------------------------------------------------------------
create table public.webhook_endpoints (
  id uuid primary key default gen_random_uuid(),
  bot_id uuid not null references public.bots (id) on delete cascade,
  url text not null check (char_length(url) <= 2048 and url ~ '^https?://[^\s/]+'),
  events text[] not null default '{}' check (events <@ public.webhook_event_types() and cardinality(events) <= 20),
  enabled boolean not null default true,
  description text check (description is null or char_length(description) <= 500),
  failure_count integer not null default 0,
  disabled_reason text check (disabled_reason is null or char_length(disabled_reason) <= 500),
  disabled_at timestamptz,
  last_success_at timestamptz,
  last_failure_at timestamptz,
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.webhook_endpoints is
  'Where a bot''s events are sent. failure_count = failed attempts in a row; an endpoint whose delivery exhausts its retries is disabled (disabled_reason) and its owners are e-mailed.';
create index webhook_endpoints_bot_id_idx on public.webhook_endpoints (bot_id);
create index webhook_endpoints_created_by_idx on public.webhook_endpoints (created_by);

create table public.webhook_endpoint_secrets (
  endpoint_id uuid primary key references public.webhook_endpoints (id) on delete cascade,
  secret text not null default ('whsec_' || encode(extensions.gen_random_bytes(24), 'base64')),
  rotated_at timestamptz not null default now()
);
comment on table public.webhook_endpoint_secrets is
  'Standard Webhooks signing secret (whsec_<base64>) of an endpoint. No client role reads it; owners and admins see it through public.get_webhook_secret.';

create table public.webhook_events (
  id uuid primary key default gen_random_uuid(),
  seq bigint generated always as identity,
  bot_id uuid not null references public.bots (id) on delete cascade,
  type text not null check (type = any (public.webhook_event_types()) or type = 'webhook.test'),
  version integer not null default 1,
  data jsonb not null check (jsonb_typeof(data) = 'object'),
  created_at timestamptz not null default now()
);
comment on table public.webhook_events is
  'The outbox: one row per event, written in the transaction of the change (private.enqueue_event). The id is the webhook-id receivers deduplicate by.';
create index webhook_events_bot_id_created_at_idx on public.webhook_events (bot_id, created_at desc);

create table public.webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  endpoint_id uuid not null references public.webhook_endpoints (id) on delete cascade,
  event_id uuid not null references public.webhook_events (id) on delete cascade,
  event_seq bigint not null,
  bot_id uuid not null references public.bots (id) on delete cascade,
  status public.webhook_delivery_status not null default 'pending',
  attempt integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  locked_until timestamptz,
  response_status integer,
  response_excerpt text check (response_excerpt is null or char_length(response_excerpt) <= 1000),
  error text check (error is null or char_length(error) <= 500),
  duration_ms integer,
  delivered_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (endpoint_id, event_id)
);
comment on table public.webhook_deliveries is
  'One event to one endpoint: attempts so far, the last response (status, first 1000 characters) or error, when it is tried next. Written by private.enqueue_event and the deliver worker.';
create index webhook_deliveries_queue_idx on public.webhook_deliveries (endpoint_id, event_seq) where status = 'pending';
create index webhook_deliveries_due_idx on public.webhook_deliveries (next_attempt_at) where status = 'pending';
create index webhook_deliveries_bot_id_idx on public.webhook_deliveries (bot_id, created_at desc);
create index webhook_deliveries_event_id_idx on public.webhook_deliveries (event_id);

alter table public.webhook_endpoints enable row level security;
alter table public.webhook_endpoint_secrets enable row level security;
alter table public.webhook_events enable row level security;
alter table public.webhook_deliveries enable row level security;

revoke all on public.webhook_endpoint_secrets from anon, authenticated;
revoke insert, update, delete, truncate, references, trigger on public.webhook_events from anon, authenticated;
revoke insert, update, delete, truncate, references, trigger on public.webhook_deliveries from anon, authenticated;
revoke all on public.webhook_endpoints from anon;
revoke truncate, references, trigger on public.webhook_endpoints from authenticated;
-- the counters and the disabled state are the worker's; a client may change the rest
revoke update on public.webhook_endpoints from authenticated;
grant update (url, events, enabled, description) on public.webhook_endpoints to authenticated;

-- functions -------------------------------------------------------------------------------

-- The one way events enter the outbox. Other domains call it from their triggers.
-- extra_endpoint_id: also deliver to this endpoint of the bot even if it did not subscribe
-- (a task that chose a webhook for its output).
create function private.enqueue_event(bot_id uuid, type text, payload jsonb, extra_endpoint_id uuid default null)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  event public.webhook_events;
begin
  if not exists (
    select 1 from public.webhook_endpoints e
    where e.bot_id = enqueue_event.bot_id and e.enabled
      and (enqueue_event.type = any (e.events) or e.id = enqueue_event.extra_endpoint_id)
  ) then
    return null; -- nobody listens: nothing to keep
  end if;
  insert into public.webhook_events (bot_id, type, data)
  values (enqueue_event.bot_id, enqueue_event.type, coalesce(enqueue_event.payload, '{}'::jsonb))
  returning * into event;
  insert into public.webhook_deliveries (endpoint_id, event_id, event_seq, bot_id)
  select e.id, event.id, event.seq, event.bot_id
  from public.webhook_endpoints e
  where e.bot_id = event.bot_id and e.enabled
    and (event.type = any (e.events) or e.id = enqueue_event.extra_endpoint_id);
  return event.id;
end;
$$;
comment on function private.enqueue_event(uuid, text, jsonb, uuid) is
  'Writes an event (type from public.webhook_event_types(), payload = its data object) and a delivery per enabled subscribed endpoint, in the caller''s transaction. Returns the event id, or null when no endpoint listens.';
revoke execute on function private.enqueue_event(uuid, text, jsonb, uuid) from public, anon, authenticated;
grant execute on function private.enqueue_event(uuid, text, jsonb, uuid) to service_role;

create function private.protect_webhook_endpoint_fields() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.bot_id <> old.bot_id then
    raise exception 'An endpoint cannot move to another bot' using errcode = '42501';
  end if;
  -- re-enabling by hand starts a fresh count
  if new.enabled and not old.enabled then
    new.failure_count := 0;
    new.disabled_reason := null;
    new.disabled_at := null;
  end if;
  return new;
end;
$$;

create function private.create_webhook_endpoint_secret() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.webhook_endpoint_secrets (endpoint_id) values (new.id);
  return new;
end;
$$;

-- event triggers: the payloads of docs/webhooks.md, version 1 ------------------------------
create function private.webhook_chat_created() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.enqueue_event(new.bot_id, 'chat.created', jsonb_build_object('chat', jsonb_build_object(
    'id', new.id, 'bot_id', new.bot_id, 'channel', new.channel, 'title', new.title, 'created_at', new.created_at)));
  return null;
end;
$$;

create function private.webhook_message_created() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.enqueue_event(new.bot_id, 'message.created', jsonb_build_object('message', jsonb_build_object(
    'id', new.id, 'chat_id', new.chat_id, 'bot_id', new.bot_id, 'role', new.role, 'content', new.content,
    'sources', new.sources, 'error', new.error, 'created_at', new.created_at)));
  return null;
end;
$$;

create function private.webhook_feedback_created() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.enqueue_event(new.bot_id, 'feedback.created', jsonb_build_object('feedback', jsonb_build_object(
    'id', new.id, 'message_id', new.message_id, 'bot_id', new.bot_id, 'rating', new.rating,
    'comment', new.comment, 'created_at', new.created_at)));
  return null;
end;
$$;

create function private.webhook_ingestion_finished() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  source public.data_sources;
begin
  if new.status not in ('succeeded', 'failed') or new.status = old.status then
    return null;
  end if;
  select * into source from public.data_sources where id = new.data_source_id;
  perform private.enqueue_event(new.bot_id,
    case new.status when 'succeeded' then 'data_source.synced' else 'data_source.failed' end,
    jsonb_build_object(
      'data_source', jsonb_build_object('id', source.id, 'bot_id', source.bot_id, 'name', source.name, 'type', source.type,
        'document_count', source.document_count, 'chunk_count', source.chunk_count),
      'job', jsonb_build_object('id', new.id, 'status', new.status, 'trigger', new.trigger,
        'progress_done', new.progress_done, 'progress_total', new.progress_total,
        'error_count', jsonb_array_length(new.errors), 'errors', (select coalesce(jsonb_agg(e), '[]') from (
          select e from jsonb_array_elements(new.errors) e limit 20) x),
        'started_at', new.started_at, 'finished_at', new.finished_at)));
  return null;
end;
$$;

-- RPCs for owners and admins -----------------------------------------------------------------
create function private.get_webhook_secret(endpoint_id uuid) returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  found text;
begin
  select s.secret into found
  from public.webhook_endpoint_secrets s join public.webhook_endpoints e on e.id = s.endpoint_id
  where s.endpoint_id = get_webhook_secret.endpoint_id and private.has_bot_role(e.bot_id, 'admin');
  if found is null then
    raise exception 'Endpoint not found' using errcode = 'PT404';
  end if;
  return found;
end;
$$;
comment on function private.get_webhook_secret(uuid) is 'The signing secret of an endpoint, for admins and owners of its bot''s team (PT404 otherwise).';
revoke execute on function private.get_webhook_secret(uuid) from public, anon;
grant execute on function private.get_webhook_secret(uuid) to authenticated;

create function private.rotate_webhook_secret(endpoint_id uuid) returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  fresh text;
begin
  if not exists (select 1 from public.webhook_endpoints e
                 where e.id = rotate_webhook_secret.endpoint_id and private.has_bot_role(e.bot_id, 'admin')) then
    raise exception 'Endpoint not found' using errcode = 'PT404';
  end if;
  update public.webhook_endpoint_secrets s
  set secret = 'whsec_' || encode(extensions.gen_random_bytes(24), 'base64'), rotated_at = now()
  where s.endpoint_id = rotate_webhook_secret.endpoint_id
  returning s.secret into fresh;
  return fresh;
end;
$$;
comment on function private.rotate_webhook_secret(uuid) is 'Replaces an endpoint''s signing secret and returns the new one (admins and owners; PT404 otherwise).';
revoke execute on function private.rotate_webhook_secret(uuid) from public, anon;
grant execute on function private.rotate_webhook_secret(uuid) to authenticated;

create function private.send_test_webhook(endpoint_id uuid) returns uuid
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
  insert into public.webhook_events (bot_id, type, data)
  values (endpoint.bot_id, 'webhook.test', jsonb_build_object('endpoint_id', endpoint.id, 'message', 'This is a test event from Parley.'))
  returning * into event;
  insert into public.webhook_deliveries (endpoint_id, event_id, event_seq, bot_id)
  values (endpoint.id, event.id, event.seq, endpoint.bot_id);
  return event.id;
end;
$$;
comment on function private.send_test_webhook(uuid) is 'Queues a webhook.test event for one endpoint (admins and owners; PT404 otherwise). Returns the event id.';
revoke execute on function private.send_test_webhook(uuid) from public, anon;
grant execute on function private.send_test_webhook(uuid) to authenticated;

-- Redelivering a delivery keeps its event id (receivers deduplicate) and starts its attempts over.
create function private.redeliver_webhook(delivery_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.webhook_deliveries d
  set status = 'pending', attempt = 0, next_attempt_at = now(), locked_until = null, error = null
  where d.id = redeliver_webhook.delivery_id and d.status <> 'pending' and private.has_bot_role(d.bot_id, 'admin');
  if not found and not exists (select 1 from public.webhook_deliveries d
                               where d.id = redeliver_webhook.delivery_id and private.has_bot_role(d.bot_id, 'admin')) then
    raise exception 'Delivery not found' using errcode = 'PT404';
  end if;
end;
$$;
comment on function private.redeliver_webhook(uuid) is 'Sends a delivery again (admins and owners; PT404 otherwise; a pending one is left as it is).';
revoke execute on function private.redeliver_webhook(uuid) from public, anon;
grant execute on function private.redeliver_webhook(uuid) to authenticated;

create function private.redeliver_failed_webhooks(endpoint_id uuid) returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  n integer;
begin
  if not exists (select 1 from public.webhook_endpoints e
                 where e.id = redeliver_failed_webhooks.endpoint_id and private.has_bot_role(e.bot_id, 'admin')) then
    raise exception 'Endpoint not found' using errcode = 'PT404';
  end if;
  update public.webhook_deliveries d
  set status = 'pending', attempt = 0, next_attempt_at = now(), locked_until = null, error = null
  where d.endpoint_id = redeliver_failed_webhooks.endpoint_id and d.status = 'failed';
  get diagnostics n = row_count;
  return n;
end;
$$;
comment on function private.redeliver_failed_webhooks(uuid) is 'Sends every failed delivery of an endpoint again, in event order; returns how many (admins and owners; PT404 otherwise).';
revoke execute on function private.redeliver_failed_webhooks(uuid) from public, anon;
grant execute on function private.redeliver_failed_webhooks(uuid) to authenticated;

-- RPCs for the worker (service role) ---------------------------------------------------------

-- Retries after attempt n (1-based): 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h, 12 h; the 9th
-- failed attempt (about 22 hours after the first) gives up.
create function private.webhook_retry_delay(attempt integer) returns interval
language sql
immutable
set search_path = ''
as $$
  select (array['30 seconds', '2 minutes', '10 minutes', '30 minutes', '1 hour', '3 hours', '6 hours', '12 hours']::interval[])[attempt];
$$;

-- Claims the head of each enabled endpoint's queue when it is due: ordering per endpoint means
-- a later event waits while an earlier one is still pending. A claim is a lease (locked_until);
-- a worker that dies leaves it to expire and the delivery is claimed again (at least once).
create function private.claim_webhook_deliveries(max_deliveries integer default 20, lease_seconds integer default 60,
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
  claimable as (
    select d.id from public.webhook_deliveries d
    where d.id in (select h.id from heads h)
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
  'The worker''s claim: the due head delivery of each enabled endpoint, leased for lease_seconds (for update skip locked). Service role only.';
revoke execute on function private.claim_webhook_deliveries(integer, integer, timestamptz) from public, anon, authenticated;
grant execute on function private.claim_webhook_deliveries(integer, integer, timestamptz) to service_role;

-- Records an attempt. Answers {status, disabled, endpoint_id, bot_id}: disabled is true when this
-- failure exhausted the retries and the endpoint was switched off (the worker e-mails the owners).
create function private.complete_webhook_delivery(delivery_id uuid, ok boolean, response_status integer default null,
  response_excerpt text default null, error text default null, duration_ms integer default null,
  at_time timestamptz default now())
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  d public.webhook_deliveries;
  delay interval;
  disabled boolean := false;
begin
  select * into d from public.webhook_deliveries w where w.id = complete_webhook_delivery.delivery_id for update;
  if d.id is null then
    raise exception 'Delivery not found' using errcode = 'PT404';
  end if;
  if ok then
    update public.webhook_deliveries w
    set status = 'succeeded', delivered_at = at_time, locked_until = null, next_attempt_at = at_time,
        response_status = complete_webhook_delivery.response_status,
        response_excerpt = left(complete_webhook_delivery.response_excerpt, 1000), error = null,
        duration_ms = complete_webhook_delivery.duration_ms
    where w.id = d.id;
    update public.webhook_endpoints e set failure_count = 0, last_success_at = at_time where e.id = d.endpoint_id;
    return jsonb_build_object('status', 'succeeded', 'disabled', false, 'endpoint_id', d.endpoint_id, 'bot_id', d.bot_id);
  end if;
  delay := private.webhook_retry_delay(d.attempt);
  update public.webhook_deliveries w
  set status = case when delay is null then 'failed'::public.webhook_delivery_status else 'pending' end,
      next_attempt_at = coalesce(at_time + delay, at_time), locked_until = null,
      response_status = complete_webhook_delivery.response_status,
      response_excerpt = left(complete_webhook_delivery.response_excerpt, 1000),
      error = left(complete_webhook_delivery.error, 500), duration_ms = complete_webhook_delivery.duration_ms
  where w.id = d.id;
  update public.webhook_endpoints e set failure_count = e.failure_count + 1, last_failure_at = at_time where e.id = d.endpoint_id;
  if delay is null then
    update public.webhook_endpoints e
    set enabled = false, disabled_at = at_time,
        disabled_reason = format('Disabled after %s failed attempts over about a day (last: %s)', d.attempt,
          coalesce(complete_webhook_delivery.error, 'HTTP ' || complete_webhook_delivery.response_status))
    where e.id = d.endpoint_id and e.enabled;
    disabled := found;
  end if;
  return jsonb_build_object('status', case when delay is null then 'failed' else 'pending' end, 'disabled', disabled,
    'endpoint_id', d.endpoint_id, 'bot_id', d.bot_id,
    'next_attempt_at', case when delay is null then null else at_time + delay end);
end;
$$;
comment on function private.complete_webhook_delivery(uuid, boolean, integer, text, text, integer, timestamptz) is
  'The worker records an attempt: success, or failure with the next retry (backoff over about a day) and, after the last, the endpoint disabled. Service role only.';
revoke execute on function private.complete_webhook_delivery(uuid, boolean, integer, text, text, integer, timestamptz) from public, anon, authenticated;
grant execute on function private.complete_webhook_delivery(uuid, boolean, integer, text, text, integer, timestamptz) to service_role;

-- The addresses to tell that an endpoint was disabled: the owners of the bot's team.
create function private.webhook_endpoint_owner_emails(endpoint_id uuid) returns table (email text)
language sql
stable
security definer
set search_path = ''
as $$
  select u.email::text
  from public.webhook_endpoints e
  join public.bots b on b.id = e.bot_id
  join public.team_members tm on tm.team_id = b.team_id and tm.role = 'owner'
  join auth.users u on u.id = tm.user_id
  where e.id = webhook_endpoint_owner_emails.endpoint_id and u.email is not null;
$$;
revoke execute on function private.webhook_endpoint_owner_emails(uuid) from public, anon, authenticated;
grant execute on function private.webhook_endpoint_owner_emails(uuid) to service_role;

-- public RPCs: security invoker wrappers of the private functions above ------------------
create function public.get_webhook_secret(endpoint_id uuid) returns text
language sql
stable
security invoker
set search_path = ''
as $$ select private.get_webhook_secret(endpoint_id => get_webhook_secret.endpoint_id) $$;
revoke execute on function public.get_webhook_secret(uuid) from public, anon;
grant execute on function public.get_webhook_secret(uuid) to authenticated;

create function public.rotate_webhook_secret(endpoint_id uuid) returns text
language sql
security invoker
set search_path = ''
as $$ select private.rotate_webhook_secret(endpoint_id => rotate_webhook_secret.endpoint_id) $$;
revoke execute on function public.rotate_webhook_secret(uuid) from public, anon;
grant execute on function public.rotate_webhook_secret(uuid) to authenticated;

create function public.send_test_webhook(endpoint_id uuid) returns uuid
language sql
security invoker
set search_path = ''
as $$ select private.send_test_webhook(endpoint_id => send_test_webhook.endpoint_id) $$;
revoke execute on function public.send_test_webhook(uuid) from public, anon;
grant execute on function public.send_test_webhook(uuid) to authenticated;

create function public.redeliver_webhook(delivery_id uuid) returns void
language sql
security invoker
set search_path = ''
as $$ select private.redeliver_webhook(delivery_id => redeliver_webhook.delivery_id) $$;
revoke execute on function public.redeliver_webhook(uuid) from public, anon;
grant execute on function public.redeliver_webhook(uuid) to authenticated;

create function public.redeliver_failed_webhooks(endpoint_id uuid) returns integer
language sql
security invoker
set search_path = ''
as $$ select private.redeliver_failed_webhooks(endpoint_id => redeliver_failed_webhooks.endpoint_id) $$;
revoke execute on function public.redeliver_failed_webhooks(uuid) from public, anon;
grant execute on function public.redeliver_failed_webhooks(uuid) to authenticated;

create function public.claim_webhook_deliveries(max_deliveries integer default 20, lease_seconds integer default 60,
  at_time timestamptz default now()) returns table (delivery_id uuid, endpoint_id uuid, url text, secret text, event_id uuid, event_type text,
  event_version integer, event_data jsonb, event_created_at timestamptz, bot_id uuid, attempt integer)
language sql
security invoker
set search_path = ''
as $$ select * from private.claim_webhook_deliveries(max_deliveries => claim_webhook_deliveries.max_deliveries, lease_seconds => claim_webhook_deliveries.lease_seconds, at_time => claim_webhook_deliveries.at_time) $$;
revoke execute on function public.claim_webhook_deliveries(integer, integer, timestamptz) from public, anon;
grant execute on function public.claim_webhook_deliveries(integer, integer, timestamptz) to service_role;

create function public.complete_webhook_delivery(delivery_id uuid, ok boolean, response_status integer default null,
  response_excerpt text default null, error text default null, duration_ms integer default null,
  at_time timestamptz default now()) returns jsonb
language sql
security invoker
set search_path = ''
as $$ select private.complete_webhook_delivery(delivery_id => complete_webhook_delivery.delivery_id, ok => complete_webhook_delivery.ok, response_status => complete_webhook_delivery.response_status, response_excerpt => complete_webhook_delivery.response_excerpt, error => complete_webhook_delivery.error, duration_ms => complete_webhook_delivery.duration_ms, at_time => complete_webhook_delivery.at_time) $$;
revoke execute on function public.complete_webhook_delivery(uuid, boolean, integer, text, text, integer, timestamptz) from public, anon;
grant execute on function public.complete_webhook_delivery(uuid, boolean, integer, text, text, integer, timestamptz) to service_role;

create function public.webhook_endpoint_owner_emails(endpoint_id uuid) returns table (email text)
language sql
stable
security invoker
set search_path = ''
as $$ select * from private.webhook_endpoint_owner_emails(endpoint_id => webhook_endpoint_owner_emails.endpoint_id) $$;
revoke execute on function public.webhook_endpoint_owner_emails(uuid) from public, anon;
grant execute on function public.webhook_endpoint_owner_emails(uuid) to service_role;

-- triggers --------------------------------------------------------------------------------
create trigger webhook_endpoints_set_timestamps before insert or update on public.webhook_endpoints
  for each row execute function private.set_timestamps();
create trigger webhook_deliveries_set_timestamps before insert or update on public.webhook_deliveries
  for each row execute function private.set_timestamps();
create trigger webhook_endpoints_protect_fields before update on public.webhook_endpoints
  for each row execute function private.protect_webhook_endpoint_fields();
create trigger webhook_endpoints_create_secret after insert on public.webhook_endpoints
  for each row execute function private.create_webhook_endpoint_secret();

create trigger chats_webhook_event after insert on public.chats
  for each row execute function private.webhook_chat_created();
create trigger messages_webhook_event after insert on public.messages
  for each row execute function private.webhook_message_created();
create trigger message_feedback_webhook_event after insert on public.message_feedback
  for each row execute function private.webhook_feedback_created();
create trigger ingestion_jobs_webhook_event after update of status on public.ingestion_jobs
  for each row execute function private.webhook_ingestion_finished();

-- policies --------------------------------------------------------------------------------
create policy "Team admins can read webhook endpoints" on public.webhook_endpoints
  for select to authenticated using ((select private.has_bot_role(bot_id, 'admin')));
create policy "Platform admins can read webhook endpoints" on public.webhook_endpoints
  for select to authenticated using ((select private.is_platform_admin()));
create policy "Team admins can create webhook endpoints" on public.webhook_endpoints
  for insert to authenticated with check ((select private.has_bot_role(bot_id, 'admin')));
create policy "Team admins can update webhook endpoints" on public.webhook_endpoints
  for update to authenticated
  using ((select private.has_bot_role(bot_id, 'admin')))
  with check ((select private.has_bot_role(bot_id, 'admin')));
create policy "Team admins can delete webhook endpoints" on public.webhook_endpoints
  for delete to authenticated using ((select private.has_bot_role(bot_id, 'admin')));

create policy "Team admins can read webhook events" on public.webhook_events
  for select to authenticated using ((select private.has_bot_role(bot_id, 'admin')));
create policy "Platform admins can read webhook events" on public.webhook_events
  for select to authenticated using ((select private.is_platform_admin()));

create policy "Team admins can read webhook deliveries" on public.webhook_deliveries
  for select to authenticated using ((select private.has_bot_role(bot_id, 'admin')));
create policy "Platform admins can read webhook deliveries" on public.webhook_deliveries
  for select to authenticated using ((select private.is_platform_admin()));
