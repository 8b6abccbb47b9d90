-- Issue 17 (200 visitors at once): open_chat_turn returns the chat's history and handoff state
-- with the stored turn, and the counters every turn updates take a contended turn's count as a
-- pending row that the next turn folds in (migrations 20261128200000, 20261128200100). The
-- contended path itself needs two sessions (bench/chat/load.mjs runs it); here its pending rows
-- are written by hand and folded.
begin;
select plan(14);
select tests.create_team_fixture();
select tests.create_supabase_user('visitor1');

-- history and handoff state with the turn ------------------------------------------------------
select tests.authenticate_as('visitor1');
create temporary table first_turn on commit drop as
  select * from public.open_chat_turn(tests.bot_id('A gallery'), 'First question', history_limit => 5);
select results_eq($$ select created, needs_human, history is null from first_turn $$, $$ values (true, false, true) $$,
  'a new chat: created, no person, no history');
reset role;
insert into public.messages (chat_id, bot_id, role, content, provider)
  select opened_chat_id, tests.bot_id('A gallery'), 'assistant', 'First answer', 'extractive' from first_turn;
update public.messages set created_at = now() + interval '1 second' where content = 'First answer';
select tests.authenticate_as('visitor1');
create temporary table second_turn on commit drop as
  select * from public.open_chat_turn(tests.bot_id('A gallery'), 'Second question', (select opened_chat_id from first_turn), history_limit => 5);
select results_eq($$ select jsonb_array_length(history), history -> 0 ->> 'content', history -> 1 ->> 'content', history -> 0 ->> 'role' from second_turn $$,
  $$ values (2, 'First answer', 'First question', 'assistant') $$, 'a continued chat: its earlier turns, newest first, without the new one');
select is((select history from public.open_chat_turn(tests.bot_id('A gallery'), 'Third', (select opened_chat_id from first_turn))), null,
  'without history_limit no history');
select is((select jsonb_array_length(history) from public.open_chat_turn(tests.bot_id('A gallery'), 'Fourth', (select opened_chat_id from first_turn), history_limit => 1)),
  1, 'history_limit turns at most');
select throws_ok(format($$ select * from public.open_chat_turn(%L, 'x', %L, history_limit => 101) $$, tests.bot_id('A gallery'), (select opened_chat_id from first_turn)),
  '22023', null, 'history_limit is bounded');
reset role;
update public.chats set needs_human = true where id = (select opened_chat_id from first_turn);
select tests.authenticate_as('visitor1');
select is((select needs_human from public.open_chat_turn(tests.bot_id('A gallery'), 'Anyone there?', (select opened_chat_id from first_turn))),
  true, 'a chat a person took over says so');

-- pending counts are folded in by the next turn ---------------------------------------------------
reset role;
create temporary table before_counts on commit drop as
  select (select message_count from public.channels where bot_id = tests.bot_id('A gallery') and type = 'web') as web,
         (select messages from public.team_usage u join public.bots b on b.team_id = u.team_id
          where b.id = tests.bot_id('A gallery') and u.month = date_trunc('month', now() at time zone 'utc')::date) as usage;
insert into private.channel_turns_pending (channel_id, n, at)
  select id, 1, now() from public.channels where bot_id = tests.bot_id('A gallery') and type = 'web';
insert into private.channel_turns_pending (channel_id, n, at)
  select id, 1, now() from public.channels where bot_id = tests.bot_id('A gallery') and type = 'web';
insert into private.team_usage_pending (team_id, month, messages)
  select team_id, date_trunc('month', now() at time zone 'utc')::date, 3 from public.bots where id = tests.bot_id('A gallery');
select is(private.plan_usage((select team_id from public.bots where id = tests.bot_id('A gallery')), 'messages_per_month'),
  (select usage from before_counts)::bigint + 3, 'the monthly quota counts the pending answers');
insert into public.messages (chat_id, bot_id, role, content, provider)
  select opened_chat_id, tests.bot_id('A gallery'), 'assistant', 'Second answer', 'extractive' from first_turn;
select is((select message_count from public.channels where bot_id = tests.bot_id('A gallery') and type = 'web'),
  (select web from before_counts) + 3, 'the next web turn folds the pending turns into the web channel''s count');
select is((select messages from public.team_usage u join public.bots b on b.team_id = u.team_id
           where b.id = tests.bot_id('A gallery') and u.month = date_trunc('month', now() at time zone 'utc')::date),
  (select usage from before_counts) + 4, 'and the next answer the pending answers into team_usage');
select is((select count(*)::int from private.channel_turns_pending) + (select count(*)::int from private.team_usage_pending), 0,
  'nothing stays pending');
select is(private.plan_usage((select team_id from public.bots where id = tests.bot_id('A gallery')), 'messages_per_month'),
  (select usage from before_counts)::bigint + 4, 'counted once');

-- the bot's budget -------------------------------------------------------------------------------
select tests.authenticate_as_service_role();
select lives_ok($$ select * from public.open_chat_turn(tests.bot_id('A private'), 'hi', null, '[]', 'slack', 'C9:1', 'U9') $$,
  'a channel turn spends the budget');
reset role;
insert into private.rate_limit_pending (key, at) values ('chat:bot:' || tests.bot_id('A private'), now()), ('chat:bot:' || tests.bot_id('A private'), now());
select tests.authenticate_as_service_role();
select lives_ok($$ select * from public.open_chat_turn(tests.bot_id('A private'), 'again', null, '[]', 'slack', 'C9:1', 'U9') $$,
  'the next one too');
reset role;
select is((select hits from private.rate_limits where key = 'chat:bot:' || tests.bot_id('A private')), 4,
  'folding the window''s pending hits in');

select * from finish();
rollback;
