-- Hardening: a changed or removed chat password revokes the bot's access grants; client
-- roles cannot flood chats and messages past the database's per-user insert limits.
begin;
select plan(12);
select tests.create_team_fixture();
select tests.create_supabase_user('visitor1');
select tests.create_supabase_user('visitor2');

-- grants end with the password --------------------------------------------------------
select tests.authenticate_as('owner');
select public.set_bot_password(tests.bot_id('A unlisted'), 'first-password');
reset role;
insert into public.bot_access_grants (bot_id, user_id)
values (tests.bot_id('A unlisted'), tests.get_supabase_uid('visitor1')),
       (tests.bot_id('A unlisted'), tests.get_supabase_uid('visitor2'));
select tests.authenticate_as('owner');
select public.set_bot_password(tests.bot_id('A unlisted'), 'first-password');
reset role;
select is((select count(*)::int from public.bot_access_grants where bot_id = tests.bot_id('A unlisted')), 0,
  'setting the password again (a new hash) revokes every grant to the bot');
insert into public.bot_access_grants (bot_id, user_id) values (tests.bot_id('A unlisted'), tests.get_supabase_uid('visitor1'));
update public.bots set description = 'renamed' where id = tests.bot_id('A unlisted');
select is((select count(*)::int from public.bot_access_grants where bot_id = tests.bot_id('A unlisted')), 1,
  'other changes to the bot keep the grants');
select tests.authenticate_as('owner');
select public.set_bot_password(tests.bot_id('A unlisted'), null);
reset role;
select is((select count(*)::int from public.bot_access_grants where bot_id = tests.bot_id('A unlisted')), 0,
  'removing the password revokes the grants too');

-- per-user insert limits --------------------------------------------------------------
select tests.authenticate_as('visitor1');
select lives_ok($$
  insert into public.chats (id, bot_id)
  select ('f5000000-0000-4000-8000-' || lpad(i::text, 12, '0'))::uuid, tests.bot_id('A gallery') from generate_series(1, 30) i
$$, 'a visitor may start 30 chats in a minute');
select throws_ok($$ insert into public.chats (bot_id) values (tests.bot_id('A gallery')) $$, 'PT429', null,
  'the 31st chat in the same minute is refused with PT429 (HTTP 429)');
select lives_ok($$
  insert into public.messages (chat_id, role, content)
  select 'f5000000-0000-4000-8000-000000000001', 'user', 'hello ' || i from generate_series(1, 60) i
$$, 'a visitor may add 60 turns in a minute');
select throws_ok($$ insert into public.messages (chat_id, role, content) values ('f5000000-0000-4000-8000-000000000001', 'user', 'one more') $$,
  'PT429', null, 'the 61st turn in the same minute is refused');
select tests.authenticate_as('visitor2');
select lives_ok($$ insert into public.chats (id, bot_id) values ('f6000000-0000-4000-8000-000000000001', tests.bot_id('A gallery')) $$, 'the limit is per user: another visitor is not affected');

-- image paths of client-written turns ------------------------------------------------------
select lives_ok(format($$ insert into public.messages (chat_id, role, content, images) values
  ('f6000000-0000-4000-8000-000000000001', 'user', 'look', '[{"path": "%s/a.png", "mime": "image/png", "size": 10}]') $$,
  tests.get_supabase_uid('visitor2')), 'a visitor attaches an image from their own folder');
select throws_ok(format($$ insert into public.messages (chat_id, role, content, images) values
  ('f6000000-0000-4000-8000-000000000001', 'user', 'look', '[{"path": "%s/secret.png"}]') $$,
  tests.get_supabase_uid('visitor1')), '42501', null, 'but not another user''s image');
select throws_ok(format($$ insert into public.messages (chat_id, role, content, images) values
  ('f6000000-0000-4000-8000-000000000001', 'user', 'look', '[{"path": "%s/../%s/secret.png"}]') $$,
  tests.get_supabase_uid('visitor2'), tests.get_supabase_uid('visitor1')), '42501', null, 'nor climb out of their folder');
select tests.authenticate_as_service_role();
select lives_ok($$
  insert into public.messages (chat_id, role, content)
  select 'f5000000-0000-4000-8000-000000000001', 'assistant', 'answer ' || i from generate_series(1, 70) i
$$, 'the service role (the chat function''s answers) is not limited');

select * from finish();
rollback;
