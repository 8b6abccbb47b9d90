-- Tasks: who may create, read, change and delete them; runs written only by the worker; the
-- claim (exactly once, catch-up), completion and task.completed; the digest.
begin;
select plan(40);
select tests.create_team_fixture();
select tests.create_supabase_user('visitor1');

-- create ------------------------------------------------------------------------------------
select tests.authenticate_as('owner');
select lives_ok($$ insert into public.tasks (bot_id, name, type, every_hours, recipient_ids)
  values (tests.bot_id('A gallery'), 'Daily digest', 'digest', 24, array[tests.get_supabase_uid('admin')]) $$,
  'an owner creates a digest task every 24 hours');
select cmp_ok((select next_run_at from public.tasks where name = 'Daily digest'), '>', now() + interval '23 hours',
  'an every-N-hours task is next due N hours after it is saved');
select lives_ok($$ insert into public.tasks (bot_id, name, type, cron, timezone, settings)
  values (tests.bot_id('A gallery'), 'Morning answer', 'ask', '0 9 * * 1-5', 'Europe/Berlin', '{"prompt": "What is new?"}') $$,
  'an owner creates a cron ask task in a time zone');
select is((select next_run_at from public.tasks where name = 'Morning answer'), null, 'a cron task waits for the tick to compute its next run');
select throws_ok($$ insert into public.tasks (bot_id, name, type, cron, timezone, settings)
  values (tests.bot_id('A gallery'), 'x', 'ask', '0 9 * * *', 'Mars/Olympus', '{"prompt": "x"}') $$,
  '22023', 'Unknown time zone: Mars/Olympus', 'an unknown time zone is refused');
select throws_ok($$ insert into public.tasks (bot_id, name, type, every_hours) values (tests.bot_id('A gallery'), 'x', 'ask', 2) $$,
  '22023', null, 'an ask task needs a prompt');
select throws_ok($$ insert into public.tasks (bot_id, name, type, every_hours, cron) values (tests.bot_id('A gallery'), 'x', 'digest', 2, '* * * * *') $$,
  '23514', null, 'a cron expression or every N hours, not both');
select throws_ok($$ insert into public.tasks (bot_id, name, type, every_hours, recipient_ids)
  values (tests.bot_id('A gallery'), 'x', 'digest', 2, array[tests.get_supabase_uid('other')]) $$,
  '22023', 'Recipients must be members of the bot''s team', 'recipients must be team members');
select throws_ok($$ insert into public.tasks (bot_id, name, type, every_hours, next_run_at) values (tests.bot_id('A gallery'), 'x', 'digest', 2, now()) $$,
  '42501', null, 'a client does not set next_run_at');

select tests.authenticate_as('admin');
select lives_ok($$ insert into public.tasks (bot_id, name, type, every_hours, settings)
  values (tests.bot_id('A unlisted'), 'Resync', 'sync', 6, '{"data_source_ids": []}') $$, 'an admin creates a sync task');
select tests.authenticate_as('other');
select throws_ok($$ insert into public.tasks (bot_id, name, type, every_hours) values (tests.bot_id('A gallery'), 'x', 'digest', 1) $$,
  '42501', null, 'another team cannot add a task');
select tests.authenticate_as('visitor1');
select throws_ok($$ insert into public.tasks (bot_id, name, type, every_hours) values (tests.bot_id('A gallery'), 'x', 'digest', 1) $$,
  '42501', null, 'a visitor cannot add a task');
select tests.authenticate_as('platform');
select throws_ok($$ insert into public.tasks (bot_id, name, type, every_hours) values (tests.bot_id('A gallery'), 'x', 'digest', 1) $$,
  '42501', null, 'a platform admin cannot add a task');
select tests.clear_authentication();
select throws_ok($$ insert into public.tasks (bot_id, name, type, every_hours) values (tests.bot_id('A gallery'), 'x', 'digest', 1) $$,
  '42501', null, 'anon cannot add a task');

-- read, change, delete ------------------------------------------------------------------------
select tests.authenticate_as('admin');
select is((select count(*)::int from public.tasks), 3, 'an admin reads the team''s tasks');
select lives_ok($$ update public.tasks set name = 'Digest' where name = 'Daily digest' $$, 'an admin renames a task');
select throws_ok($$ update public.tasks set type = 'ask' where name = 'Digest' $$, '42501', null, 'a task keeps its type');
select tests.authenticate_as('other');
select is((select count(*)::int from public.tasks), 0, 'another team reads no task');
delete from public.tasks;
select tests.authenticate_as('platform');
select is((select count(*)::int from public.tasks), tests.count_all('public.tasks'), 'a platform admin reads every task, and another team deleted none');
select tests.clear_authentication();
select throws_ok($$ select count(*) from public.tasks $$, '42501', null, 'anon may not read tasks');
select tests.authenticate_as('owner');
select throws_ok($$ insert into public.task_runs (task_id, bot_id, trigger) select id, bot_id, 'manual' from public.tasks limit 1 $$,
  '42501', null, 'a client cannot write runs');
select throws_ok($$ select * from public.claim_due_tasks() $$, '42501', null, 'a client cannot claim tasks');

-- the claim: exactly once, catch-up ------------------------------------------------------------
reset role;
update public.tasks set next_run_at = now() - interval '50 hours' where name = 'Digest';
select tests.authenticate_as_service_role();
create temporary table claimed on commit drop as select * from public.claim_due_tasks(now(), 20);
select is((select count(*)::int from claimed), 1, 'the due task is claimed once');
select is((select count(*)::int from public.claim_due_tasks(now(), 20)), 0, 'a second claim at the same time finds nothing');
select is((select next_run_at from public.tasks where name = 'Digest'), (now() - interval '50 hours') + interval '72 hours',
  'a task late by two periods runs once and is next due at its first slot after now');
select is((select status::text from public.task_runs where id = (select run_id from claimed)), 'running', 'the run is logged as running');

-- finishing: status, duration, task.completed ---------------------------------------------------
reset role;
insert into public.webhook_endpoints (bot_id, url, events) values (tests.bot_id('A gallery'), 'https://hooks.example.com/t', array['task.completed']);
select tests.authenticate_as_service_role();
select lives_ok($$ select public.finish_task_run((select run_id from claimed), true, '{"sent_to": 1}', null, now() + interval '2 seconds') $$,
  'the worker finishes the run');
select is((select duration_ms from public.task_runs where id = (select run_id from claimed)), 2000, 'the run''s duration is logged');
select is((select data -> 'run' ->> 'status' from public.webhook_events where type = 'task.completed'), 'succeeded',
  'a finished run queues task.completed');
select ok((public.task_digest(tests.bot_id('A gallery'), now() - interval '1 day', now() + interval '1 day') -> 'counts') ? 'questions',
  'the digest counts the period''s questions');

-- digest: leads ----------------------------------------------------------------------------------
reset role;
insert into public.leads (bot_id, fields) values (tests.bot_id('A gallery'), '{"email": "ada@example.com"}');
select results_eq($$ select (d -> 'counts' ->> 'leads')::int, d -> 'leads' -> 0 -> 'fields' ->> 'email'
    from public.task_digest(tests.bot_id('A gallery'), now() - interval '1 day', now() + interval '1 day') d $$,
  $$ values (1, 'ada@example.com') $$, 'the digest counts and lists the period''s leads');

-- test tasks: a real test run, whose end ends the task's run --------------------------------------
insert into public.tasks (bot_id, name, type, every_hours) values (tests.bot_id('A gallery'), 'Regressions', 'test', 24);
create temporary table trun on commit drop as
  with r as (insert into public.task_runs (task_id, bot_id, trigger)
    select id, bot_id, 'manual' from public.tasks where name = 'Regressions' returning id) select id from r;
grant select on trun to authenticated, service_role;
select tests.authenticate_as_service_role();
select throws_ok($$ select public.start_task_test_run(tests.bot_id('A gallery'), (select id from trun)) $$,
  '22023', 'The bot has no test cases', 'a test task of a bot without test cases fails clearly');
reset role;
insert into public.test_cases (id, bot_id, question) values ('f4310000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 'Open on Sundays?');
select tests.authenticate_as_service_role();
create temporary table queued on commit drop as select public.start_task_test_run(tests.bot_id('A gallery'), (select id from trun)) id;
reset role;
select results_eq($$ select status::text, trigger::text, task_run_id from public.test_runs where id = (select id from queued) $$,
  $$ values ('queued', 'manual', (select id from trun)) $$, 'a test task queues a test run linked to its run');
update public.test_runs set status = 'running' where id = (select id from queued);
insert into public.test_results (run_id, case_id, bot_id, question, passed)
  values ((select id from queued), 'f4310000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 'Open on Sundays?', false);
select is((select status::text from public.task_runs where id = (select id from trun)), 'running', 'the task run waits for its test run');
update public.test_runs set status = 'succeeded', progress_total = 1, progress_done = 1, failed_count = 1, regression_count = 1,
  regressions = array['f4310000-0000-0000-0000-000000000001'::uuid] where id = (select id from queued);
select results_eq($$ select status::text, output -> 'test_run' ->> 'regression_count', output -> 'regressions' -> 0 ->> 'question',
    output ->> 'test_run_id' from public.task_runs where id = (select id from trun) $$,
  $$ values ('succeeded', '1', 'Open on Sundays?', (select id::text from queued)) $$,
  'the test run''s end ends the task run with its result and regressions');

-- recipients come with the language they read Parley in (task mails are written in it)
reset role;
update public.profiles set preferred_language = 'de' where id = tests.get_supabase_uid('admin');
select tests.authenticate_as_service_role();
select results_eq($$ select r.language from public.tasks t, public.task_recipient_emails(t.id) r where t.name = 'Digest' $$,
  $$ values ('de') $$, 'a recipient comes with their interface language');

-- an ask task may post to a messaging channel of its own bot, nothing else
reset role;
insert into public.channels (bot_id, type, name) values (tests.bot_id('A gallery'), 'slack', 'Team Slack'),
  (tests.bot_id('B private'), 'slack', 'Their Slack');
-- every bot has its web channel from the start (20261127030000_web_channel.sql)
create temporary table chans on commit drop as
  select id, case when type = 'web' then 'Site' else name end as name from public.channels
  where type <> 'web' or bot_id = tests.bot_id('A gallery');
grant select on chans to authenticated;
select tests.authenticate_as('owner');
select lives_ok(format($$ insert into public.tasks (bot_id, name, type, every_hours, settings) values (tests.bot_id('A gallery'), 'Post', 'ask', 24,
    jsonb_build_object('prompt', 'What is new?', 'channel_id', %L, 'channel_recipient', 'C123')) $$,
    (select id from chans where name = 'Team Slack')), 'an ask task names a messaging channel of its bot');
select throws_ok(format($$ insert into public.tasks (bot_id, name, type, every_hours, settings) values (tests.bot_id('A gallery'), 'x', 'ask', 24,
    jsonb_build_object('prompt', 'x', 'channel_id', %L)) $$, (select id from chans where name = 'Their Slack')),
  '22023', 'The channel must be a messaging channel of the task''s bot', 'not another bot''s channel');
select throws_ok(format($$ insert into public.tasks (bot_id, name, type, every_hours, settings) values (tests.bot_id('A gallery'), 'x', 'ask', 24,
    jsonb_build_object('prompt', 'x', 'channel_id', %L)) $$, (select id from chans where name = 'Site')),
  '22023', 'The channel must be a messaging channel of the task''s bot', 'not a web channel');
select throws_ok(format($$ insert into public.tasks (bot_id, name, type, every_hours, settings) values (tests.bot_id('A gallery'), 'x', 'digest', 24,
    jsonb_build_object('channel_id', %L)) $$, (select id from chans where name = 'Team Slack')),
  '22023', 'Only an ask task posts to a channel', 'only ask tasks post to a channel');

select * from finish();
rollback;
