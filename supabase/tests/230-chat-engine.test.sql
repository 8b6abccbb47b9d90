-- The answering engine's SQL: open_chat_turn (a chat with its first turn or nothing, channel
-- chats by external ids), the bot's budget spent only by accepted turns, can_manage_bot.
begin;
select plan(32);
select tests.create_team_fixture();
select tests.create_supabase_user('visitor1');
select tests.create_supabase_user('ghost');

-- a visitor's new chat comes with its first turn ---------------------------------------------
select tests.authenticate_as('visitor1');
create temporary table opened on commit drop as
  select * from public.open_chat_turn(tests.bot_id('A gallery'), 'Hello there');
grant select on opened to authenticated, service_role;
select is((select created from opened), true, 'a turn without chat_id creates a chat');
select is((select count(*)::int from public.messages m join opened o on m.id = o.user_message_id
           where m.chat_id = o.opened_chat_id and m.role = 'user' and m.content = 'Hello there'), 1,
  'the chat is created with its first user turn');
select is((select user_id from public.chats c join opened o on c.id = o.opened_chat_id), tests.get_supabase_uid('visitor1'),
  'the new chat is the visitor''s own');

select is((select created from public.open_chat_turn(tests.bot_id('A gallery'), 'And again', (select opened_chat_id from opened))),
  false, 'a turn with chat_id continues the visitor''s chat');
select is((select message_count from public.chats c join opened o on c.id = o.opened_chat_id), 2,
  'the continued chat now has two turns');

-- refused turns leave nothing behind ---------------------------------------------------------
select throws_ok($$ select * from public.open_chat_turn(tests.bot_id('A private'), 'let me in') $$, '42501', null,
  'a visitor may not open a chat with a private bot');
reset role;
select is((select count(*)::int from public.chats where bot_id = tests.bot_id('A private') and user_id = tests.get_supabase_uid('visitor1')), 0,
  'the refused turn left no chat behind');

select tests.authenticate_as('stranger');
select throws_ok(format($$ select * from public.open_chat_turn(%L, 'not mine', %L) $$, tests.bot_id('A gallery'), (select opened_chat_id from opened)),
  'PT404', 'Chat not found', 'another visitor''s chat_id is not found');
select throws_ok(format($$ select * from public.open_chat_turn(%L, 'wrong bot', %L) $$, tests.bot_id('A unlisted'), (select opened_chat_id from opened)),
  'PT404', 'Chat not found', 'a chat_id of another bot is not found');
select throws_ok($$ select * from public.open_chat_turn(tests.bot_id('A gallery'), 'x', null, '[]', 'slack', 'T1', 'U1') $$,
  '42501', null, 'a visitor may not open a chat by external ids');

-- a deleted user's still-valid token ---------------------------------------------------------
select tests.authenticate_as('ghost');
reset role;
delete from auth.users where id = tests.get_supabase_uid('ghost');
select set_config('role', 'authenticated', true);
select throws_ok($$ select * from public.open_chat_turn(tests.bot_id('A gallery'), 'boo') $$, 'PT401', null,
  'a deleted user''s token opens no chat (PT401, HTTP 401)');

-- channel chats (service role) ---------------------------------------------------------------
select tests.authenticate_as_service_role();
create temporary table slack1 on commit drop as
  select * from public.open_chat_turn(tests.bot_id('A private'), 'hi from slack', null, '[]', 'slack', 'C1:1700000000.1', 'U42');
select is((select created from slack1), true, 'a channel message of a new thread opens a chat');
select results_eq(
  $$ select channel, external_thread_id, external_user_id, user_id from public.chats c join slack1 s on c.id = s.opened_chat_id $$,
  $$ values ('slack'::text, 'C1:1700000000.1'::text, 'U42'::text, null::uuid) $$,
  'the channel chat stores the platform''s thread and user, and no auth user');
select is((select opened_chat_id from public.open_chat_turn(tests.bot_id('A private'), 'more', null, '[]', 'slack', 'C1:1700000000.1', 'U42')),
  (select opened_chat_id from slack1), 'the next message of the same thread continues the same chat');
select isnt((select opened_chat_id from public.open_chat_turn(tests.bot_id('A private'), 'elsewhere', null, '[]', 'telegram', 'C1:1700000000.1', 'U42')),
  (select opened_chat_id from slack1), 'the same thread id on another channel is another chat');
select isnt_empty($$ select private.can_chat_with_bot(tests.bot_id('B private')) where private.can_chat_with_bot(tests.bot_id('B private')) $$,
  'the service side may use a private bot (channels search its knowledge)');
select throws_ok($$ select * from public.open_chat_turn('00000000-0000-4000-8000-000000000000', 'x', null, '[]', 'slack', 'T', 'U') $$,
  'PT404', 'Bot not found', 'an unknown bot is not found');
reset role;
select throws_ok($$ insert into public.chats (bot_id, user_id) values (tests.bot_id('A gallery'), null) $$, '23514', null,
  'a chat has a user or an external thread');
select tests.authenticate_as('visitor1');
select throws_ok($$ update public.chats set external_thread_id = 'x' where id = (select opened_chat_id from opened) $$, '42501', null,
  'a visitor cannot set external ids on their chat');

-- the bot's budget ---------------------------------------------------------------------------
reset role;
select is(private.bot_chat_budget(tests.bot_id('A gallery')), 600, 'a bot''s per-minute budget is its team''s plan''s: free, 600 answers');
select is((select hits from private.rate_limits where key = 'chat:bot:' || tests.bot_id('A private')), 3,
  'three accepted channel turns spent three of A private''s budget (the refused visitor spent none)');
select is((select count(*)::int from private.rate_limits where key = 'chat:bot:' || tests.bot_id('A gallery')), 0,
  'the visitor''s direct turns (no pass from the engine) spent nothing of A gallery''s budget');

-- the engine's one-time pass: only the service side issues it, only its visitor uses it, once
select tests.authenticate_as('visitor1');
select throws_ok(format($$ select public.issue_chat_turn_pass(%L, %L) $$, tests.bot_id('A gallery'), tests.get_supabase_uid('visitor1')),
  '42501', null, 'a visitor cannot issue a pass');
select tests.authenticate_as_service_role();
create temporary table passes on commit drop as
  select public.issue_chat_turn_pass(tests.bot_id('A gallery'), tests.get_supabase_uid('visitor1')) as mine,
         public.issue_chat_turn_pass(tests.bot_id('A gallery'), tests.get_supabase_uid('stranger')) as theirs;
grant select on passes to authenticated;
select tests.authenticate_as('visitor1');
select lives_ok($$ select * from public.open_chat_turn(tests.bot_id('A gallery'), 'with someone else''s pass', turn_pass => (select theirs from passes)) $$,
  'a turn with another visitor''s pass is stored');
select lives_ok($$ select * from public.open_chat_turn(tests.bot_id('A gallery'), 'with my pass', turn_pass => (select mine from passes)) $$,
  'a turn with the visitor''s own pass is stored');
select lives_ok($$ select * from public.open_chat_turn(tests.bot_id('A gallery'), 'with my pass again', turn_pass => (select mine from passes)) $$,
  'the used pass is accepted as no pass');
reset role;
select is((select hits from private.rate_limits where key = 'chat:bot:' || tests.bot_id('A gallery')), 1,
  'only the turn with the visitor''s own, unused pass spent the bot''s budget');
update private.rate_limits set hits = 600 where key = 'chat:bot:' || tests.bot_id('A gallery');
select tests.authenticate_as_service_role();
create temporary table pass2 on commit drop as
  select public.issue_chat_turn_pass(tests.bot_id('A gallery'), tests.get_supabase_uid('visitor1')) as mine;
grant select on pass2 to authenticated;
select tests.authenticate_as('visitor1');
select throws_ok($$ select * from public.open_chat_turn(tests.bot_id('A gallery'), 'one too many', turn_pass => (select mine from pass2)) $$, 'PT429', null,
  'past the budget the turn is refused with PT429');
reset role;
select is((select count(*)::int from public.messages where content = 'one too many'), 0, 'and nothing of it is stored');

-- can_manage_bot: the one write check ---------------------------------------------------------
select tests.authenticate_as('admin');
select is(public.can_manage_bot(tests.bot_id('A private')), true, 'a team admin may manage the team''s bot');
select tests.authenticate_as('platform');
select is(public.can_manage_bot(tests.bot_id('A private')), false, 'a platform administrator may not (read-only on teams'' data)');
select tests.authenticate_as('other');
select is(public.can_manage_bot(tests.bot_id('A private')), false, 'a member of another team may not');

select * from finish();
rollback;
