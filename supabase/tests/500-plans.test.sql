-- plans (billing, first slice): anyone reads them, only the service role writes them; a team's
-- plan_id is set by the service role only; a bot's per-minute chat budget is its team's plan's.
begin;
select plan(32);
select tests.create_team_fixture();

select tests.rls_enabled('public', 'plans');

-- every database has the plans, seeded or not ------------------------------------------------
select results_eq(
  $$ select id, chat_requests_per_minute from public.plans where id in ('free', 'pro', 'business') order by sort_order $$,
  $$ values ('free'::text, 600), ('pro'::text, 1500), ('business'::text, 6000) $$,
  'the migration creates free, pro and business, in pricing order');
select is(
  (select count(*)::int from public.plans p
    where not p.name ?& array['en', 'de', 'es', 'fr', 'it', 'jp', 'cn', 'el', 'pl', 'nl']),
  0, 'every plan is named in the ten interface languages');
select throws_ok($$ insert into public.plans (id, name, chat_requests_per_minute) values ('half', '{"en": "Half"}', 10) $$,
  '23514', null, 'a plan without all ten names is refused');

-- select: anyone ----------------------------------------------------------------------------
select tests.clear_authentication();
select is((select count(*)::int from public.plans), tests.count_all('public.plans'), 'anon reads every plan');
select is((select name ->> 'jp' from public.plans where id = 'free'), '無料', 'anon reads the plans'' names');
select tests.authenticate_as('stranger');
select is((select count(*)::int from public.plans), tests.count_all('public.plans'), 'a signed-in user reads every plan');
select tests.authenticate_as('owner');
select is((select plan_id from public.teams where id = tests.team_id('team-a')), 'free', 'a new team is on the free plan, and its owner sees it');

-- writes on plans: the service role only ----------------------------------------------------------
select tests.clear_authentication();
select throws_ok($$ insert into public.plans (id, name, chat_requests_per_minute) values ('mine', '{}', 1) $$,
  '42501', null, 'anon cannot add a plan');
select throws_ok($$ update public.plans set chat_requests_per_minute = 1000000 where id = 'free' $$,
  '42501', null, 'anon cannot change a plan');
select tests.authenticate_as('owner');
select throws_ok($$ update public.plans set chat_requests_per_minute = 1000000 where id = 'free' $$,
  '42501', null, 'a team owner cannot change a plan');
select throws_ok($$ delete from public.plans where id = 'business' $$,
  '42501', null, 'a team owner cannot delete a plan');
select tests.authenticate_as('platform');
select throws_ok($$ update public.plans set chat_requests_per_minute = 1000000 where id = 'free' $$,
  '42501', null, 'a platform administrator cannot change a plan (service role only)');
select throws_ok(
  $$ insert into public.plans (id, name, chat_requests_per_minute)
     values ('mine', '{"en":"x","de":"x","es":"x","fr":"x","it":"x","jp":"x","cn":"x","el":"x","pl":"x","nl":"x"}', 1) $$,
  '42501', null, 'a platform administrator cannot add a plan');
select tests.authenticate_as_service_role();
select lives_ok(
  $$ insert into public.plans (id, sort_order, name, chat_requests_per_minute)
     values ('tiny', 5, '{"en":"Tiny","de":"Winzig","es":"Mini","fr":"Mini","it":"Mini","jp":"ミニ","cn":"迷你","el":"Μίνι","pl":"Mini","nl":"Mini"}', 2) $$,
  'the service role adds a plan');

-- teams.plan_id: never a client's to choose ----------------------------------------------------
select tests.authenticate_as('owner');
select throws_ok($$ update public.teams set plan_id = 'business' where id = tests.team_id('team-a') $$,
  '42501', null, 'a team owner cannot move their team to another plan');
select lives_ok($$ update public.teams set name = 'Team A renamed' where id = tests.team_id('team-a') $$,
  'the owner still changes the team''s other fields');
select tests.authenticate_as('admin');
update public.teams set plan_id = 'business' where id = tests.team_id('team-a');
select tests.authenticate_as('platform');
update public.teams set plan_id = 'business' where id = tests.team_id('team-a');
reset role;
select is((select plan_id from public.teams where id = tests.team_id('team-a')), 'free',
  'a team admin and a platform administrator change no team''s plan (no update policy lets them)');
select tests.authenticate_as('stranger');
select throws_ok($$ insert into public.teams (name, slug, created_by, plan_id) values ('Mine', 'mine-on-business', auth.uid(), 'business') $$,
  '42501', 'A new team starts on the free plan', 'a signed-in user cannot create a team on a paid plan');
select lives_ok($$ select public.create_team('Mine', 'mine-on-free') $$, 'create_team still works');
reset role;
select is((select plan_id from public.teams where slug = 'mine-on-free'), 'free', 'and the new team is on the free plan');
select tests.authenticate_as_service_role();
select lives_ok($$ update public.teams set plan_id = 'tiny' where id = tests.team_id('team-a') $$,
  'the service role (billing) moves a team to another plan');
select throws_ok($$ update public.teams set plan_id = 'nonexistent' where id = tests.team_id('team-b') $$,
  '23503', null, 'a team''s plan must exist');
select throws_ok($$ delete from public.plans where id = 'tiny' $$,
  '23503', null, 'a plan that teams are on cannot be deleted');

-- the bot's budget follows its team's plan -------------------------------------------------------
reset role;
select is(private.bot_chat_budget(tests.bot_id('A private')), 2, 'a bot of a team on the tiny plan gets its ceiling (2 a minute)');
select is(private.bot_chat_budget(tests.bot_id('B private')), 600, 'a bot of a team on free gets free''s (600 a minute)');
select is(private.bot_chat_budget('00000000-0000-4000-8000-000000000000'), null, 'an unknown bot has no budget');
select tests.authenticate_as_service_role();
select lives_ok($$ select * from public.open_chat_turn(tests.bot_id('A private'), 'one', null, '[]', 'slack', 'C1:1', 'U1') $$,
  'the first channel turn of the minute is answered');
select lives_ok($$ select * from public.open_chat_turn(tests.bot_id('A private'), 'two', null, '[]', 'slack', 'C1:1', 'U1') $$,
  'the second too');
select throws_ok($$ select * from public.open_chat_turn(tests.bot_id('A private'), 'three', null, '[]', 'slack', 'C1:1', 'U1') $$,
  'PT429', null, 'the third is over the tiny plan''s ceiling');
select lives_ok($$ update public.plans set chat_requests_per_minute = 3 where id = 'tiny' $$, 'the service role raises the plan''s ceiling');
select lives_ok($$ select * from public.open_chat_turn(tests.bot_id('A private'), 'three again', null, '[]', 'slack', 'C1:1', 'U1') $$,
  'and the bot answers again within the same minute');

select * from finish();
rollback;
