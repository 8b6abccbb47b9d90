-- Tasks: work a bot does on a schedule (digest, ask, sync, test), their runs, and the
-- hosted schedules of the `deliver` and `tasks` functions.
--
-- Schedule: a 5-field cron expression read in an IANA time zone, or every N hours.
-- next_run_at: for "every N hours" Postgres sets it (the task's save time + N hours); for cron
-- it is left null on save and the `tasks` function's tick fills it (cron-parser), so a saved
-- task shows its next run within a tick.
--
-- Claiming (public.claim_due_tasks, service role): due tasks are locked with
-- `for update skip locked`, a run row is written and next_run_at moves on in the same
-- statement, so two workers never run the same slot.
-- Catch-up rule: a task that is late (the scheduler was down) runs ONCE, however many slots
-- it missed; the next slot is the first one after the claim time. A run still `running`
-- 30 minutes after it started is marked failed (timed_out) by the next claim.
--
-- Who may do what: admins and owners of the bot's team read, create, change and delete its
-- tasks and read their runs; platform admins read both; runs are written by the function.
-- `task.completed` is queued for webhooks (and the task's own endpoint) when a run finishes.
--
-- Test tasks: no test-runs table exists yet. A test task's run calls
-- private.start_test_run(task_run_id) when it exists (the tests domain defines
-- `private.start_test_run(bot_id uuid, task_run_id uuid) returns uuid`); until then the run
-- ends `failed` with error `tests_unavailable`.

-- types -----------------------------------------------------------------------------------
create type public.task_type as enum ('digest', 'ask', 'sync', 'test');
create type public.task_run_status as enum ('running', 'succeeded', 'failed');

-- tables ----------------------------------------------------------------------------------
create table public.tasks (
  id uuid primary key default gen_random_uuid(),
  bot_id uuid not null references public.bots (id) on delete cascade,
  name text not null check (char_length(btrim(name)) between 1 and 200),
  type public.task_type not null,
  cron text check (cron is null or (char_length(cron) <= 120 and cron ~ '^\s*\S+(\s+\S+){4}\s*$')),
  timezone text not null default 'UTC' check (char_length(timezone) <= 64),
  every_hours integer check (every_hours is null or every_hours between 1 and 720),
  settings jsonb not null default '{}' check (jsonb_typeof(settings) = 'object' and pg_column_size(settings) <= 16384),
  recipient_ids uuid[] not null default '{}' check (cardinality(recipient_ids) <= 50),
  webhook_endpoint_id uuid references public.webhook_endpoints (id) on delete set null,
  enabled boolean not null default true,
  next_run_at timestamptz,
  last_run_at timestamptz,
  last_status public.task_run_status,
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((cron is null) <> (every_hours is null))
);
comment on table public.tasks is
  'Scheduled work of a bot. settings: digest {period_hours?}, ask {prompt}, sync {data_source_ids}, test {}. Output goes to recipient_ids (team members, by e-mail) and/or webhook_endpoint_id (task.completed).';
create index tasks_bot_id_idx on public.tasks (bot_id);
create index tasks_due_idx on public.tasks (next_run_at) where enabled;
create index tasks_webhook_endpoint_id_idx on public.tasks (webhook_endpoint_id);
create index tasks_created_by_idx on public.tasks (created_by);

create table public.task_runs (
  id uuid primary key default gen_random_uuid(),
  task_id uuid not null references public.tasks (id) on delete cascade,
  bot_id uuid not null references public.bots (id) on delete cascade,
  trigger text not null check (trigger in ('schedule', 'manual')),
  status public.task_run_status not null default 'running',
  scheduled_for timestamptz,
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  duration_ms integer,
  output jsonb not null default '{}' check (jsonb_typeof(output) = 'object'),
  error text check (error is null or char_length(error) <= 1000),
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);
comment on table public.task_runs is 'One run of a task: trigger, status, duration and output (what was sent where). Written by the tasks function.';
create index task_runs_task_id_idx on public.task_runs (task_id, started_at desc);
create index task_runs_bot_id_idx on public.task_runs (bot_id);
create index task_runs_running_idx on public.task_runs (started_at) where status = 'running';
create index task_runs_created_by_idx on public.task_runs (created_by);

alter table public.tasks enable row level security;
alter table public.task_runs enable row level security;

revoke all on public.tasks from anon;
revoke all on public.task_runs from anon;
revoke insert, update, delete, truncate, references, trigger on public.task_runs from authenticated;
revoke insert, update, truncate, references, trigger on public.tasks from authenticated;
grant insert (bot_id, name, type, cron, timezone, every_hours, settings, recipient_ids, webhook_endpoint_id, enabled)
  on public.tasks to authenticated;
grant update (name, cron, timezone, every_hours, settings, recipient_ids, webhook_endpoint_id, enabled)
  on public.tasks to authenticated;

-- functions -------------------------------------------------------------------------------
create function private.check_task() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and (new.bot_id <> old.bot_id or new.type <> old.type) then
    raise exception 'A task keeps its bot and type' using errcode = '42501';
  end if;
  if not exists (select 1 from pg_catalog.pg_timezone_names where name = new.timezone) then
    raise exception 'Unknown time zone: %', new.timezone using errcode = '22023';
  end if;
  if new.webhook_endpoint_id is not null
     and not exists (select 1 from public.webhook_endpoints e where e.id = new.webhook_endpoint_id and e.bot_id = new.bot_id) then
    raise exception 'The webhook endpoint belongs to another bot' using errcode = '22023';
  end if;
  if exists (
    select 1 from unnest(new.recipient_ids) r(id)
    where not exists (select 1 from public.team_members tm join public.bots b on b.team_id = tm.team_id
                      where b.id = new.bot_id and tm.user_id = r.id)
  ) then
    raise exception 'Recipients must be members of the bot''s team' using errcode = '22023';
  end if;
  if new.type = 'ask' and char_length(btrim(coalesce(new.settings ->> 'prompt', ''))) not between 1 and 4000 then
    raise exception 'An ask task needs a prompt (1 to 4000 characters)' using errcode = '22023';
  end if;
  if new.type = 'sync' and jsonb_typeof(new.settings -> 'data_source_ids') is distinct from 'array' then
    raise exception 'A sync task needs settings.data_source_ids' using errcode = '22023';
  end if;
  if tg_op = 'INSERT' or new.cron is distinct from old.cron or new.timezone is distinct from old.timezone
     or new.every_hours is distinct from old.every_hours or (new.enabled and not old.enabled) then
    new.next_run_at := case when new.every_hours is not null then now() + make_interval(hours => new.every_hours) end;
  end if;
  return new;
end;
$$;

-- Claims due tasks (see the header for the catch-up rule). Runs of "every N hours" move on in
-- whole periods from the slot they were due; cron tasks get next_run_at null, which the caller
-- (the tasks function, the only one that reads cron) fills right after.
create function private.claim_due_tasks(at_time timestamptz default now(), max_tasks integer default 20)
returns table (run_id uuid, task_id uuid, scheduled_for timestamptz)
language plpgsql
security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  update public.task_runs r
  set status = 'failed', finished_at = at_time, error = 'timed_out',
      duration_ms = least(extract(epoch from at_time - r.started_at) * 1000, 2147483647)::integer
  where r.status = 'running' and r.started_at < at_time - interval '30 minutes';

  return query
  with due as (
    select t.id, t.bot_id, t.next_run_at, t.every_hours
    from public.tasks t
    where t.enabled and t.next_run_at is not null and t.next_run_at <= at_time
    order by t.next_run_at
    limit greatest(1, least(max_tasks, 100))
    for update skip locked
  ),
  moved as (
    update public.tasks t
    set next_run_at = case when d.every_hours is null then null else
          d.next_run_at + make_interval(hours => d.every_hours)
            * (floor(extract(epoch from at_time - d.next_run_at) / (d.every_hours * 3600))::integer + 1) end,
        last_run_at = at_time
    from due d where t.id = d.id
    returning t.id
  ),
  runs as (
    insert into public.task_runs (task_id, bot_id, trigger, scheduled_for, started_at)
    select d.id, d.bot_id, 'schedule', d.next_run_at, at_time from due d
    where d.id in (select m.id from moved m)
    returning id, task_runs.task_id, task_runs.scheduled_for
  )
  select r.id, r.task_id, r.scheduled_for from runs r;
end;
$$;
comment on function private.claim_due_tasks(timestamptz, integer) is
  'Claims the tasks due at at_time exactly once (for update skip locked): a running task_runs row each, next_run_at moved past at_time (one run however late). Service role only.';
revoke execute on function private.claim_due_tasks(timestamptz, integer) from public, anon, authenticated;
grant execute on function private.claim_due_tasks(timestamptz, integer) to service_role;

create function private.finish_task_run(run_id uuid, ok boolean, output jsonb default '{}', error text default null,
  at_time timestamptz default now())
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  r public.task_runs;
begin
  update public.task_runs t
  set status = case when ok then 'succeeded'::public.task_run_status else 'failed' end,
      finished_at = at_time, output = coalesce(finish_task_run.output, '{}'),
      error = left(finish_task_run.error, 1000),
      duration_ms = least(greatest(0, extract(epoch from at_time - t.started_at) * 1000), 2147483647)::integer
  where t.id = finish_task_run.run_id and t.status = 'running'
  returning * into r;
  if r.id is null then
    raise exception 'No running task run %', run_id using errcode = 'PT404';
  end if;
  update public.tasks t set last_status = r.status, last_run_at = coalesce(t.last_run_at, r.started_at) where t.id = r.task_id;
end;
$$;
comment on function private.finish_task_run(uuid, boolean, jsonb, text, timestamptz) is 'Ends a running run with its status, duration and output. Service role only.';
revoke execute on function private.finish_task_run(uuid, boolean, jsonb, text, timestamptz) from public, anon, authenticated;
grant execute on function private.finish_task_run(uuid, boolean, jsonb, text, timestamptz) to service_role;

-- A digest of the bot's conversations between two times.
create function private.task_digest(bot_id uuid, since timestamptz, until timestamptz) returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  with turns as (
    select m.* from public.messages m
    where m.bot_id = task_digest.bot_id and m.created_at >= since and m.created_at < until
  ),
  answered as (
    -- each answer with the question right before it in its chat
    select a.*, (select q.content from public.messages q
                 where q.chat_id = a.chat_id and q.role = 'user' and q.created_at <= a.created_at
                 order by q.created_at desc limit 1) as question
    from turns a where a.role = 'assistant'
  )
  select jsonb_build_object(
    'since', since, 'until', until,
    'counts', jsonb_build_object(
      'chats', (select count(*) from public.chats c where c.bot_id = task_digest.bot_id and c.created_at >= since and c.created_at < until),
      'questions', (select count(*) from turns where role = 'user'),
      'answers', (select count(*) from turns where role = 'assistant'),
      'feedback_up', (select count(*) from public.message_feedback f where f.bot_id = task_digest.bot_id and f.rating = 'up' and f.created_at >= since and f.created_at < until),
      'feedback_down', (select count(*) from public.message_feedback f where f.bot_id = task_digest.bot_id and f.rating = 'down' and f.created_at >= since and f.created_at < until)),
    'top_questions', coalesce((select jsonb_agg(jsonb_build_object('question', q, 'count', n)) from (
      select lower(btrim(content)) q, count(*) n from turns where role = 'user'
      group by 1 order by 2 desc, 1 limit 10) x), '[]'),
    'unanswered_questions', coalesce((select jsonb_agg(jsonb_build_object('question', question, 'chat_id', chat_id, 'at', created_at)) from (
      select question, chat_id, created_at from answered
      where (error is not null or jsonb_array_length(sources) = 0) and question is not null
      order by created_at desc limit 20) x), '[]'),
    'negative_feedback', coalesce((select jsonb_agg(jsonb_build_object('comment', comment, 'answer', answer, 'chat_id', chat_id, 'at', created_at)) from (
      select f.comment, left(m.content, 500) answer, m.chat_id, f.created_at
      from public.message_feedback f join public.messages m on m.id = f.message_id
      where f.bot_id = task_digest.bot_id and f.rating = 'down' and f.created_at >= since and f.created_at < until
      order by f.created_at desc limit 20) x), '[]'));
$$;
comment on function private.task_digest(uuid, timestamptz, timestamptz) is
  'Counts, top questions, unanswered questions (answers with an error or no sources) and negative feedback of a bot between two times. Service role only.';
revoke execute on function private.task_digest(uuid, timestamptz, timestamptz) from public, anon, authenticated;
grant execute on function private.task_digest(uuid, timestamptz, timestamptz) to service_role;

-- The e-mail addresses of a task's recipients who are (still) members of the bot's team.
create function private.task_recipient_emails(task_id uuid) returns table (email text)
language sql
stable
security definer
set search_path = ''
as $$
  select u.email::text
  from public.tasks t
  join public.bots b on b.id = t.bot_id
  join public.team_members tm on tm.team_id = b.team_id and tm.user_id = any (t.recipient_ids)
  join auth.users u on u.id = tm.user_id
  where t.id = task_recipient_emails.task_id and u.email is not null;
$$;
revoke execute on function private.task_recipient_emails(uuid) from public, anon, authenticated;
grant execute on function private.task_recipient_emails(uuid) to service_role;

-- The hook a test task calls: the tests domain provides private.start_test_run(bot_id, task_run_id).
create function private.start_task_test_run(bot_id uuid, task_run_id uuid) returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  started uuid;
begin
  if to_regprocedure('private.start_test_run(uuid, uuid)') is null then
    raise exception 'Tests are not available yet' using errcode = 'PT501', hint = 'tests_unavailable';
  end if;
  execute 'select private.start_test_run($1, $2)' into started using bot_id, task_run_id;
  return started;
end;
$$;
comment on function private.start_task_test_run(uuid, uuid) is
  'A test task''s run: calls private.start_test_run(bot_id, task_run_id) of the tests domain (PT501 tests_unavailable until it exists). Service role only.';
revoke execute on function private.start_task_test_run(uuid, uuid) from public, anon, authenticated;
grant execute on function private.start_task_test_run(uuid, uuid) to service_role;

create function private.webhook_task_completed() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  task public.tasks;
begin
  if new.status = 'running' or old.status <> 'running' then
    return null;
  end if;
  select * into task from public.tasks where id = new.task_id;
  perform private.enqueue_event(new.bot_id, 'task.completed', jsonb_build_object(
    'task', jsonb_build_object('id', task.id, 'bot_id', task.bot_id, 'name', task.name, 'type', task.type),
    'run', jsonb_build_object('id', new.id, 'trigger', new.trigger, 'status', new.status, 'scheduled_for', new.scheduled_for,
      'started_at', new.started_at, 'finished_at', new.finished_at, 'duration_ms', new.duration_ms,
      'output', new.output, 'error', new.error)),
    task.webhook_endpoint_id);
  return null;
end;
$$;

-- Hosted Supabase: pg_cron calls deliver/tick and tasks/tick every minute through pg_net (the
-- local stack does the same from supabase/schedules.json). Run once as postgres:
--   select private.schedule_webhook_and_task_ticks('https://<project>.supabase.co/functions/v1', '<service role key>');
-- or set parley.functions_url and parley.service_role_key before pushing (as for ingest).
create function private.schedule_webhook_and_task_ticks(functions_url text, service_role_key text) returns void
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
  for job in select * from (values ('parley-deliver', '/deliver/tick'), ('parley-tasks', '/tasks/tick')) v(name, path) loop
    execute format('select cron.schedule(%L, %L, %L)', job.name, '* * * * *', format(
      'select net.http_post(url := %L, headers := jsonb_build_object(''Authorization'', %L, ''Content-Type'', ''application/json''), body := ''{}''::jsonb)',
      rtrim(functions_url, '/') || job.path, 'Bearer ' || service_role_key));
  end loop;
end;
$$;
comment on function private.schedule_webhook_and_task_ticks(text, text) is
  'Installs the pg_cron jobs "parley-deliver" and "parley-tasks" that call deliver/tick and tasks/tick every minute (hosted Supabase).';
revoke execute on function private.schedule_webhook_and_task_ticks(text, text) from public, anon, authenticated;

do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_cron')
     and exists (select 1 from pg_extension where extname = 'pg_net')
     and coalesce(current_setting('parley.functions_url', true), '') <> ''
     and coalesce(current_setting('parley.service_role_key', true), '') <> '' then
    perform private.schedule_webhook_and_task_ticks(current_setting('parley.functions_url'), current_setting('parley.service_role_key'));
  end if;
end $$;

-- public RPCs: security invoker wrappers of the private functions above ------------------
create function public.claim_due_tasks(at_time timestamptz default now(), max_tasks integer default 20) returns table (run_id uuid, task_id uuid, scheduled_for timestamptz)
language sql
security invoker
set search_path = ''
as $$ select * from private.claim_due_tasks(at_time => claim_due_tasks.at_time, max_tasks => claim_due_tasks.max_tasks) $$;
revoke execute on function public.claim_due_tasks(timestamptz, integer) from public, anon;
grant execute on function public.claim_due_tasks(timestamptz, integer) to service_role;

create function public.finish_task_run(run_id uuid, ok boolean, output jsonb default '{}', error text default null,
  at_time timestamptz default now()) returns void
language sql
security invoker
set search_path = ''
as $$ select private.finish_task_run(run_id => finish_task_run.run_id, ok => finish_task_run.ok, output => finish_task_run.output, error => finish_task_run.error, at_time => finish_task_run.at_time) $$;
revoke execute on function public.finish_task_run(uuid, boolean, jsonb, text, timestamptz) from public, anon;
grant execute on function public.finish_task_run(uuid, boolean, jsonb, text, timestamptz) to service_role;

create function public.task_digest(bot_id uuid, since timestamptz, until timestamptz) returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$ select private.task_digest(bot_id => task_digest.bot_id, since => task_digest.since, until => task_digest.until) $$;
revoke execute on function public.task_digest(uuid, timestamptz, timestamptz) from public, anon;
grant execute on function public.task_digest(uuid, timestamptz, timestamptz) to service_role;

create function public.task_recipient_emails(task_id uuid) returns table (email text)
language sql
stable
security invoker
set search_path = ''
as $$ select * from private.task_recipient_emails(task_id => task_recipient_emails.task_id) $$;
revoke execute on function public.task_recipient_emails(uuid) from public, anon;
grant execute on function public.task_recipient_emails(uuid) to service_role;

create function public.start_task_test_run(bot_id uuid, task_run_id uuid) returns uuid
language sql
security invoker
set search_path = ''
as $$ select private.start_task_test_run(bot_id => start_task_test_run.bot_id, task_run_id => start_task_test_run.task_run_id) $$;
revoke execute on function public.start_task_test_run(uuid, uuid) from public, anon;
grant execute on function public.start_task_test_run(uuid, uuid) to service_role;

-- triggers --------------------------------------------------------------------------------
create trigger tasks_set_timestamps before insert or update on public.tasks
  for each row execute function private.set_timestamps();
create trigger tasks_check before insert or update on public.tasks
  for each row execute function private.check_task();
create trigger task_runs_webhook_event after update of status on public.task_runs
  for each row execute function private.webhook_task_completed();

-- policies --------------------------------------------------------------------------------
create policy "Team admins can read tasks" on public.tasks
  for select to authenticated using ((select private.has_bot_role(bot_id, 'admin')));
create policy "Platform admins can read tasks" on public.tasks
  for select to authenticated using ((select private.is_platform_admin()));
create policy "Team admins can create tasks" on public.tasks
  for insert to authenticated with check ((select private.has_bot_role(bot_id, 'admin')));
create policy "Team admins can update tasks" on public.tasks
  for update to authenticated
  using ((select private.has_bot_role(bot_id, 'admin')))
  with check ((select private.has_bot_role(bot_id, 'admin')));
create policy "Team admins can delete tasks" on public.tasks
  for delete to authenticated using ((select private.has_bot_role(bot_id, 'admin')));

create policy "Team admins can read task runs" on public.task_runs
  for select to authenticated using ((select private.has_bot_role(bot_id, 'admin')));
create policy "Platform admins can read task runs" on public.task_runs
  for select to authenticated using ((select private.is_platform_admin()));
