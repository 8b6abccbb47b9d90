-- A failed answer: the visitor who chatted reads its code on the message, never the provider's
-- words (message_error_details), which the bot's team and platform admins read.
begin;
select plan(8);
select tests.create_team_fixture();
select tests.create_supabase_user('visitor1');

select tests.rls_enabled('public', 'message_error_details');

select tests.authenticate_as('visitor1');
insert into public.chats (id, bot_id) values ('f7000000-0000-4000-8000-000000000001', tests.bot_id('A gallery'));
insert into public.messages (id, chat_id, role, content) values
  ('f7100000-0000-4000-8000-000000000001', 'f7000000-0000-4000-8000-000000000001', 'user', 'hello?');

select tests.authenticate_as_service_role();
insert into public.messages (id, chat_id, role, content, error) values
  ('f7100000-0000-4000-8000-000000000002', 'f7000000-0000-4000-8000-000000000001', 'assistant', '', 'provider_auth');
insert into public.message_error_details (message_id, bot_id, detail) values
  ('f7100000-0000-4000-8000-000000000002', tests.bot_id('A gallery'), 'openai: 401 Incorrect API key provided: sk-pr****abcd');

select tests.authenticate_as('visitor1');
select is((select error from public.messages where id = 'f7100000-0000-4000-8000-000000000002'), 'provider_auth',
  'the visitor reads the failed answer''s code');
select is_empty($$ select 1 from public.message_error_details $$, 'but not the provider''s words');
select throws_ok($$ insert into public.message_error_details (message_id, bot_id, detail)
  values ('f7100000-0000-4000-8000-000000000001', tests.bot_id('A gallery'), 'forged') $$, '42501', null,
  'nor writes any');

select tests.authenticate_as('owner');
select is((select detail from public.message_error_details where message_id = 'f7100000-0000-4000-8000-000000000002'),
  'openai: 401 Incorrect API key provided: sk-pr****abcd', 'the bot''s team reads them');

select tests.authenticate_as('other');
select is_empty($$ select 1 from public.message_error_details $$, 'another team does not');

select tests.clear_authentication();
select throws_ok($$ select 1 from public.message_error_details $$, '42501', null, 'anon has no access at all');

select tests.authenticate_as_service_role();
delete from public.messages where id = 'f7100000-0000-4000-8000-000000000002';
select is((select count(*)::int from public.message_error_details where message_id = 'f7100000-0000-4000-8000-000000000002'), 0,
  'the words go with their message');

select * from finish();
rollback;
