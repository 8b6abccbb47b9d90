-- The rest of webhooks and tasks (issue 21):
--   * the webhook events that were listed but never written: lead.created, handoff.requested,
--     test_run.completed;
--   * test tasks that run the bot's tests and report the result and regressions;
--   * leads in the digest;
--   * the recipients' interface language with their addresses (task and endpoint-disabled
--     e-mails are written in it);
--   * ask tasks that post their answer to a messaging channel of the bot (settings.channel_id,
--     optional settings.channel_recipient);
--   * one call that installs every scheduled function on hosted Supabase (the tests tick had none).
--
-- Events (payloads documented and versioned in frontend/content/docs/webhooks.md, version 1):
--   lead.created         a row in public.leads (submit_lead)
--   handoff.requested    a chat's needs_human turns on (request_handoff, or a team member's reply
--                        through reply_as_human: requested_by says which)
--   test_run.completed   a test run reaches succeeded, failed or cancelled
--
-- Test tasks: private.start_test_run(bot_id, task_run_id), which 20261123050100_tasks.sql
-- promised, queues a test run (private.enqueue_test_run) linked to the task run
-- (test_runs.task_run_id). If a run is already queued or running for the bot (after a sync, say)
-- and no task waits for it, the task takes that run's result. The task run stays `running` until
-- its test run ends; then the trigger below ends it: succeeded when the test run succeeded (even
-- with regressions: they are the report), failed otherwise, output
-- {test_run_id, test_run: {status, total, passed, failed, regression_count, fixed_count,
--  previous_run_id}, regressions: [{case_id, question}]}. That also queues task.completed.

-- tables ----------------------------------------------------------------------------------
alter table public.test_runs
  add column task_run_id uuid references public.task_runs (id) on delete set null;
comment on column public.test_runs.task_run_id is 'The test task''s run waiting for this run''s result (ended by private.test_run_finished).';
create index test_runs_task_run_id_idx on public.test_runs (task_run_id);

-- functions: test tasks -------------------------------------------------------------------
create function private.start_test_run(bot_id uuid, task_run_id uuid) returns uuid
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  run public.task_runs;
  started uuid;
begin
  select * into run from public.task_runs r
  where r.id = start_test_run.task_run_id and r.bot_id = start_test_run.bot_id and r.status = 'running';
  if run.id is null then
    raise exception 'No running task run % of this bot', task_run_id using errcode = 'PT404';
  end if;
  if not exists (select 1 from public.test_cases c where c.bot_id = start_test_run.bot_id and c.status = 'active') then
    raise exception 'The bot has no test cases' using errcode = '22023', hint = 'no_test_cases';
  end if;
  started := private.enqueue_test_run(start_test_run.bot_id,
    case run.trigger when 'manual' then 'manual' else 'schedule' end::public.test_run_trigger, run.created_by);
  if started is not null then
    update public.test_runs t set task_run_id = run.id where t.id = started;
    return started;
  end if;
  -- a run is already queued or running: its result is this task's result, unless a task waits for it
  update public.test_runs t set task_run_id = run.id
  where t.bot_id = start_test_run.bot_id and t.status in ('queued', 'running') and t.task_run_id is null
  returning t.id into started;
  if started is null then
    raise exception 'Another task is waiting for the bot''s test run' using errcode = '55006', hint = 'run_in_progress';
  end if;
  return started;
end;
$$;
comment on function private.start_test_run(uuid, uuid) is
  'A test task''s run: queues a test run of the bot for the task run (or joins the one queued or running); the task run ends when it does. Errors: hint no_test_cases, run_in_progress. Service role only.';
revoke execute on function private.start_test_run(uuid, uuid) from public, anon, authenticated;
grant execute on function private.start_test_run(uuid, uuid) to service_role;

-- The tasks domain's hook now calls it directly (it looked it up by name while it did not exist).
create or replace function private.start_task_test_run(bot_id uuid, task_run_id uuid) returns uuid
language sql
volatile
security definer
set search_path = ''
as $$ select private.start_test_run(start_task_test_run.bot_id, start_task_test_run.task_run_id) $$;
comment on function private.start_task_test_run(uuid, uuid) is
  'A test task''s run: private.start_test_run(bot_id, task_run_id). Service role only.';

-- Leads join the digest: counts.leads and the period's latest 20 leads.
create or replace function private.task_digest(bot_id uuid, since timestamptz, until timestamptz) returns jsonb
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
  ),
  period_leads as (
    select l.* from public.leads l
    where l.bot_id = task_digest.bot_id and l.created_at >= since and l.created_at < until
  )
  select jsonb_build_object(
    'since', since, 'until', until,
    'counts', jsonb_build_object(
      'chats', (select count(*) from public.chats c where c.bot_id = task_digest.bot_id and c.created_at >= since and c.created_at < until),
      'questions', (select count(*) from turns where role = 'user'),
      'answers', (select count(*) from turns where role = 'assistant'),
      'feedback_up', (select count(*) from public.message_feedback f where f.bot_id = task_digest.bot_id and f.rating = 'up' and f.created_at >= since and f.created_at < until),
      'feedback_down', (select count(*) from public.message_feedback f where f.bot_id = task_digest.bot_id and f.rating = 'down' and f.created_at >= since and f.created_at < until),
      'leads', (select count(*) from period_leads)),
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
      order by f.created_at desc limit 20) x), '[]'),
    'leads', coalesce((select jsonb_agg(jsonb_build_object('id', id, 'chat_id', chat_id, 'fields', fields, 'at', created_at)) from (
      select id, chat_id, fields, created_at from period_leads order by created_at desc, id limit 20) x), '[]'));
$$;
comment on function private.task_digest(uuid, timestamptz, timestamptz) is
  'Counts, top questions, unanswered questions (answers with an error or no sources), negative feedback and leads (the latest 20) of a bot between two times. Service role only.';

-- E-mail addresses with the language each person reads Parley in (profiles.preferred_language),
-- so that task mails and the endpoint-disabled mail are written in it. Same rows as before.
drop function public.task_recipient_emails(uuid);
drop function private.task_recipient_emails(uuid);
create function private.mail_addresses(user_ids uuid[]) returns table (email text, language text)
language sql
stable
security definer
set search_path = ''
as $$
  select u.email::text, coalesce(p.preferred_language, 'en')::text
  from auth.users u left join public.profiles p on p.id = u.id
  where u.id = any (mail_addresses.user_ids) and u.email is not null;
$$;
comment on function private.mail_addresses(uuid[]) is 'The e-mail address and interface language of each of these users. Service role only.';
revoke execute on function private.mail_addresses(uuid[]) from public, anon, authenticated;

create function private.task_recipient_emails(task_id uuid) returns table (email text, language text)
language sql
stable
security definer
set search_path = ''
as $$
  select * from private.mail_addresses(array(
    select tm.user_id from public.tasks t
    join public.bots b on b.id = t.bot_id
    join public.team_members tm on tm.team_id = b.team_id and tm.user_id = any (t.recipient_ids)
    where t.id = task_recipient_emails.task_id));
$$;
comment on function private.task_recipient_emails(uuid) is
  'The e-mail addresses and interface languages of a task''s recipients who are (still) members of the bot''s team. Service role only.';
revoke execute on function private.task_recipient_emails(uuid) from public, anon, authenticated;
grant execute on function private.task_recipient_emails(uuid) to service_role;
create function public.task_recipient_emails(task_id uuid) returns table (email text, language text)
language sql
stable
security invoker
set search_path = ''
as $$ select * from private.task_recipient_emails(task_id => task_recipient_emails.task_id) $$;
revoke execute on function public.task_recipient_emails(uuid) from public, anon;
grant execute on function public.task_recipient_emails(uuid) to service_role;

drop function public.webhook_endpoint_owner_emails(uuid);
drop function private.webhook_endpoint_owner_emails(uuid);
create function private.webhook_endpoint_owner_emails(endpoint_id uuid) returns table (email text, language text)
language sql
stable
security definer
set search_path = ''
as $$
  select * from private.mail_addresses(array(
    select tm.user_id from public.webhook_endpoints e
    join public.bots b on b.id = e.bot_id
    join public.team_members tm on tm.team_id = b.team_id and tm.role = 'owner'
    where e.id = webhook_endpoint_owner_emails.endpoint_id));
$$;
comment on function private.webhook_endpoint_owner_emails(uuid) is
  'The e-mail addresses and interface languages of the owners of an endpoint''s team (told when it is disabled). Service role only.';
revoke execute on function private.webhook_endpoint_owner_emails(uuid) from public, anon, authenticated;
grant execute on function private.webhook_endpoint_owner_emails(uuid) to service_role;
create function public.webhook_endpoint_owner_emails(endpoint_id uuid) returns table (email text, language text)
language sql
stable
security invoker
set search_path = ''
as $$ select * from private.webhook_endpoint_owner_emails(endpoint_id => webhook_endpoint_owner_emails.endpoint_id) $$;
revoke execute on function public.webhook_endpoint_owner_emails(uuid) from public, anon;
grant execute on function public.webhook_endpoint_owner_emails(uuid) to service_role;

-- An ask task may post its answer to a messaging channel of its own bot (the tasks function
-- sends it); checked here beside private.check_task, which knows nothing of channels.
create function private.check_task_channel() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.settings -> 'channel_id' is null or new.settings -> 'channel_id' = 'null'::jsonb then
    return new;
  end if;
  if new.type <> 'ask' then
    raise exception 'Only an ask task posts to a channel' using errcode = '22023';
  end if;
  if jsonb_typeof(new.settings -> 'channel_id') <> 'string'
     or (new.settings ->> 'channel_id') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
     or not exists (select 1 from public.channels c where c.id = (new.settings ->> 'channel_id')::uuid and c.bot_id = new.bot_id
                    and c.type in ('slack', 'discord', 'telegram', 'whatsapp')) then
    raise exception 'The channel must be a messaging channel of the task''s bot' using errcode = '22023';
  end if;
  if new.settings ? 'channel_recipient' and new.settings -> 'channel_recipient' <> 'null'::jsonb
     and (jsonb_typeof(new.settings -> 'channel_recipient') <> 'string' or char_length(new.settings ->> 'channel_recipient') > 200) then
    raise exception 'settings.channel_recipient is a channel id, chat id or number (at most 200 characters)' using errcode = '22023';
  end if;
  return new;
end;
$$;

-- event triggers: the payloads of docs/webhooks.md, version 1 ------------------------------
create function private.webhook_lead_created() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.enqueue_event(new.bot_id, 'lead.created', jsonb_build_object('lead', jsonb_build_object(
    'id', new.id, 'bot_id', new.bot_id, 'chat_id', new.chat_id, 'power_up_id', new.power_up_id,
    'fields', new.fields, 'created_at', new.created_at)));
  return null;
end;
$$;

create function private.webhook_handoff_requested() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  last_message jsonb;
begin
  if not new.needs_human or (tg_op = 'UPDATE' and old.needs_human) then
    return null;
  end if;
  select jsonb_build_object('id', m.id, 'content', m.content, 'created_at', m.created_at) into last_message
  from public.messages m where m.chat_id = new.id and m.role = 'user'
  order by m.created_at desc, m.id desc limit 1;
  perform private.enqueue_event(new.bot_id, 'handoff.requested', jsonb_build_object(
    'chat', jsonb_build_object('id', new.id, 'bot_id', new.bot_id, 'channel', new.channel, 'title', new.title,
      'created_at', new.created_at, 'handoff_requested_at', new.handoff_requested_at),
    -- reply_as_human writes the team's message, then takes the chat over, in one transaction
    'requested_by', case when exists (select 1 from public.messages h
                                      where h.chat_id = new.id and h.role = 'human' and h.created_at = now())
                         then 'team' else 'visitor' end,
    'last_visitor_message', last_message));
  return null;
end;
$$;

-- A test run reached a final status: test_run.completed, and the waiting test task's run ends.
create function private.test_run_finished() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  regressed jsonb;
begin
  if new.status not in ('succeeded', 'failed', 'cancelled') or new.status = old.status then
    return null;
  end if;
  select coalesce(jsonb_agg(jsonb_build_object('case_id', r.case_id, 'question', r.question) order by r.created_at, r.case_id), '[]')
  into regressed
  from (select r.case_id, r.question, r.created_at from public.test_results r
        where r.run_id = new.id and r.case_id = any (new.regressions)
        order by r.created_at, r.case_id limit 50) r;
  perform private.enqueue_event(new.bot_id, 'test_run.completed', jsonb_build_object('test_run', jsonb_build_object(
    'id', new.id, 'bot_id', new.bot_id, 'trigger', new.trigger, 'status', new.status, 'error', new.error,
    'total', new.progress_total, 'passed', new.passed_count, 'failed', new.failed_count,
    'regression_count', new.regression_count, 'regressions', regressed, 'fixed_count', new.fixed_count,
    'previous_run_id', new.previous_run_id, 'task_run_id', new.task_run_id,
    'started_at', new.started_at, 'finished_at', new.finished_at)));
  if new.task_run_id is not null
     and exists (select 1 from public.task_runs t where t.id = new.task_run_id and t.status = 'running') then
    perform private.finish_task_run(new.task_run_id, new.status = 'succeeded', jsonb_build_object(
      'test_run_id', new.id,
      'test_run', jsonb_build_object('status', new.status, 'total', new.progress_total, 'passed', new.passed_count,
        'failed', new.failed_count, 'regression_count', new.regression_count, 'fixed_count', new.fixed_count,
        'previous_run_id', new.previous_run_id),
      'regressions', regressed),
      case new.status when 'succeeded' then null
        else format('test_run_%s: %s', new.status, coalesce(new.error,
          case new.status when 'cancelled' then 'The test run was cancelled' else 'The test run failed' end)) end);
  end if;
  return null;
end;
$$;

-- Hosted Supabase: every tick of supabase/schedules.json as a pg_cron job calling the function
-- through pg_net each minute (pg_cron's unit): parley-sync (ingest), parley-tests (tests: queued
-- and scheduled test runs), parley-deliver (deliver: webhooks), parley-tasks (tasks). cron.schedule
-- replaces a job of the same name, so this also refreshes what private.schedule_ingest_tick and
-- private.schedule_webhook_and_task_ticks installed; those two are dropped (one way to install
-- the schedules). Run once as postgres:
--   select private.schedule_function_ticks('https://<project>.supabase.co/functions/v1', '<service role key>');
-- or set parley.functions_url and parley.service_role_key before pushing (as before).
create function private.schedule_function_ticks(functions_url text, service_role_key text) returns void
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
                                   ('parley-deliver', '/deliver/tick'), ('parley-tasks', '/tasks/tick')) v(name, path) loop
    execute format('select cron.schedule(%L, %L, %L)', job.name, '* * * * *', format(
      'select net.http_post(url := %L, headers := jsonb_build_object(''Authorization'', %L, ''Content-Type'', ''application/json''), body := ''{}''::jsonb)',
      rtrim(functions_url, '/') || job.path, 'Bearer ' || service_role_key));
  end loop;
end;
$$;
comment on function private.schedule_function_ticks(text, text) is
  'Installs (or refreshes) the pg_cron jobs parley-sync, parley-tests, parley-deliver and parley-tasks that call ingest, tests, deliver and tasks /tick every minute (hosted Supabase).';
revoke execute on function private.schedule_function_ticks(text, text) from public, anon, authenticated;
drop function private.schedule_ingest_tick(text, text);
drop function private.schedule_webhook_and_task_ticks(text, text);

do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_cron')
     and exists (select 1 from pg_extension where extname = 'pg_net')
     and coalesce(current_setting('parley.functions_url', true), '') <> ''
     and coalesce(current_setting('parley.service_role_key', true), '') <> '' then
    perform private.schedule_function_ticks(current_setting('parley.functions_url'), current_setting('parley.service_role_key'));
  end if;
end $$;

-- triggers --------------------------------------------------------------------------------
create trigger leads_webhook_event after insert on public.leads
  for each row execute function private.webhook_lead_created();
-- named after chats_webhook_event so that chat.created comes first for a chat born waiting
create trigger chats_webhook_handoff after insert or update of needs_human on public.chats
  for each row execute function private.webhook_handoff_requested();
create trigger tasks_check_channel before insert or update of settings on public.tasks
  for each row execute function private.check_task_channel();
create trigger test_runs_finished after update of status on public.test_runs
  for each row execute function private.test_run_finished();
