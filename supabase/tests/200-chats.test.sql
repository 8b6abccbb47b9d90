-- Chats, messages, feedback, team usage, rate limits and the chat-images
-- bucket: what visitors, the bot's team, other teams, platform admins, anon and
-- the service role may and may not do.
begin;
select plan(44);
select tests.create_team_fixture();
select tests.create_supabase_user('visitor1');
select tests.create_supabase_user('visitor2');

select ok((select relrowsecurity from pg_class where oid = 'public.chats'::regclass), 'RLS is on for chats');
select ok((select relrowsecurity from pg_class where oid = 'public.messages'::regclass), 'RLS is on for messages');
select ok((select relrowsecurity from pg_class where oid = 'public.message_feedback'::regclass), 'RLS is on for message_feedback');
select ok((select relrowsecurity from pg_class where oid = 'public.team_usage'::regclass), 'RLS is on for team_usage');
select is(
  (select count(*)::int from pg_publication_tables where pubname = 'supabase_realtime' and schemaname = 'public' and tablename in ('chats', 'messages')),
  2, 'chats and messages are published for realtime');

-- a visitor starts a chat and writes a turn ---------------------------------------
select tests.authenticate_as('visitor1');
select lives_ok($$ insert into public.chats (id, bot_id) values ('f0000000-0000-0000-0000-000000000001', tests.bot_id('A gallery')) $$,
  'a visitor starts a chat with a public bot');
select throws_ok($$ insert into public.chats (bot_id) values (tests.bot_id('A private')) $$, '42501', null,
  'a visitor cannot start a chat with a private bot');
select throws_ok($$ insert into public.chats (bot_id, user_id) values (tests.bot_id('A gallery'), tests.get_supabase_uid('visitor2')) $$, '42501', null,
  'a visitor cannot start a chat in someone else''s name');
select lives_ok($$ insert into public.messages (id, chat_id, role, content, model) values
  ('f1000000-0000-0000-0000-000000000001', 'f0000000-0000-0000-0000-000000000001', 'user', 'How do I reset my password?', 'forged') $$,
  'a visitor adds a user turn to their own chat');
select is((select bot_id from public.messages where id = 'f1000000-0000-0000-0000-000000000001'), tests.bot_id('A gallery'),
  'a message takes its chat''s bot');
select is((select model from public.messages where id = 'f1000000-0000-0000-0000-000000000001'), null,
  'a visitor cannot set system fields of a message');
select results_eq($$ select message_count, title from public.chats where id = 'f0000000-0000-0000-0000-000000000001' $$,
  $$ values (1, 'How do I reset my password?') $$, 'the chat counts the turn and takes its first question as title');
select throws_ok($$ insert into public.messages (chat_id, role, content) values ('f0000000-0000-0000-0000-000000000001', 'assistant', 'fake') $$,
  '42501', null, 'a visitor cannot write assistant turns');
select throws_ok($$ update public.chats set message_count = 100 where id = 'f0000000-0000-0000-0000-000000000001' $$,
  '42501', null, 'a visitor cannot change a chat''s counters');
select throws_ok($$ update public.messages set content = 'edited' where id = 'f1000000-0000-0000-0000-000000000001' $$,
  '42501', null, 'messages cannot be edited by clients');
select lives_ok($$ update public.chats set title = 'Passwords', shared = false where id = 'f0000000-0000-0000-0000-000000000001' $$,
  'a visitor renames their chat');

-- the function writes the answer -----------------------------------------------------
select tests.authenticate_as_service_role();
insert into public.messages (id, chat_id, bot_id, role, content, provider) values
  ('f1000000-0000-0000-0000-000000000002', 'f0000000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 'assistant', 'Open Settings [1]', 'extractive');
insert into public.messages (chat_id, bot_id, role, content, provider, error) values
  ('f0000000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 'assistant', '', 'openai', 'provider_auth: bad key');
select is((select messages from public.team_usage where team_id = tests.team_id('team-a')), 1,
  'each answer given (not failed ones) counts once for the team''s monthly usage');

-- who sees the conversation ------------------------------------------------------------
select tests.authenticate_as('visitor1');
select is((select count(*)::int from public.messages where chat_id = 'f0000000-0000-0000-0000-000000000001'), 3, 'the visitor reads their own chat');
select is_empty($$ select 1 from public.team_usage $$, 'visitors cannot read team usage');

select tests.authenticate_as('visitor2');
select is_empty($$ select 1 from public.chats where id = 'f0000000-0000-0000-0000-000000000001' $$, 'another visitor cannot see the chat');
select is_empty($$ select 1 from public.messages where chat_id = 'f0000000-0000-0000-0000-000000000001' $$, 'nor its messages');
select throws_ok($$ insert into public.messages (chat_id, role, content) values ('f0000000-0000-0000-0000-000000000001', 'user', 'me too') $$,
  '42501', null, 'nor write into it');
select is(public.get_shared_chat('f0000000-0000-0000-0000-000000000001'), null, 'an unshared chat is not readable by link');

select tests.authenticate_as('admin');
select is((select count(*)::int from public.messages where chat_id = 'f0000000-0000-0000-0000-000000000001'), 3, 'a team admin reads the bot''s conversation');
select tests.authenticate_as('owner');
select is((select messages from public.team_usage where team_id = tests.team_id('team-a')), 1, 'the team owner reads the usage');
select tests.authenticate_as('other');
select is_empty($$ select 1 from public.chats $$, 'another team sees no chats of this bot');
select tests.authenticate_as('platform');
select is((select count(*)::int from public.chats where id = 'f0000000-0000-0000-0000-000000000001'), 1, 'platform admins read all chats');

select tests.clear_authentication();
select throws_ok($$ select * from public.chats $$, '42501', null, 'anon has no access to chats');

-- sharing ------------------------------------------------------------------------------
select tests.authenticate_as('visitor1');
update public.chats set shared = true where id = 'f0000000-0000-0000-0000-000000000001';
select tests.authenticate_as('visitor2');
select is(jsonb_array_length(public.get_shared_chat('f0000000-0000-0000-0000-000000000001') -> 'messages'), 3,
  'a shared chat is readable by link');
select is_empty($$ update public.chats set title = 'mine' where id = 'f0000000-0000-0000-0000-000000000001' returning 1 $$,
  'a shared chat stays read-only for others');

-- feedback -----------------------------------------------------------------------------
select tests.authenticate_as('visitor1');
select lives_ok($$ insert into public.message_feedback (message_id, rating, comment) values ('f1000000-0000-0000-0000-000000000002', 'up', 'Thanks') $$,
  'a visitor rates an answer in their own chat');
select throws_ok($$ insert into public.message_feedback (message_id, rating) values ('f1000000-0000-0000-0000-000000000001', 'up') $$,
  '42501', null, 'only answers can be rated');
select lives_ok($$ update public.message_feedback set rating = 'down' where message_id = 'f1000000-0000-0000-0000-000000000002' $$,
  'a visitor changes their rating');
select tests.authenticate_as('visitor2');
select throws_ok($$ insert into public.message_feedback (message_id, rating) values ('f1000000-0000-0000-0000-000000000002', 'up') $$,
  '42501', null, 'nobody rates answers in other visitors'' chats');
select tests.authenticate_as('owner');
select results_eq($$ select rating, bot_id from public.message_feedback $$, $$ values ('down', tests.bot_id('A gallery')) $$,
  'the bot''s team reads the feedback');

-- rate limits ----------------------------------------------------------------------------
select tests.authenticate_as('visitor1');
select throws_ok($$ select * from public.consume_rate_limit('x', 1, 60) $$, '42501', null, 'clients cannot touch rate limits');
select tests.authenticate_as_service_role();
select is((select allowed from public.consume_rate_limit('t:200', 2, 60)), true, 'a first hit is allowed');
select is((select allowed from public.consume_rate_limit('t:200', 2, 60)), true, 'a second hit is allowed');
select results_eq($$ select allowed, retry_after between 1 and 60 from public.consume_rate_limit('t:200', 2, 60) $$,
  $$ values (false, true) $$, 'the third hit within the window is refused, with the seconds to wait');

-- storage: chat-images --------------------------------------------------------------------
select tests.authenticate_as('visitor1');
select lives_ok(format($$ insert into storage.objects (bucket_id, name, owner) values ('chat-images', '%s/a.png', auth.uid()) $$,
  tests.get_supabase_uid('visitor1')), 'a visitor uploads into their own folder');
select throws_ok(format($$ insert into storage.objects (bucket_id, name) values ('chat-images', '%s/b.png') $$,
  tests.get_supabase_uid('visitor2')), '42501', null, 'but not into another visitor''s');

-- access lost, chats gone --------------------------------------------------------------------
select tests.authenticate_as_service_role();
update public.bots set visibility = 'private' where id = tests.bot_id('A gallery');
select tests.authenticate_as('visitor1');
select is_empty($$ select 1 from public.chats $$, 'chats of a bot the visitor may no longer use are hidden');
select tests.authenticate_as('owner');
select lives_ok($$ delete from public.chats where id = 'f0000000-0000-0000-0000-000000000001' $$, 'the team deletes a conversation');
select tests.authenticate_as_service_role();
select is((select count(*)::int from public.messages where chat_id = 'f0000000-0000-0000-0000-000000000001'), 0, 'its messages go with it');

select * from finish();
rollback;
