-- Billing (issue 22): prices, subscriptions with Stripe, invoices, and the plan limits Postgres enforces.
--
-- plans gains prices (per currency, monthly and yearly, in the currency's smallest unit) and the
-- Stripe price id of each. Every team has one subscriptions row (created with the team, on free):
-- its plan, status, period, cancel-at-period-end and Stripe ids. teams.plan_id stays the one value
-- every limit reads; a change of it (billing, or a platform administrator's admin_set_team_plan)
-- is copied to the subscription by a trigger here. invoices are written by the stripe-webhook
-- function; stripe_events records every Stripe event id it handled (idempotency, ordering).
--
-- Limits: every limit column of plans is enforced here, for every role (clients, edge functions
-- with the caller's token or the service role, security-definer RPCs), with ONE error:
--   SQLSTATE PT402 (PostgREST answers HTTP 402), hint 'plan_limit', detail = the limit's name
--   (bots, messages_per_month, data_sources, stored_characters, members, channels, power_ups,
--   api_access, powered_by_removable, test_runs_per_month), message in plain English.
-- private.plan_limit(team, name) reads the limit, private.plan_usage(team, name) counts, and
-- private.check_plan_limit(team, name, adding) raises: one function per rule, used by every trigger.
-- A team moved to a smaller plan keeps everything; items beyond the new limit (the newest ones)
-- become read-only for clients (private.is_over_plan_limit) until the team upgrades or deletes some.
-- The monthly message quota is checked where a visitor's or channel's turn is stored (a user
-- message insert: open_chat_turn and direct inserts alike); the engine maps it to a polite
-- "not available right now" in the bot's language.

-- tables ----------------------------------------------------------------------------------
alter table public.plans
  add column prices jsonb not null default '{}' check (jsonb_typeof(prices) = 'object'),
  add column stripe_price_ids jsonb not null default '{}' check (jsonb_typeof(stripe_price_ids) = 'object');
comment on column public.plans.prices is
  'Prices per currency in the smallest unit (cents): {"usd": {"month": 1900, "year": 19000}, "eur": {...}}. {} for free. The pricing page and billing read them; nothing in the frontend hard-codes a price.';
comment on column public.plans.stripe_price_ids is
  'The Stripe Price of each price: {"usd": {"month": "price_...", "year": "price_..."}, ...}. Checkout uses it; stripe-webhook maps a subscription''s price back to its plan.';

-- The column comments of the first slice said "not enforced yet"; they are now.
comment on column public.plans.bots is 'Bots a team may have; null: unlimited. Enforced (private.check_plan_limit).';
comment on column public.plans.messages_per_month is 'Visitor and channel turns a month, all the team''s bots together (counted as answers in team_usage); null: unlimited. Enforced when a turn is stored.';
comment on column public.plans.data_sources is 'Data sources a team may have; null: unlimited. Enforced.';
comment on column public.plans.stored_characters is 'Characters of ingested documents a team may store; null: unlimited. Enforced on documents.';
comment on column public.plans.members is 'Members a team may have, owners included; null: unlimited. Enforced.';
comment on column public.plans.channels is 'Channels a team may have besides every bot''s web channel; null: unlimited. Enforced.';
comment on column public.plans.power_ups is 'Power-ups a team may have; null: unlimited. Enforced.';
comment on column public.plans.api_access is 'Whether the HTTP API channel and API keys are included; null: not restricted. Enforced.';
comment on column public.plans.powered_by_removable is 'Whether bots may hide the "powered by" line; null: not restricted. Enforced.';
comment on column public.plans.test_runs_per_month is 'Test runs a month, all the team''s bots together; null: unlimited. Enforced (automatic runs over it are skipped, manual ones refused).';
comment on table public.plans is
  'Billing plans, their prices and the limits each sets; a null limit is unlimited. Anyone reads them; only the service role writes them. Every limit is enforced in Postgres (migration 20261128010000_billing).';

update public.plans set
  prices = '{"usd": {"month": 1900, "year": 19000}, "eur": {"month": 1900, "year": 19000}}',
  stripe_price_ids = '{"usd": {"month": "price_pro_usd_month", "year": "price_pro_usd_year"}, "eur": {"month": "price_pro_eur_month", "year": "price_pro_eur_year"}}'
where id = 'pro';
update public.plans set
  prices = '{"usd": {"month": 9900, "year": 99000}, "eur": {"month": 9900, "year": 99000}}',
  stripe_price_ids = '{"usd": {"month": "price_business_usd_month", "year": "price_business_usd_year"}, "eur": {"month": "price_business_eur_month", "year": "price_business_eur_year"}}'
where id = 'business';

create table public.subscriptions (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null unique references public.teams (id) on delete cascade,
  plan_id text not null default 'free' references public.plans (id),
  status text not null default 'active' check (status in (
    'active', 'trialing', 'past_due', 'unpaid', 'canceled', 'incomplete', 'incomplete_expired', 'paused')),
  billing_interval text check (billing_interval in ('month', 'year')),
  currency text check (currency ~ '^[a-z]{3}$'),
  current_period_start timestamptz,
  current_period_end timestamptz,
  cancel_at_period_end boolean not null default false,
  canceled_at timestamptz,
  grace_until timestamptz,
  stripe_customer_id text check (stripe_customer_id ~ '^[A-Za-z0-9_]{1,255}$'),
  stripe_subscription_id text unique check (stripe_subscription_id ~ '^[A-Za-z0-9_]{1,255}$'),
  stripe_price_id text check (char_length(stripe_price_id) <= 255),
  stripe_updated_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.subscriptions is
  'A team''s subscription: one row per team, created with it on free. plan_id follows teams.plan_id (trigger). Written by the service role (billing, stripe-webhook); the team''s owners read it.';
comment on column public.subscriptions.grace_until is 'After a failed payment: the team keeps its plan until then, then moves to free (private.apply_billing_deadlines).';
comment on column public.subscriptions.stripe_updated_at is 'The Stripe event time (created) of the last subscription change applied: an older event arriving later is ignored.';
create index subscriptions_stripe_customer_idx on public.subscriptions (stripe_customer_id);
create index subscriptions_plan_id_idx on public.subscriptions (plan_id);

create trigger subscriptions_set_timestamps before insert or update on public.subscriptions
  for each row execute function private.set_timestamps();

create table public.invoices (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references public.teams (id) on delete cascade,
  stripe_invoice_id text not null unique check (char_length(stripe_invoice_id) between 1 and 255),
  number text check (char_length(number) <= 100),
  status text not null check (status in ('draft', 'open', 'paid', 'uncollectible', 'void', 'payment_failed')),
  currency text not null check (currency ~ '^[a-z]{3}$'),
  amount_due integer not null default 0,
  amount_paid integer not null default 0,
  hosted_invoice_url text check (hosted_invoice_url ~ '^https?://' and char_length(hosted_invoice_url) <= 2048),
  invoice_pdf text check (invoice_pdf ~ '^https?://' and char_length(invoice_pdf) <= 2048),
  period_start timestamptz,
  period_end timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.invoices is 'Stripe invoices of a team, written by stripe-webhook (invoice.paid, invoice.payment_failed). The team''s owners read them.';
create index invoices_team_id_idx on public.invoices (team_id, created_at desc);
create trigger invoices_set_timestamps before insert or update on public.invoices
  for each row execute function private.set_timestamps();

create table public.stripe_events (
  id text primary key check (id ~ '^evt_[A-Za-z0-9_]{1,250}$'),
  type text not null,
  stripe_created_at timestamptz not null,
  received_at timestamptz not null default now()
);
comment on table public.stripe_events is 'Every Stripe event stripe-webhook handled, by id: a replayed event is answered 200 and not applied twice. Service role only.';

create table public.quota_notices (
  team_id uuid not null references public.teams (id) on delete cascade,
  month date not null check (month = date_trunc('month', month)::date),
  threshold integer not null check (threshold in (80, 100)),
  sent_at timestamptz not null default now(),
  primary key (team_id, month, threshold)
);
comment on table public.quota_notices is
  'The monthly message quota e-mails sent to a team''s owners (at 80 % and 100 %), one each a month. Service role only (billing tick).';

alter table public.subscriptions enable row level security;
alter table public.quota_notices enable row level security;
alter table public.invoices enable row level security;
alter table public.stripe_events enable row level security;

-- Every existing team gets its row; new teams get theirs from the trigger below.
insert into public.subscriptions (team_id, plan_id)
select t.id, t.plan_id from public.teams t
on conflict (team_id) do nothing;

-- functions -------------------------------------------------------------------------------
create function private.create_team_subscription() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.subscriptions (team_id, plan_id) values (new.id, new.plan_id)
  on conflict (team_id) do nothing;
  return null;
end;
$$;
comment on function private.create_team_subscription() is 'Trigger: every new team starts with a subscription on its plan (free).';
revoke execute on function private.create_team_subscription() from public;
create trigger teams_create_subscription after insert on public.teams
  for each row execute function private.create_team_subscription();

-- teams.plan_id is the truth the limits read; whoever changes it (stripe-webhook, the deadline
-- sweep, a platform administrator's admin_set_team_plan) moves the subscription with it. A move
-- to free outside Stripe leaves the Stripe ids for the record but ends the paid period.
create function private.follow_team_plan() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.subscriptions s
  set plan_id = new.plan_id,
      status = case when new.plan_id <> 'free' then s.status
                    when s.status in ('past_due', 'unpaid', 'canceled', 'incomplete_expired') then 'canceled'
                    else 'active' end,
      cancel_at_period_end = case when new.plan_id = 'free' then false else s.cancel_at_period_end end,
      grace_until = case when new.plan_id = 'free' then null else s.grace_until end
  where s.team_id = new.id and s.plan_id is distinct from new.plan_id;
  return null;
end;
$$;
comment on function private.follow_team_plan() is 'Trigger: a change of teams.plan_id (billing or a platform administrator) is copied to the team''s subscription.';
revoke execute on function private.follow_team_plan() from public;
create trigger teams_follow_plan after update of plan_id on public.teams
  for each row execute function private.follow_team_plan();

-- The limit a team's plan sets: a number (booleans: 1 allowed, 0 not), null = unlimited.
create function private.plan_limit(team_id uuid, limit_name text) returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select case
    when jsonb_typeof(to_jsonb(p) -> plan_limit.limit_name) = 'boolean'
      then case when (to_jsonb(p) ->> plan_limit.limit_name)::boolean then null else 0 end
    else (to_jsonb(p) ->> plan_limit.limit_name)::bigint
  end
  from public.teams t join public.plans p on p.id = t.plan_id
  where t.id = plan_limit.team_id;
$$;
comment on function private.plan_limit(uuid, text) is
  'The limit the team''s plan sets for limit_name (a plans column): a number, null = unlimited; a boolean limit is null when allowed, 0 when not.';

-- The items a countable limit counts (bots, data sources, channels besides web, power-ups): one
-- definition for the counting and for which items are beyond the limit after a downgrade.
create function private.team_items(team_id uuid, limit_name text)
returns table (id uuid, created_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select b.id, b.created_at from public.bots b
  where team_items.limit_name = 'bots' and b.team_id = team_items.team_id
  union all
  select d.id, d.created_at from public.data_sources d join public.bots b on b.id = d.bot_id
  where team_items.limit_name = 'data_sources' and b.team_id = team_items.team_id
  union all
  select c.id, c.created_at from public.channels c join public.bots b on b.id = c.bot_id
  where team_items.limit_name = 'channels' and b.team_id = team_items.team_id and c.type <> 'web'
  union all
  select p.id, p.created_at from public.power_ups p join public.bots b on b.id = p.bot_id
  where team_items.limit_name = 'power_ups' and b.team_id = team_items.team_id;
$$;
comment on function private.team_items(uuid, text) is
  'The team''s items a countable limit counts (bots, data_sources, channels without web, power_ups), with their creation time.';

-- What a team uses of a limit, counted the same way for the triggers and the billing screen.
create function private.plan_usage(team_id uuid, limit_name text) returns bigint
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  month_start timestamptz := date_trunc('month', now() at time zone 'utc') at time zone 'utc';
begin
  case plan_usage.limit_name
    when 'bots', 'data_sources', 'channels', 'power_ups' then
      return (select count(*) from private.team_items(plan_usage.team_id, plan_usage.limit_name));
    when 'members' then
      return (select count(*) from public.team_members m where m.team_id = plan_usage.team_id);
    when 'stored_characters' then
      return (select coalesce(sum(char_length(d.content)), 0) from public.documents d join public.bots b on b.id = d.bot_id
              where b.team_id = plan_usage.team_id);
    when 'messages_per_month' then
      return coalesce((select u.messages from public.team_usage u
                       where u.team_id = plan_usage.team_id and u.month = month_start::date), 0);
    when 'test_runs_per_month' then
      return (select count(*) from public.test_runs r join public.bots b on b.id = r.bot_id
              where b.team_id = plan_usage.team_id and r.created_at >= month_start);
    when 'api_access' then
      return (select count(*) from public.channels c join public.bots b on b.id = c.bot_id
              where b.team_id = plan_usage.team_id and c.type = 'api');
    when 'powered_by_removable' then
      return (select count(*) from public.bots b where b.team_id = plan_usage.team_id and not b.show_powered_by);
    else
      raise exception 'Unknown plan limit: %', plan_usage.limit_name using errcode = '22023';
  end case;
end;
$$;
comment on function private.plan_usage(uuid, text) is
  'How much of a limit the team uses: items it has, characters stored, this UTC month''s answers or test runs; for api_access the API channels, for powered_by_removable the bots hiding the line.';

-- The one place the limit error is raised.
create function private.raise_plan_limit(team_id uuid, limit_name text, limit_value bigint) returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  plan_name text := (select p.name ->> 'en' from public.teams t join public.plans p on p.id = t.plan_id
                     where t.id = raise_plan_limit.team_id);
begin
  raise exception '%', case
      when raise_plan_limit.limit_name = 'api_access' then format('The %s plan does not include the HTTP API. Upgrade to use it.', plan_name)
      when raise_plan_limit.limit_name = 'powered_by_removable' then format('The %s plan does not allow hiding "powered by". Upgrade to hide it.', plan_name)
      else format('The %s plan allows %s %s. Upgrade for more.', plan_name, raise_plan_limit.limit_value,
                  replace(raise_plan_limit.limit_name, '_', ' '))
    end
    using errcode = 'PT402', hint = 'plan_limit', detail = raise_plan_limit.limit_name;
end;
$$;
comment on function private.raise_plan_limit(uuid, text, bigint) is
  'Raises the plan limit error: SQLSTATE PT402 (HTTP 402), hint plan_limit, detail = the limit''s name.';

-- Refuses adding `adding` units when the team would go over its plan's limit.
create function private.check_plan_limit(team_id uuid, limit_name text, adding bigint default 1) returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  allowed bigint := private.plan_limit(check_plan_limit.team_id, check_plan_limit.limit_name);
begin
  if allowed is null or check_plan_limit.adding <= 0 then
    return;
  end if;
  if allowed = 0 and check_plan_limit.limit_name in ('api_access', 'powered_by_removable')
     or private.plan_usage(check_plan_limit.team_id, check_plan_limit.limit_name) + check_plan_limit.adding > allowed then
    perform private.raise_plan_limit(check_plan_limit.team_id, check_plan_limit.limit_name, allowed);
  end if;
end;
$$;
comment on function private.check_plan_limit(uuid, text, bigint) is
  'Raises the plan limit error (PT402) when the team would use more than its plan allows by adding `adding` units.';

-- After a downgrade, the newest items beyond the limit are read-only (kept, never deleted).
create function private.is_over_plan_limit(team_id uuid, limit_name text, item_created_at timestamptz, item_id uuid)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  allowed bigint := private.plan_limit(is_over_plan_limit.team_id, is_over_plan_limit.limit_name);
  older bigint;
begin
  if allowed is null then
    return false;
  end if;
  older := (select count(*) from private.team_items(is_over_plan_limit.team_id, is_over_plan_limit.limit_name) i
            where (i.created_at, i.id) < (is_over_plan_limit.item_created_at, is_over_plan_limit.item_id));
  return older >= allowed;
end;
$$;
comment on function private.is_over_plan_limit(uuid, text, timestamptz, uuid) is
  'Is this item beyond its team''s plan limit (the oldest `limit` items stay usable)? Such items are read-only for clients until the team upgrades or deletes others.';

-- The limit triggers. TG_ARGV[0] names the limit; the team is found from the row.
create function private.enforce_plan_limits() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  limit_name text := tg_argv[0];
  the_team uuid;
  adding bigint := 1;
  -- The caller's role from its token (current_user is this function's owner here).
  is_client boolean := coalesce((select auth.role()) in ('anon', 'authenticated'), false);
begin
  if tg_table_name in ('bots', 'team_members') then
    the_team := new.team_id;
  else
    the_team := (select b.team_id from public.bots b where b.id = new.bot_id);
  end if;
  if the_team is null then
    return new; -- the foreign key refuses the row
  end if;

  if tg_op = 'UPDATE' then
    -- Items beyond the limit after a downgrade stay readable, not editable, by clients.
    -- (Nested ifs: a PL/pgSQL expression reads every field it names, so new.type is only
    -- named where the row has it.)
    if is_client and limit_name in ('bots', 'data_sources', 'channels', 'power_ups') then
      if limit_name = 'channels' then
        if new.type = 'web' then
          return new;
        end if;
      end if;
      if private.is_over_plan_limit(the_team, limit_name, old.created_at, old.id) then
        perform private.raise_plan_limit(the_team, limit_name, private.plan_limit(the_team, limit_name));
      end if;
    end if;
    if limit_name = 'bots' then
      if not new.show_powered_by and old.show_powered_by then
        perform private.check_plan_limit(the_team, 'powered_by_removable');
      end if;
    elsif limit_name = 'stored_characters' then
      perform private.check_plan_limit(the_team, 'stored_characters',
        coalesce(char_length(new.content), 0) - coalesce(char_length(old.content), 0));
    end if;
    return new;
  end if;

  case limit_name
    when 'channels' then
      if new.type = 'web' then
        return new; -- every bot's own web channel, created with the bot
      end if;
      if new.type = 'api' then
        perform private.check_plan_limit(the_team, 'api_access');
      end if;
    when 'members' then
      if exists (select 1 from public.team_members m where m.team_id = new.team_id and m.user_id = new.user_id) then
        return new; -- already a member: the insert's own conflict handling decides
      end if;
    when 'bots' then
      if not new.show_powered_by then
        perform private.check_plan_limit(the_team, 'powered_by_removable');
      end if;
    when 'stored_characters' then
      adding := coalesce(char_length(new.content), 0);
    when 'messages_per_month' then
      if new.role <> 'user' then
        return new; -- answers and human replies are not turns
      end if;
      -- An API turn needs a plan with the API (keys made before a downgrade stop working).
      if (select c.channel from public.chats c where c.id = new.chat_id) = 'api' then
        perform private.check_plan_limit(the_team, 'api_access');
      end if;
      -- The month's answers are counted in team_usage; a turn is refused once they reached the quota.
      adding := 0;
      if private.plan_usage(the_team, limit_name) >= private.plan_limit(the_team, limit_name) then
        perform private.raise_plan_limit(the_team, limit_name, private.plan_limit(the_team, limit_name));
      end if;
    when 'test_runs_per_month' then
      -- A run queued on its own (after a sync, a settings change, a schedule) is skipped quietly
      -- over the limit: the change that queued it must not fail.
      if new.trigger <> 'manual'
         and private.plan_usage(the_team, limit_name) >= private.plan_limit(the_team, limit_name) then
        return null;
      end if;
    else
      null;
  end case;

  perform private.check_plan_limit(the_team, limit_name, adding);
  return new;
end;
$$;
comment on function private.enforce_plan_limits() is
  'Trigger (argument: the limit''s name): refuses an insert that would go over the team''s plan (private.check_plan_limit), edits of items beyond the limit by clients, and hiding "powered by" where the plan does not allow it.';
revoke execute on function private.enforce_plan_limits() from public;

create trigger enforce_plan_limit before insert or update of show_powered_by, name, description, instructions, language,
  model_provider, model, temperature, visibility, gallery_listed, suggested_questions, theme, avatar_url on public.bots
  for each row execute function private.enforce_plan_limits('bots');
create trigger enforce_plan_limit before insert or update on public.data_sources
  for each row execute function private.enforce_plan_limits('data_sources');
create trigger enforce_plan_limit before insert or update of name, enabled, settings on public.channels
  for each row execute function private.enforce_plan_limits('channels');
create trigger enforce_plan_limit before insert or update of name, label, description, enabled, example_phrases, settings, type
  on public.power_ups
  for each row execute function private.enforce_plan_limits('power_ups');
create trigger enforce_plan_limit before insert on public.team_members
  for each row execute function private.enforce_plan_limits('members');
create trigger enforce_plan_limit before insert or update of content on public.documents
  for each row execute function private.enforce_plan_limits('stored_characters');
create trigger enforce_plan_limit before insert on public.api_keys
  for each row execute function private.enforce_plan_limits('api_access');
create trigger enforce_plan_limit before insert on public.test_runs
  for each row execute function private.enforce_plan_limits('test_runs_per_month');
-- Named to run after prepare_message (BEFORE triggers run in name order), which sets bot_id.
create trigger quota_monthly_messages before insert on public.messages
  for each row execute function private.enforce_plan_limits('messages_per_month');

-- The billing screen's meters: every limit, its value and the team's use, for the team's members.
create function public.team_plan_usage(team_id uuid)
returns table (limit_name text, used bigint, limit_value bigint, unlimited boolean)
language plpgsql
stable
set search_path = ''
as $$
begin
  if not (select private.has_team_role(team_plan_usage.team_id)) and not (select private.is_platform_admin())
     and (select auth.role()) is distinct from 'service_role' then
    raise exception 'Team not found' using errcode = 'PT404', hint = 'team_not_found';
  end if;
  return query
  select n.name, private.plan_usage(team_plan_usage.team_id, n.name), private.plan_limit(team_plan_usage.team_id, n.name),
         private.plan_limit(team_plan_usage.team_id, n.name) is null
  from unnest(array['bots', 'messages_per_month', 'data_sources', 'stored_characters', 'members', 'channels',
                    'power_ups', 'api_access', 'powered_by_removable', 'test_runs_per_month']) with ordinality as n(name, i)
  order by n.i;
end;
$$;
comment on function public.team_plan_usage(uuid) is
  'Every plan limit of the team: its use, its value (null = unlimited; api_access and powered_by_removable: 0 = not included). Team members, platform admins, the service role.';
revoke execute on function public.team_plan_usage(uuid) from public, anon;
grant execute on function public.team_plan_usage(uuid) to authenticated, service_role;

-- Deadlines the billing function's tick applies: a cancelled subscription at its period's end and
-- an unpaid one at the end of its grace period move to free (data kept, see is_over_plan_limit).
create function private.apply_billing_deadlines() returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  moved integer;
begin
  with due as (
    select s.team_id from public.subscriptions s
    where s.plan_id <> 'free'
      and ((s.cancel_at_period_end and s.current_period_end <= now())
           or (s.status in ('past_due', 'unpaid') and s.grace_until <= now())
           or s.status in ('canceled', 'incomplete_expired'))
  )
  update public.teams t set plan_id = 'free' from due where t.id = due.team_id;
  get diagnostics moved = row_count;
  return moved;
end;
$$;
comment on function private.apply_billing_deadlines() is
  'Moves to free the teams whose cancelled subscription reached its period''s end or whose grace period after a failed payment is over. Returns how many moved. Service role (billing tick).';
revoke execute on function private.apply_billing_deadlines() from public;
grant execute on function private.apply_billing_deadlines() to service_role;

create function public.apply_billing_deadlines() returns integer
language sql
set search_path = ''
as $$ select private.apply_billing_deadlines() $$;
comment on function public.apply_billing_deadlines() is 'See private.apply_billing_deadlines. Service role only.';
revoke execute on function public.apply_billing_deadlines() from public, anon, authenticated;
grant execute on function public.apply_billing_deadlines() to service_role;

revoke execute on function private.team_items(uuid, text) from public;
grant execute on function private.team_items(uuid, text) to authenticated, service_role;
grant execute on function private.plan_limit(uuid, text), private.plan_usage(uuid, text),
  private.raise_plan_limit(uuid, text, bigint), private.check_plan_limit(uuid, text, bigint),
  private.is_over_plan_limit(uuid, text, timestamptz, uuid) to authenticated, service_role;
revoke execute on function private.plan_limit(uuid, text), private.plan_usage(uuid, text),
  private.raise_plan_limit(uuid, text, bigint), private.check_plan_limit(uuid, text, bigint),
  private.is_over_plan_limit(uuid, text, timestamptz, uuid) from public;

-- The quota e-mails due now: teams whose answers this month reached 80 % or 100 % of their plan's
-- messages_per_month and were not told yet. Claims them (one row each a month) in the same
-- statement, so two ticks never send the same notice.
create function public.claim_quota_notices()
returns table (team_id uuid, team_name text, threshold integer, used bigint, quota bigint)
language sql
set search_path = ''
as $$
  with usage as (
    select u.team_id, u.month, t.name, u.messages::bigint as used, p.messages_per_month::bigint as quota
    from public.team_usage u
    join public.teams t on t.id = u.team_id
    join public.plans p on p.id = t.plan_id
    where u.month = date_trunc('month', now() at time zone 'utc')::date and p.messages_per_month > 0
  ), due as (
    select usage.*, v.threshold from usage cross join (values (80), (100)) as v(threshold)
    where usage.used * 100 >= usage.quota * v.threshold
  ), claimed as (
    insert into public.quota_notices (team_id, month, threshold)
    select due.team_id, due.month, due.threshold from due
    on conflict do nothing
    returning quota_notices.team_id, quota_notices.threshold
  )
  select due.team_id, due.name, due.threshold, due.used, due.quota
  from claimed join due on due.team_id = claimed.team_id and due.threshold = claimed.threshold;
$$;
comment on function public.claim_quota_notices() is
  'Service role (billing tick): claims and returns the 80 % / 100 % monthly message quota notices due now.';
revoke execute on function public.claim_quota_notices() from public, anon, authenticated;
grant execute on function public.claim_quota_notices() to service_role;

-- Hosted Supabase: the billing tick joins the other functions' pg_cron jobs (supabase/schedules.json
-- locally). A migration replaces a function whole: this is 20261127020000_webhook_events_more's with
-- parley-billing added. Run it once more after pushing (as postgres):
--   select private.schedule_function_ticks('https://<project>.supabase.co/functions/v1', '<service role key>');
create or replace function private.schedule_function_ticks(functions_url text, service_role_key text) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  job record;
begin
  if not exists (select 1 from pg_extension where extname = 'pg_cron')
     or not exists (select 1 from pg_extension where extname = 'pg_net') then
    raise exception 'Enable the pg_cron and pg_net extensions first' using errcode = '55000';
  end if;
  if functions_url !~ '^https?://' or coalesce(service_role_key, '') = '' then
    raise exception 'Give the functions URL (https://<project>.supabase.co/functions/v1) and the service-role key'
      using errcode = '22023';
  end if;
  for job in select * from (values ('parley-sync', '/ingest/tick'), ('parley-tests', '/tests/tick'),
                                   ('parley-deliver', '/deliver/tick'), ('parley-tasks', '/tasks/tick'),
                                   ('parley-billing', '/billing/tick')) v(name, path) loop
    execute format('select cron.schedule(%L, %L, %L)', job.name, '* * * * *', format(
      'select net.http_post(url := %L, headers := jsonb_build_object(''Authorization'', %L, ''Content-Type'', ''application/json''), body := ''{}''::jsonb)',
      rtrim(functions_url, '/') || job.path, 'Bearer ' || service_role_key));
  end loop;
end;
$$;
comment on function private.schedule_function_ticks(text, text) is
  'Installs (or refreshes) the pg_cron jobs parley-sync, parley-tests, parley-deliver, parley-tasks and parley-billing that call ingest, tests, deliver, tasks and billing /tick every minute (hosted Supabase).';
revoke execute on function private.schedule_function_ticks(text, text) from public, anon, authenticated;


-- policies --------------------------------------------------------------------------------
create policy "Team owners can read their subscription" on public.subscriptions
  for select to authenticated
  using ((select private.has_team_role(team_id, 'owner')));
create policy "Platform admins can read subscriptions" on public.subscriptions
  for select to authenticated
  using ((select private.is_platform_admin()));
create policy "Team owners can read their invoices" on public.invoices
  for select to authenticated
  using ((select private.has_team_role(team_id, 'owner')));
create policy "Platform admins can read invoices" on public.invoices
  for select to authenticated
  using ((select private.is_platform_admin()));

-- grants ----------------------------------------------------------------------------------
revoke all on public.subscriptions, public.invoices, public.stripe_events, public.quota_notices from anon, authenticated;
grant select on public.subscriptions, public.invoices to authenticated;
grant select, insert, update, delete on public.subscriptions, public.invoices, public.stripe_events, public.quota_notices to service_role;
