-- Tests of a bot's answers: test settings, cases, runs and results. What the team's owner and
-- admin, another team's owner, a signed-in stranger, a platform admin, anon and the service
-- role may do; the triggers that queue runs after a sync and after a settings change; the
-- schedule; "add as test case" from a conversation turn.
begin;
select plan(50);
select tests.create_team_fixture();
select tests.create_supabase_user('visitor');

-- structure
select tests.rls_enabled('public', 'bot_test_settings');
select tests.rls_enabled('public', 'test_cases');
select tests.rls_enabled('public', 'test_runs');
select tests.rls_enabled('public', 'test_results');
select ok((select count(*) = 1 from pg_publication_tables where pubname = 'supabase_realtime' and tablename = 'test_runs'),
  'test_runs is published for realtime');

-- fixture: a visitor's chat with the private bot (written as the service role)
select tests.authenticate_as_service_role();
insert into public.chats (id, bot_id, user_id) values
  ('f4200000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), tests.get_supabase_uid('visitor'));
insert into public.messages (id, chat_id, bot_id, role, content, created_at) values
  ('f4210000-0000-0000-0000-000000000001', 'f4200000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 'user', 'Hello', now() - interval '4 minutes'),
  ('f4210000-0000-0000-0000-000000000002', 'f4200000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 'assistant', 'Hi! How can I help?', now() - interval '3 minutes'),
  ('f4210000-0000-0000-0000-000000000003', 'f4200000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 'user', 'How do I reset my password?', now() - interval '2 minutes'),
  ('f4210000-0000-0000-0000-000000000004', 'f4200000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 'assistant', 'Open Settings.', now() - interval '1 minute');

-- the owner writes cases ----------------------------------------------------------------------
select tests.authenticate_as('owner');
select lives_ok($$ insert into public.test_cases (id, bot_id, question, expected_answer, required_phrases, tags)
  values ('f4300000-0000-0000-0000-000000000001', tests.bot_id('A private'), 'What is the launch code?', 'blue falcon', '{falcon}', '{secrets}') $$,
  'the owner creates a test case');
select is((select created_by from public.test_cases where id = 'f4300000-0000-0000-0000-000000000001'), tests.get_supabase_uid('owner'),
  'a case records its creator');
select throws_ok($$ insert into public.test_cases (bot_id, question, created_by)
  values (tests.bot_id('A private'), 'x', tests.get_supabase_uid('admin')) $$, '42501', null,
  'a case cannot be created in someone else''s name');
select throws_ok($$ insert into public.test_cases (bot_id, question) values (tests.bot_id('B private'), 'x') $$, '42501', null,
  'the owner cannot create cases on another team''s bot');
select throws_ok($$ insert into public.test_cases (bot_id, question) values (tests.bot_id('A private'), '   ') $$, '23514', null,
  'an empty question is refused');
select throws_ok($$ update public.test_cases set bot_id = tests.bot_id('A gallery') where id = 'f4300000-0000-0000-0000-000000000001' $$,
  '42501', null, 'a case cannot be moved to another bot');
select lives_ok($$ update public.test_cases set tags = '{secrets,launch}' where id = 'f4300000-0000-0000-0000-000000000001' $$,
  'the owner edits a case');
select lives_ok($$ insert into public.bot_test_settings (bot_id, run_after_sync, run_after_settings, schedule)
  values (tests.bot_id('A private'), true, true, 'daily') $$, 'the owner sets the bot''s test settings');
select ok((select next_run_at > now() + interval '23 hours' from public.bot_test_settings where bot_id = tests.bot_id('A private')),
  'a schedule sets next_run_at');
select throws_ok($$ insert into public.test_runs (bot_id) values (tests.bot_id('A private')) $$, '42501', null,
  'the owner cannot write runs (the tests function does)');
select throws_ok($$ select private.enqueue_test_run(tests.bot_id('A private'), 'manual') $$, '42501', null,
  'clients cannot queue runs in SQL');
select throws_ok($$ select public.enqueue_scheduled_test_runs() $$, '42501', null, 'clients cannot process schedules');

-- add as test case from a conversation turn
select ok((select public.add_test_case_from_message('f4210000-0000-0000-0000-000000000004', 'Open Settings, then Security.', '{from-chat}') is not null),
  'the owner adds a conversation turn as a test case');
select results_eq($$ select question, expected_answer, origin, jsonb_array_length(history) from public.test_cases where origin = 'conversation' $$,
  $$ values ('How do I reset my password?'::text, 'Open Settings, then Security.'::text, 'conversation'::text, 2) $$,
  'the case holds the visitor''s question, the corrected answer and the earlier turns');
select throws_ok($$ select public.add_test_case_from_message('f4210000-0000-0000-0000-00000000ffff') $$, 'PT404', null,
  'an unknown message is refused');

-- triggers queue runs --------------------------------------------------------------------------
select lives_ok($$ update public.bots set instructions = 'be brief' where id = tests.bot_id('A private') $$, 'the owner saves the bot''s settings');
select results_eq($$ select trigger::text, status::text from public.test_runs where bot_id = tests.bot_id('A private') $$,
  $$ values ('settings', 'queued') $$, 'saving the bot''s settings queued a run');
select lives_ok($$ update public.bots set temperature = 0.5 where id = tests.bot_id('A private') $$, 'a second save while a run is queued');
select is((select count(*)::int from public.test_runs where bot_id = tests.bot_id('A private')), 1, 'only one run is queued per bot');
select lives_ok($$ update public.bots set name = 'A private renamed' where id = tests.bot_id('A private') $$, 'renaming the bot');

reset role;
update public.test_runs set status = 'succeeded' where bot_id = tests.bot_id('A private renamed');
insert into public.data_sources (id, bot_id, type, name) values ('f4400000-0000-0000-0000-000000000001', tests.bot_id('A private renamed'), 'text', 'Notes');
insert into public.ingestion_jobs (id, data_source_id, bot_id, status) values
  ('f4410000-0000-0000-0000-000000000001', 'f4400000-0000-0000-0000-000000000001', tests.bot_id('A private renamed'), 'running');
update public.ingestion_jobs set status = 'succeeded' where id = 'f4410000-0000-0000-0000-000000000001';
select results_eq($$ select trigger::text from public.test_runs where bot_id = tests.bot_id('A private renamed') and status = 'queued' $$,
  $$ values ('sync') $$, 'a succeeded sync queued a run');
select is((select count(*)::int from public.test_runs where bot_id = tests.bot_id('A private renamed') and trigger = 'settings'), 1,
  'a rename alone queues nothing');
update public.test_runs set status = 'cancelled' where bot_id = tests.bot_id('A private renamed');
update public.bot_test_settings set next_run_at = now() - interval '1 minute' where bot_id = tests.bot_id('A private renamed');

select tests.authenticate_as_service_role();
select is(public.enqueue_scheduled_test_runs(), 1, 'a due schedule queues a run');
select ok((select next_run_at > now() from public.bot_test_settings where bot_id = tests.bot_id('A private renamed')),
  'the schedule moves on');
select lives_ok($$ insert into public.test_results (run_id, case_id, bot_id, question, answer, passed, scores)
  select r.id, 'f4300000-0000-0000-0000-000000000001', r.bot_id, 'What is the launch code?', 'blue falcon', true,
         '[{"name":"required_phrases","passed":true}]'
  from public.test_runs r where r.trigger = 'schedule' $$, 'the service role writes results');
select is(public.answer_similarity('Blue falcon', 'blue falcon'), 1::real, 'identical answers are fully similar');
select is(public.answer_similarity('Sure! The launch code is blue falcon.', 'blue falcon'), 1::real,
  'a longer answer that contains the expected one is fully similar');
select ok(public.answer_similarity('the launch code is blue', 'blue falcon') between 0.1 and 0.9,
  'a partial answer is partly similar');

-- the admin ------------------------------------------------------------------------------------
select tests.authenticate_as('admin');
select is((select count(*)::int from public.test_cases), 2, 'the admin reads the team''s cases');
select is((select count(*)::int from public.test_runs where bot_id = tests.bot_id('A private renamed')), 3, 'the admin reads the runs');
select is((select count(*)::int from public.test_results), 1, 'the admin reads the results');
select throws_ok($$ update public.test_results set passed = false $$, '42501', null, 'the admin cannot change results');
select lives_ok($$ update public.bot_test_settings set min_similarity = 0.5 where bot_id = tests.bot_id('A private renamed') $$,
  'the admin changes the pass rules');
select lives_ok($$ delete from public.test_cases where origin = 'conversation' $$, 'the admin deletes a case');
select is((select count(*)::int from public.test_cases), 1, 'the case is gone');

-- another team's owner, a stranger, a visitor, anon, the platform admin ------------------------
select tests.authenticate_as('other');
select is_empty($$ select * from public.test_cases $$, 'another team''s owner sees no cases');
select is_empty($$ select * from public.test_runs $$, 'another team''s owner sees no runs');
select is_empty($$ select * from public.test_results $$, 'another team''s owner sees no results');
delete from public.test_cases;
delete from public.test_runs;
select tests.authenticate_as('owner');
select is((select count(*)::int from public.test_cases) + (select count(*)::int from public.test_runs), 4,
  'another team''s deletes touched nothing');
select tests.authenticate_as('visitor');
select throws_ok($$ select public.add_test_case_from_message('f4210000-0000-0000-0000-000000000004') $$, '42501', null,
  'a visitor cannot turn their own chat into a test case');
select is_empty($$ select * from public.bot_test_settings $$, 'a visitor sees no test settings');
select tests.authenticate_as('stranger');
select throws_ok($$ insert into public.bot_test_settings (bot_id) values (tests.bot_id('A gallery')) $$, '42501', null,
  'a stranger cannot set a bot''s test settings');
select tests.authenticate_as('platform');
select is((select count(*)::int from public.test_runs), tests.count_all('public.test_runs'), 'the platform admin reads runs');
select throws_ok($$ insert into public.test_cases (bot_id, question) values (tests.bot_id('A gallery'), 'x') $$, '42501', null,
  'the platform admin cannot write cases');
select tests.clear_authentication();
select throws_ok($$ select * from public.test_cases $$, '42501', null, 'anon cannot read cases');

select * from finish();
rollback;
