-- Billing plans, first slice (issue 22), and the per-bot chat ceiling they set (issue 13).
--
-- public.plans: the plans a team can be on (free, pro, business), their names in the ten
-- interface languages and the limits each sets. Anyone reads them (the pricing page, signed out
-- too); only the service role writes them. A limit column that is null means "unlimited".
-- Only chat_requests_per_minute is enforced today: private.bot_chat_budget reads it from the bot's
-- team's plan, so a bot's per-minute ceiling is its plan's instead of a fixed 600. The other limits
-- are stored for billing to enforce (issue 22), and their comments say so.
--
-- teams.plan_id: the team's plan. Every team starts on free; only the service role changes it
-- (billing, and the platform administrators' actions through it), never a client, owners included.
--
-- The rows are inserted here, not in seed.sql: a database where the seed is never run (hosted
-- Supabase) needs the free plan before the first team is created.

-- tables ----------------------------------------------------------------------------------
create table public.plans (
  id text primary key check (id ~ '^[a-z][a-z0-9_-]{0,39}$'),
  name jsonb not null check (
    jsonb_typeof(name) = 'object' and name ?& array['en', 'de', 'es', 'fr', 'it', 'jp', 'cn', 'el', 'pl', 'nl']
  ),
  sort_order integer not null default 0,
  chat_requests_per_minute integer not null check (chat_requests_per_minute between 1 and 1000000),
  bots integer check (bots >= 0),
  messages_per_month integer check (messages_per_month >= 0),
  data_sources integer check (data_sources >= 0),
  stored_characters bigint check (stored_characters >= 0),
  members integer check (members >= 1),
  channels integer check (channels >= 0),
  power_ups integer check (power_ups >= 0),
  api_access boolean,
  powered_by_removable boolean,
  test_runs_per_month integer check (test_runs_per_month >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.plans is
  'Billing plans and the limits each sets; a null limit is unlimited. Anyone reads them; only the service role writes them. Only chat_requests_per_minute is enforced so far (issue 22 enforces the rest).';
comment on column public.plans.id is 'Stable key: free, pro, business. teams.plan_id refers to it.';
comment on column public.plans.name is 'The plan''s name in each interface language: {"en": ..., "de": ..., ... "nl": ...} (all ten keys).';
comment on column public.plans.sort_order is 'Order on the pricing page, smallest first.';
comment on column public.plans.chat_requests_per_minute is
  'Enforced: answers each bot of a team on this plan may give per minute, all visitors and channels together (private.bot_chat_budget).';
comment on column public.plans.bots is 'Bots a team may have; null: unlimited. Not enforced yet (billing, issue 22).';
comment on column public.plans.messages_per_month is 'Answered messages a month, all the team''s bots together; null: unlimited. Not enforced yet (billing, issue 22).';
comment on column public.plans.data_sources is 'Data sources a team may have; null: unlimited. Not enforced yet (billing, issue 22).';
comment on column public.plans.stored_characters is 'Characters of ingested documents a team may store; null: unlimited. Not enforced yet (billing, issue 22).';
comment on column public.plans.members is 'Members a team may have, owners included; null: unlimited. Not enforced yet (billing, issue 22).';
comment on column public.plans.channels is 'Channels a team may have; null: unlimited. Not enforced yet (billing, issue 22).';
comment on column public.plans.power_ups is 'Power-ups a team may have; null: unlimited. Not enforced yet (billing, issue 22).';
comment on column public.plans.api_access is 'Whether the HTTP API channel and API keys are included; null: not restricted. Not enforced yet (billing, issue 22).';
comment on column public.plans.powered_by_removable is 'Whether the "powered by" line can be hidden; null: not restricted. Not enforced yet (billing, issue 22).';
comment on column public.plans.test_runs_per_month is 'Test runs a month, all the team''s bots together; null: unlimited. Not enforced yet (billing, issue 22).';

create trigger plans_set_timestamps before insert or update on public.plans
  for each row execute function private.set_timestamps();

-- Prices and limits are a product decision, not shown in the original (SPEC section 9); these are
-- Parley's. free keeps the ceiling every bot had before plans (600 a minute).
insert into public.plans (
  id, sort_order, name, chat_requests_per_minute, bots, messages_per_month, data_sources, stored_characters,
  members, channels, power_ups, api_access, powered_by_removable, test_runs_per_month
) values
  ('free', 10,
   '{"en": "Free", "de": "Kostenlos", "es": "Gratis", "fr": "Gratuit", "it": "Gratuito", "jp": "無料", "cn": "免费", "el": "Δωρεάν", "pl": "Darmowy", "nl": "Gratis"}',
   600, 3, 500, 5, 1000000, 3, 2, 2, false, false, 20),
  ('pro', 20,
   '{"en": "Pro", "de": "Pro", "es": "Pro", "fr": "Pro", "it": "Pro", "jp": "プロ", "cn": "专业版", "el": "Pro", "pl": "Pro", "nl": "Pro"}',
   1500, 20, 10000, 50, 20000000, 10, null, 20, true, true, 500),
  ('business', 30,
   '{"en": "Business", "de": "Business", "es": "Empresa", "fr": "Entreprise", "it": "Business", "jp": "ビジネス", "cn": "商业版", "el": "Επιχειρήσεις", "pl": "Biznes", "nl": "Zakelijk"}',
   6000, null, 100000, null, null, null, null, null, true, true, null)
on conflict (id) do nothing;

alter table public.teams
  add column plan_id text not null default 'free' references public.plans (id);
comment on column public.teams.plan_id is
  'The team''s billing plan (public.plans). A new team starts on free; only the service role changes it (billing, platform administrators'' actions).';
create index teams_plan_id_idx on public.teams (plan_id);

-- A client (owners included) never chooses or changes a team's plan: the owners' update policy
-- covers the whole row, so the column is guarded here, as protect_team_fields guards the others.
create function private.protect_team_plan() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') then
    if tg_op = 'INSERT' and new.plan_id is distinct from 'free' then
      raise exception 'A new team starts on the free plan' using errcode = '42501';
    end if;
    if tg_op = 'UPDATE' and new.plan_id is distinct from old.plan_id then
      raise exception 'A team''s plan changes through billing, not directly' using errcode = '42501';
    end if;
  end if;
  return new;
end;
$$;
comment on function private.protect_team_plan() is 'Trigger: clients create teams on the free plan and never change teams.plan_id.';
revoke execute on function private.protect_team_plan() from public;
create trigger protect_team_plan before insert or update on public.teams
  for each row execute function private.protect_team_plan();

alter table public.plans enable row level security;

-- functions -------------------------------------------------------------------------------
-- Same signature as before (open_chat_turn spends it through spend_bot_chat_budget); the fixed
-- 600 and its database-wide override are gone: a benchmark that needs more moves its team to a
-- plan with a higher ceiling, or raises the plan's ceiling, as the service role.
create or replace function private.bot_chat_budget(bot_id uuid) returns integer
language sql
stable
security definer
set search_path = ''
as $$
  -- Primary-key lookups only: the bot, its team, the team's plan.
  select p.chat_requests_per_minute
  from public.bots b
  join public.teams t on t.id = b.team_id
  join public.plans p on p.id = t.plan_id
  where b.id = bot_chat_budget.bot_id;
$$;
comment on function private.bot_chat_budget(uuid) is
  'Answers a bot may give per minute, whoever asks (all visitors and channels together): its team''s plan''s chat_requests_per_minute. Null for an unknown bot.';

-- policies --------------------------------------------------------------------------------
create policy "Anyone can read plans" on public.plans
  for select to anon
  using (true);

create policy "Signed-in users can read plans" on public.plans
  for select to authenticated
  using (true);

-- grants ----------------------------------------------------------------------------------
-- Writes are the service role's only (billing); clients read.
revoke all on public.plans from anon, authenticated;
grant select on public.plans to anon, authenticated;
grant select, insert, update, delete on public.plans to service_role;
