-- The web channel: every bot has exactly one, created with the bot; clients neither add a
-- second one nor delete it; the turns of web and widget chats count on it.
begin;
select plan(16);
select tests.create_team_fixture();
update public.teams set plan_id = 'business' where slug in ('team-a', 'team-b'); -- plan limits are 510-billing's concern
select tests.create_supabase_user('visitor');

select is((select count(*)::int from public.bots b
           where not exists (select 1 from public.channels c where c.bot_id = b.id and c.type = 'web')), 0,
  'every bot has a web channel');
select results_eq($$ select name, status, enabled, message_count, created_by from public.channels
                     where bot_id = tests.bot_id('A unlisted') and type = 'web' $$,
  $$ values ('Website'::text, 'connected'::text, true, 0, tests.get_supabase_uid('admin')) $$,
  'it is named Website, connected, on, uncounted, and created by the bot''s creator');

-- a bot created by a client -----------------------------------------------------------------
select tests.authenticate_as('admin');
insert into public.bots (team_id, name) values (tests.team_id('team-a'), 'New by admin');
select results_eq($$ select type::text, status from public.channels where bot_id = tests.bot_id('New by admin') $$,
  $$ values ('web'::text, 'connected'::text) $$, 'a bot a client creates comes with its web channel, connected');

-- one per bot, not deleted by clients -------------------------------------------------------
select throws_ok($$ insert into public.channels (bot_id, type, name) values (tests.bot_id('A private'), 'web', 'Second web') $$,
  '42501', 'A bot has one web channel, created with the bot', 'an admin cannot add a second web channel');
select tests.authenticate_as('owner');
select throws_ok($$ delete from public.channels where bot_id = tests.bot_id('A private') and type = 'web' $$,
  '42501', 'The web channel goes with its bot; disable it instead', 'the owner cannot delete the web channel');
update public.channels set name = 'Our site', enabled = false where bot_id = tests.bot_id('A private') and type = 'web';
select tests.authenticate_as_service_role();
select is((select name || '/' || enabled from public.channels where bot_id = tests.bot_id('A private') and type = 'web'), 'Our site/false',
  'the owner renames and disables it');
select throws_ok($$ insert into public.channels (bot_id, type, name) values (tests.bot_id('A private'), 'web', 'Second web') $$,
  '23505', null, 'even the service side keeps one web channel per bot');
select tests.authenticate_as('owner');
select lives_ok($$ insert into public.channels (bot_id, type, name) values (tests.bot_id('A private'), 'api', 'API') $$,
  'other channel types are still added by hand');
select lives_ok($$ delete from public.channels where bot_id = tests.bot_id('A private') and type = 'api' $$,
  'and deleted');

-- web turns count on the web channel ----------------------------------------------------------
select tests.authenticate_as('visitor');
insert into public.chats (id, bot_id) values ('f0000000-0000-4000-8000-0000000000a1', tests.bot_id('A gallery'));
insert into public.messages (chat_id, role, content) values ('f0000000-0000-4000-8000-0000000000a1', 'user', 'Hello?');
select is_empty($$ update public.channels set message_count = 100 where bot_id = tests.bot_id('A gallery') returning id $$,
  'a visitor cannot touch the counters (the bot''s channels are not theirs to see)');
select tests.authenticate_as_service_role();
insert into public.messages (chat_id, bot_id, role, content, provider) values
  ('f0000000-0000-4000-8000-0000000000a1', tests.bot_id('A gallery'), 'assistant', 'Hi!', 'extractive');
select results_eq($$ select message_count, last_event_at is not null from public.channels
                     where bot_id = tests.bot_id('A gallery') and type = 'web' $$,
  $$ values (2, true) $$, 'a web chat''s question and answer count on the web channel, with the time');
insert into public.chats (id, bot_id, user_id, channel) values
  ('f0000000-0000-4000-8000-0000000000a2', tests.bot_id('A gallery'), tests.get_supabase_uid('visitor'), 'widget');
insert into public.messages (chat_id, bot_id, role, content) values ('f0000000-0000-4000-8000-0000000000a2', tests.bot_id('A gallery'), 'user', 'From the widget');
select is((select message_count from public.channels where bot_id = tests.bot_id('A gallery') and type = 'web'), 3,
  'widget chats count there too');
select public.open_chat_turn(tests.bot_id('A gallery'), 'From Telegram', null, '[]', 'telegram', 'tg:1', 'u1');
select public.open_chat_turn(tests.bot_id('A gallery'), 'From the API', null, '[]', 'api', 'api:1', null);
select is((select message_count from public.channels where bot_id = tests.bot_id('A gallery') and type = 'web'), 3,
  'other channels'' chats do not (their functions count them on their own channel)');
select is((select message_count from public.channels where bot_id = tests.bot_id('A unlisted') and type = 'web'), 0,
  'nor do another bot''s');

-- the bot takes its web channel with it ------------------------------------------------------
select tests.authenticate_as('owner');
delete from public.bots where name = 'A unlisted';
select tests.authenticate_as_service_role();
select is((select count(*)::int from public.channels c where not exists (select 1 from public.bots b where b.id = c.bot_id)), 0,
  'deleting a bot deletes its web channel');
select is((select count(*)::int from public.channels where type = 'web'),
          (select count(*)::int from public.bots), 'one web channel per bot, no more');

select * from finish();
rollback;
