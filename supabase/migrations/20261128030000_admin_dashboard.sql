-- The administrators' dashboard (issue 23): platform figures over time and its sections
-- (plans, models, providers, channels, power-ups, data sources).
--
-- Reads: security-definer functions named admin_*, each refusing (42501) anyone who is not a
-- platform administrator (private.require_platform_admin). They aggregate in SQL so the browser
-- never pages through other teams' rows. Periods are whole UTC days, today included.
--
-- Actions, each recorded in the admin audit log in the same transaction:
-- - admin_update_plan(plan_id, changes): applies any non-key columns of public.plans from a JSON
--   object (jsonb_populate_record), so columns added later (prices) need no new function; the
--   table's checks validate the result.
-- - admin_set_feature_enabled(kind, type, enabled): turns a channel or power-up type off (or back
--   on) platform-wide. public.platform_disabled_features lists what is off; everyone may read it
--   (the app greys out what it cannot create). Triggers refuse creating or enabling a channel or
--   power-up of a type that is off, whoever asks (service role included); rows that already exist
--   keep their switch, and the engine skips power-ups of a type that is off.

-- tables ------------------------------------------------------------------------------------
create table public.platform_disabled_features (
  kind text not null check (kind in ('channel', 'power_up')),
  type text not null check (type ~ '^[a-z][a-z0-9_]{0,39}$'),
  disabled_at timestamptz not null default now(),
  disabled_by uuid,
  primary key (kind, type)
);
comment on table public.platform_disabled_features is
  'Channel and power-up types a platform administrator turned off platform-wide (a row = off). Everyone reads it; written only through admin_set_feature_enabled().';
comment on column public.platform_disabled_features.kind is 'channel (public.channels.type) or power_up (public.power_ups.type).';
comment on column public.platform_disabled_features.disabled_by is 'The administrator who turned it off (no foreign key: the record outlives the account).';

alter table public.platform_disabled_features enable row level security;
revoke all on public.platform_disabled_features from anon, authenticated;
grant select on public.platform_disabled_features to anon, authenticated;
grant select on public.platform_disabled_features to service_role;

create policy "Anyone can read the disabled features" on public.platform_disabled_features
  for select to anon
  using (true);

create policy "Signed-in users can read the disabled features" on public.platform_disabled_features
  for select to authenticated
  using (true);

-- helpers -----------------------------------------------------------------------------------
-- private.require_platform_admin() (42501 unless a platform administrator) comes from
-- 20261128020000_admin_lists.

-- Where an admin_* read's period starts: checks the caller first, then the period (1..366 whole
-- UTC days, today included); returns midnight UTC of its first day.
create function private.admin_since(days integer) returns timestamptz
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_platform_admin();
  if days is null or days < 1 or days > 366 then
    raise exception 'A period is 1 to 366 days' using errcode = '22023';
  end if;
  return ((now() at time zone 'utc')::date - (days - 1))::timestamp at time zone 'utc';
end;
$$;
comment on function private.admin_since(integer) is
  'For admin_* reads: raises 42501 unless the caller is a platform administrator, 22023 unless 1 <= days <= 366; returns midnight UTC of the period''s first day.';
revoke execute on function private.admin_since(integer) from public;
grant execute on function private.admin_since(integer) to authenticated, service_role;

create function private.is_feature_disabled(kind text, type text) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.platform_disabled_features f
    where f.kind = is_feature_disabled.kind and f.type = is_feature_disabled.type
  );
$$;
comment on function private.is_feature_disabled(text, text) is 'True when a platform administrator turned this channel or power-up type off.';
revoke execute on function private.is_feature_disabled(text, text) from public;
grant execute on function private.is_feature_disabled(text, text) to anon, authenticated, service_role;

-- Trigger on channels and power_ups: a type that is off cannot be created enabled, or enabled.
create function private.refuse_disabled_feature() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  kind text := case tg_table_name when 'channels' then 'channel' else 'power_up' end;
begin
  if new.enabled
     and (tg_op = 'INSERT' or not old.enabled or new.type::text is distinct from old.type::text)
     and private.is_feature_disabled(kind, new.type::text) then
    raise exception '% type % is turned off on this platform', replace(kind, '_', '-'), new.type
      using errcode = '42501', hint = 'feature_disabled';
  end if;
  return new;
end;
$$;
comment on function private.refuse_disabled_feature() is
  'Trigger: refuses creating or enabling a channel or power-up whose type a platform administrator turned off (42501, hint feature_disabled).';
revoke execute on function private.refuse_disabled_feature() from public;

create trigger refuse_disabled_feature before insert or update on public.channels
  for each row execute function private.refuse_disabled_feature();
create trigger refuse_disabled_feature before insert or update on public.power_ups
  for each row execute function private.refuse_disabled_feature();

-- figures over time -------------------------------------------------------------------------
-- One row per UTC day of the period, empty days included.
create function public.admin_dashboard_daily(days integer)
returns table (
  day date,
  signups integer,
  active_teams integer,
  new_bots integer,
  new_chats integer,
  messages integer,
  answers integer,
  prompt_tokens bigint,
  completion_tokens bigint,
  latency_p50_ms integer,
  latency_p95_ms integer,
  provider_errors integer,
  negative_feedback integer,
  sync_failures integer
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  since_ts timestamptz := private.admin_since(days);
begin
  return query
  with d as (
    select g::date as day from generate_series((since_ts at time zone 'utc')::date, (now() at time zone 'utc')::date, interval '1 day') g
  ),
  m as (
    select (msg.created_at at time zone 'utc')::date as day,
      count(*)::int as messages,
      count(*) filter (where msg.role = 'assistant')::int as answers,
      coalesce(sum(msg.prompt_tokens), 0)::bigint as prompt_tokens,
      coalesce(sum(msg.completion_tokens), 0)::bigint as completion_tokens,
      (percentile_cont(0.5) within group (order by msg.latency_ms) filter (where msg.role = 'assistant'))::int as p50,
      (percentile_cont(0.95) within group (order by msg.latency_ms) filter (where msg.role = 'assistant'))::int as p95,
      count(*) filter (where msg.role = 'assistant' and msg.error is not null)::int as errors,
      count(distinct b.team_id)::int as active_teams
    from public.messages msg
    join public.bots b on b.id = msg.bot_id
    where msg.created_at >= since_ts
    group by 1
  ),
  u as (
    select (au.created_at at time zone 'utc')::date as day, count(*)::int as n
    from auth.users au
    where au.created_at >= since_ts and not coalesce(au.is_anonymous, false)
    group by 1
  ),
  nb as (
    select (b.created_at at time zone 'utc')::date as day, count(*)::int as n
    from public.bots b where b.created_at >= since_ts group by 1
  ),
  nc as (
    select (c.created_at at time zone 'utc')::date as day, count(*)::int as n
    from public.chats c where c.created_at >= since_ts group by 1
  ),
  f as (
    select (fb.created_at at time zone 'utc')::date as day, count(*)::int as n
    from public.message_feedback fb where fb.created_at >= since_ts and fb.rating = 'down' group by 1
  ),
  s as (
    select (coalesce(j.finished_at, j.updated_at) at time zone 'utc')::date as day, count(*)::int as n
    from public.ingestion_jobs j
    where j.status = 'failed' and coalesce(j.finished_at, j.updated_at) >= since_ts
    group by 1
  )
  select d.day,
    coalesce(u.n, 0), coalesce(m.active_teams, 0), coalesce(nb.n, 0), coalesce(nc.n, 0),
    coalesce(m.messages, 0), coalesce(m.answers, 0), coalesce(m.prompt_tokens, 0), coalesce(m.completion_tokens, 0),
    m.p50, m.p95, coalesce(m.errors, 0), coalesce(f.n, 0), coalesce(s.n, 0)
  from d
  left join m on m.day = d.day
  left join u on u.day = d.day
  left join nb on nb.day = d.day
  left join nc on nc.day = d.day
  left join f on f.day = d.day
  left join s on s.day = d.day
  order by d.day;
end;
$$;
comment on function public.admin_dashboard_daily(integer) is
  'Platform administrators: per UTC day of the last `days` days: sign-ups (not anonymous visitors), teams with messages, new bots and chats, messages, answers, tokens, answer latency p50/p95, answers with a provider error, thumbs down, failed syncs.';

-- Tokens per day and provider (the extractive default has none and shows as "extractive").
create function public.admin_dashboard_tokens(days integer)
returns table (day date, provider text, tokens bigint)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  since_ts timestamptz := private.admin_since(days);
begin
  return query
  select (msg.created_at at time zone 'utc')::date, coalesce(msg.provider, 'extractive'),
    sum(coalesce(msg.prompt_tokens, 0) + coalesce(msg.completion_tokens, 0))::bigint
  from public.messages msg
  where msg.created_at >= since_ts and msg.role = 'assistant'
  group by 1, 2
  order by 1, 2;
end;
$$;
comment on function public.admin_dashboard_tokens(integer) is
  'Platform administrators: prompt + completion tokens of answers per UTC day and provider over the last `days` days.';

-- Headline numbers: all-time counts and the period's distinct active teams and users.
create function public.admin_dashboard_totals(days integer)
returns table (
  users integer,
  teams integer,
  bots integer,
  chats integer,
  messages bigint,
  active_teams integer,
  active_bots integer
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  since_ts timestamptz := private.admin_since(days);
begin
  return query
  select
    (select count(*)::int from auth.users au where not coalesce(au.is_anonymous, false)),
    (select count(*)::int from public.teams),
    (select count(*)::int from public.bots),
    (select count(*)::int from public.chats),
    (select count(*) from public.messages),
    (select count(distinct b.team_id)::int from public.messages msg join public.bots b on b.id = msg.bot_id where msg.created_at >= since_ts),
    (select count(distinct msg.bot_id)::int from public.messages msg where msg.created_at >= since_ts);
end;
$$;
comment on function public.admin_dashboard_totals(integer) is
  'Platform administrators: users (not anonymous visitors), teams, bots, chats and messages in all, and teams and bots with messages in the last `days` days.';

-- sections ----------------------------------------------------------------------------------
-- Answers per provider over the period: how many, how many failed, latency, tokens.
create function public.admin_provider_stats(days integer)
returns table (
  provider text,
  answers integer,
  errors integer,
  latency_p50_ms integer,
  latency_p95_ms integer,
  first_token_p50_ms integer,
  tokens bigint,
  bots integer
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  since_ts timestamptz := private.admin_since(days);
begin
  return query
  select coalesce(msg.provider, 'extractive'),
    count(*)::int,
    count(*) filter (where msg.error is not null)::int,
    (percentile_cont(0.5) within group (order by msg.latency_ms))::int,
    (percentile_cont(0.95) within group (order by msg.latency_ms))::int,
    (percentile_cont(0.5) within group (order by msg.first_token_ms))::int,
    sum(coalesce(msg.prompt_tokens, 0) + coalesce(msg.completion_tokens, 0))::bigint,
    count(distinct msg.bot_id)::int
  from public.messages msg
  where msg.created_at >= since_ts and msg.role = 'assistant'
  group by 1
  order by 2 desc, 1;
end;
$$;
comment on function public.admin_provider_stats(integer) is
  'Platform administrators: per provider over the last `days` days: answers, answers with an error, latency p50/p95, first token p50, tokens, bots answering.';

-- Which provider and model the bots are set to, and how much each answered in the period.
create function public.admin_model_usage(days integer)
returns table (provider text, model text, bots integer, answers integer)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  since_ts timestamptz := private.admin_since(days);
begin
  return query
  with configured as (
    select b.model_provider as provider, coalesce(b.model, '') as model, count(*)::int as n
    from public.bots b group by 1, 2
  ),
  used as (
    select coalesce(msg.provider, 'extractive') as provider, coalesce(msg.model, '') as model, count(*)::int as n
    from public.messages msg
    where msg.created_at >= since_ts and msg.role = 'assistant'
    group by 1, 2
  )
  select coalesce(c.provider, u.provider), coalesce(c.model, u.model), coalesce(c.n, 0), coalesce(u.n, 0)
  from configured c
  full join used u on u.provider = c.provider and u.model = c.model
  order by 1, 2;
end;
$$;
comment on function public.admin_model_usage(integer) is
  'Platform administrators: per provider and model (empty = the provider''s default): bots set to it, and answers it gave in the last `days` days.';

-- Channels per type: how many, how many enabled, messages through them in the period, and
-- whether the type is turned off. The widget and the hosted page are both the web channel.
create function public.admin_channel_usage(days integer)
returns table (type text, channels integer, enabled integer, messages integer, disabled boolean)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  since_ts timestamptz := private.admin_since(days);
begin
  return query
  with types as (select unnest(enum_range(null::public.channel_type))::text as type),
  ch as (
    select c.type::text as type, count(*)::int as n, count(*) filter (where c.enabled)::int as on_n
    from public.channels c group by 1
  ),
  msgs as (
    select case c.channel when 'widget' then 'web' else c.channel end as type, count(*)::int as n
    from public.messages msg join public.chats c on c.id = msg.chat_id
    where msg.created_at >= since_ts
    group by 1
  )
  select t.type, coalesce(ch.n, 0), coalesce(ch.on_n, 0), coalesce(msgs.n, 0), private.is_feature_disabled('channel', t.type)
  from types t
  left join ch on ch.type = t.type
  left join msgs on msgs.type = t.type
  order by t.type;
end;
$$;
comment on function public.admin_channel_usage(integer) is
  'Platform administrators: per channel type: channels, enabled channels, messages in the last `days` days, and whether the type is turned off.';

-- The power-up types the table allows (its check constraint), so a type with no rows still shows.
create function public.admin_power_up_usage(days integer)
returns table (type text, power_ups integer, enabled integer, calls integer, errors integer, disabled boolean)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  since_ts timestamptz := private.admin_since(days);
begin
  return query
  with types as (select unnest(array['http', 'lead', 'link', 'handoff']) as type),
  pu as (
    select p.type, count(*)::int as n, count(*) filter (where p.enabled)::int as on_n
    from public.power_ups p group by 1
  ),
  calls as (
    select p.type, count(*)::int as n, count(*) filter (where pc.status = 'error')::int as errs
    from public.power_up_calls pc join public.power_ups p on p.id = pc.power_up_id
    where pc.created_at >= since_ts
    group by 1
  )
  select t.type, coalesce(pu.n, 0), coalesce(pu.on_n, 0), coalesce(calls.n, 0), coalesce(calls.errs, 0),
    private.is_feature_disabled('power_up', t.type)
  from types t
  left join pu on pu.type = t.type
  left join calls on calls.type = t.type
  order by t.type;
end;
$$;
comment on function public.admin_power_up_usage(integer) is
  'Platform administrators: per power-up type: power-ups, enabled ones, calls and failed calls in the last `days` days, and whether the type is turned off.';

-- Sync jobs by status (all time), with the oldest still waiting, and the period's count.
create function public.admin_ingestion_status(days integer)
returns table (status text, jobs integer, in_period integer, oldest_created_at timestamptz)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  since_ts timestamptz := private.admin_since(days);
begin
  return query
  with statuses as (select unnest(enum_range(null::public.ingestion_job_status)) as status)
  select s.status::text,
    (select count(*)::int from public.ingestion_jobs j where j.status = s.status),
    (select count(*)::int from public.ingestion_jobs j where j.status = s.status and j.created_at >= since_ts),
    (select min(j.created_at) from public.ingestion_jobs j where j.status = s.status)
  from statuses s
  order by s.status;
end;
$$;
comment on function public.admin_ingestion_status(integer) is
  'Platform administrators: sync jobs per status, in all and created in the last `days` days, with the oldest job of each status (the queue''s age).';

-- The latest failed syncs with what went wrong.
create function public.admin_ingestion_failures(max_rows integer default 20)
returns table (
  job_id uuid,
  data_source_id uuid,
  data_source_name text,
  data_source_type text,
  bot_id uuid,
  bot_name text,
  team_name text,
  failed_at timestamptz,
  error text
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_platform_admin();
  if max_rows is null or max_rows < 1 or max_rows > 200 then
    raise exception 'max_rows is 1 to 200' using errcode = '22023';
  end if;
  return query
  select j.id, ds.id, ds.name, ds.type::text, b.id, b.name, t.name,
    coalesce(j.finished_at, j.updated_at),
    left(coalesce(
      (select string_agg(coalesce(e ->> 'message', e ->> 'code', e::text), '; ')
       from jsonb_array_elements(j.errors) e),
      ds.error, ''), 2000)
  from public.ingestion_jobs j
  join public.data_sources ds on ds.id = j.data_source_id
  join public.bots b on b.id = j.bot_id
  join public.teams t on t.id = b.team_id
  where j.status = 'failed'
  order by coalesce(j.finished_at, j.updated_at) desc
  limit max_rows;
end;
$$;
comment on function public.admin_ingestion_failures(integer) is
  'Platform administrators: the latest failed sync jobs (up to max_rows, 1..200) with their data source, bot, team and error text.';

-- actions -----------------------------------------------------------------------------------
-- Any non-key column of a plan, from a JSON object of column → new value. Unknown columns and
-- the keys are refused; the table's checks validate the result; the log keeps both rows.
create function public.admin_update_plan(plan_id text, changes jsonb)
returns public.plans
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  old_row public.plans;
  new_row public.plans;
  bad text;
begin
  perform private.require_platform_admin();
  if changes is null or jsonb_typeof(changes) <> 'object' or changes = '{}'::jsonb then
    raise exception 'changes must be a JSON object with at least one column' using errcode = '22023';
  end if;
  select k into bad from jsonb_object_keys(changes) k where k in ('id', 'created_at', 'updated_at') limit 1;
  if bad is not null then
    raise exception 'The plan column % cannot be changed', bad using errcode = '42501';
  end if;
  select k into bad from jsonb_object_keys(changes) k
  where not exists (
    select 1 from pg_catalog.pg_attribute a
    where a.attrelid = 'public.plans'::regclass and a.attname = k and a.attnum > 0 and not a.attisdropped
  )
  limit 1;
  if bad is not null then
    raise exception 'Plans have no column %', bad using errcode = '22023';
  end if;

  select * into old_row from public.plans p where p.id = admin_update_plan.plan_id for update;
  if not found then
    raise exception 'No plan %', admin_update_plan.plan_id using errcode = 'PT404';
  end if;

  -- Only the columns named in changes, whatever columns the table has by then (prices too).
  execute format(
    'update public.plans p set (%s) = (select %s from jsonb_populate_record(null::public.plans, $1) r) where p.id = $2',
    (select string_agg(format('%I', k), ', ' order by k) from jsonb_object_keys(changes) k),
    (select string_agg(format('r.%I', k), ', ' order by k) from jsonb_object_keys(changes) k))
  using changes, old_row.id;

  select * into new_row from public.plans p where p.id = old_row.id;
  perform private.log_admin_action('plan.update', 'plan', old_row.id, to_jsonb(old_row), to_jsonb(new_row));
  return new_row;
end;
$$;
comment on function public.admin_update_plan(text, jsonb) is
  'Platform administrators: change any non-key columns of a plan from a JSON object {column: value}; id, created_at and updated_at are refused; the table''s checks apply; audit-logged as plan.update with both rows.';

create function public.admin_set_feature_enabled(kind text, type text, enabled boolean)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  was_disabled boolean;
begin
  perform private.require_platform_admin();
  if kind = 'channel' then
    if type is null or not type = any (enum_range(null::public.channel_type)::text[]) then
      raise exception 'No channel type %', type using errcode = '22023';
    end if;
    if type = 'web' then
      -- Every bot has its web channel (created with the bot); it cannot be a platform switch.
      raise exception 'The web channel cannot be turned off platform-wide' using errcode = '22023';
    end if;
  elsif kind = 'power_up' then
    if type is null or not type = any (array['http', 'lead', 'link', 'handoff']) then
      raise exception 'No power-up type %', type using errcode = '22023';
    end if;
  else
    raise exception 'kind is channel or power_up' using errcode = '22023';
  end if;
  if enabled is null then
    raise exception 'enabled is true or false' using errcode = '22023';
  end if;

  was_disabled := private.is_feature_disabled(kind, type);
  if enabled then
    delete from public.platform_disabled_features f where f.kind = admin_set_feature_enabled.kind and f.type = admin_set_feature_enabled.type;
  else
    insert into public.platform_disabled_features (kind, type, disabled_by)
    values (admin_set_feature_enabled.kind, admin_set_feature_enabled.type, (select auth.uid()))
    on conflict on constraint platform_disabled_features_pkey do nothing;
  end if;
  if was_disabled = enabled then
    perform private.log_admin_action(
      case when enabled then 'feature.enable' else 'feature.disable' end,
      kind || '_type', type,
      jsonb_build_object('enabled', not was_disabled), jsonb_build_object('enabled', enabled));
  end if;
  return enabled;
end;
$$;
comment on function public.admin_set_feature_enabled(text, text, boolean) is
  'Platform administrators: turn a channel type (not web) or power-up type off or back on platform-wide; audit-logged as feature.disable/feature.enable (target channel_type or power_up_type).';

-- grants ------------------------------------------------------------------------------------
-- Platform administrators are signed-in users; every function checks it again itself.
do $$
declare
  f text;
begin
  foreach f in array array[
    'public.admin_dashboard_daily(integer)', 'public.admin_dashboard_tokens(integer)', 'public.admin_dashboard_totals(integer)',
    'public.admin_provider_stats(integer)', 'public.admin_model_usage(integer)', 'public.admin_channel_usage(integer)',
    'public.admin_power_up_usage(integer)', 'public.admin_ingestion_status(integer)', 'public.admin_ingestion_failures(integer)',
    'public.admin_update_plan(text, jsonb)', 'public.admin_set_feature_enabled(text, text, boolean)'
  ] loop
    execute format('revoke execute on function %s from public, anon', f);
    execute format('grant execute on function %s to authenticated', f);
  end loop;
end;
$$;

-- Failed syncs are looked up by status and time for the dashboard.
create index ingestion_jobs_status_created_idx on public.ingestion_jobs (status, created_at);
