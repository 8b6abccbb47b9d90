-- The answering engine's first stage in one round trip (issue 17): public.start_chat_turn counts
-- the caller's limits in order, then reads the bot with its power-ups and issues a visitor's pass.
begin;
select plan(14);
select tests.create_team_fixture();
select tests.create_supabase_user('visitor1');

-- only the service role ----------------------------------------------------------------------
select tests.authenticate_as('visitor1');
select throws_ok(format($$ select * from public.start_chat_turn(%L) $$, tests.bot_id('A gallery')), '42501', null,
  'a visitor may not call start_chat_turn');
select tests.clear_authentication();
select throws_ok(format($$ select * from public.start_chat_turn(%L) $$, tests.bot_id('A gallery')), '42501', null,
  'nor may anon');

select tests.authenticate_as_service_role();
-- limits in order, stopping at the first exhausted one -----------------------------------------
select is((select allowed from public.start_chat_turn(tests.bot_id('A gallery'), array['t:user', 't:ip'], array[1, 5], array[60, 60])),
  true, 'within its limits the turn starts');
create temporary table refused on commit drop as
  select * from public.start_chat_turn(tests.bot_id('A gallery'), array['t:user', 't:ip'], array[1, 5], array[60, 60], tests.get_supabase_uid('visitor1'));
select results_eq($$ select allowed, bot is null, turn_pass is null from refused $$, $$ values (false, true, true) $$,
  'past the first limit: refused, no bot, no pass');
select ok((select retry_after between 1 and 60 from refused), 'with the seconds to wait');
reset role;
select is((select hits from private.rate_limits where key = 't:ip'), 1,
  'a caller refused by the first limit spends nothing of the next');
select tests.authenticate_as_service_role();
select throws_ok(format($$ select * from public.start_chat_turn(%L, array['a'], array[1, 2], array[60]) $$, tests.bot_id('A gallery')),
  '22023', null, 'limits must come in equal lists');
select throws_ok(format($$ select * from public.start_chat_turn(%L, array['a'], array[0], array[60]) $$, tests.bot_id('A gallery')),
  '22023', null, 'a limit of 0 is invalid');

-- the bot, its power-ups, the pass ----------------------------------------------------------
insert into public.power_ups (bot_id, type, name, label, description, settings)
values (tests.bot_id('A gallery'), 'http', 'lookup_order', 'Looked up', 'Look up an order',
        '{"method": "GET", "url": "https://shop.example.test/orders", "max_chars": 2000, "timeout_ms": 5000}');
insert into public.power_up_secrets (power_up_id, name, value) select id, 'TOKEN', 's3cret' from public.power_ups where name = 'lookup_order';
create temporary table started on commit drop as
  select * from public.start_chat_turn(tests.bot_id('A gallery'), array['t:other'], array[5], array[60], tests.get_supabase_uid('visitor1'));
select results_eq($$ select (bot ->> 'id')::uuid, (bot ->> 'web_enabled')::boolean from started $$,
  format($$ values (%L::uuid, true) $$, tests.bot_id('A gallery')), 'the bot''s answering settings, its web channel on');
select is((select jsonb_array_length(power_ups) from started), 1, 'its enabled power-ups');
select is((select power_up_secrets -> (power_ups -> 0 ->> 'id') ->> 'TOKEN' from started), 's3cret', 'with their http secrets');
reset role;
select is((select count(*)::int from private.chat_turn_passes p join started s on p.id = s.turn_pass
           where p.user_id = tests.get_supabase_uid('visitor1') and p.bot_id = tests.bot_id('A gallery')), 1,
  'a visitor''s turn gets a one-time pass for this bot');
insert into public.platform_disabled_features (kind, type) values ('power_up', 'http');
select tests.authenticate_as_service_role();
select is((select jsonb_array_length(power_ups) from public.start_chat_turn(tests.bot_id('A gallery'))), 0,
  'a power-up type the platform turned off is left out');
select results_eq($$ select allowed, bot, turn_pass from public.start_chat_turn(gen_random_uuid(), '{}', '{}', '{}', tests.get_supabase_uid('visitor1')) $$,
  $$ values (true, null::jsonb, null::uuid) $$, 'an unknown bot: no settings and no pass');

select * from finish();
rollback;
