-- Model spend outside the quota (20261201200000): a task runs at most every 15 minutes, a bot
-- has at most 20 tasks, and public.message_quota_reached tells the tasks and tests functions
-- when the team's monthly messages are used up (service role only).
begin;
select plan(22);
select tests.create_team_fixture();

-- the minute field's smallest gap -------------------------------------------------------------
select is(private.cron_minute_gap('* * * * *'), 1, 'every minute: 1');
select is(private.cron_minute_gap('*/5 9-17 * * 1-5'), 5, 'every 5 minutes: 5');
select is(private.cron_minute_gap('*/15 * * * *'), 15, 'every 15 minutes: 15');
select is(private.cron_minute_gap('0 9 * * *'), 60, 'one minute an hour: 60');
select is(private.cron_minute_gap('0,50 * * * *'), 10, 'the wrap to the next hour counts (50 then 0)');
select is(private.cron_minute_gap('5/20 * * * *'), 20, 'a start with a step (5, 25, 45)');
select is(private.cron_minute_gap('0-30/10,45 * * * *'), 10, 'a list of a stepped range and a minute');
select is(private.cron_minute_gap('L * * * *'), null, 'anything else is not read');

-- the schedule ----------------------------------------------------------------------------------
select tests.authenticate_as('owner');
select throws_ok($$ insert into public.tasks (bot_id, name, type, cron, settings)
  values (tests.bot_id('A gallery'), 'Often', 'ask', '* * * * *', '{"prompt": "x"}') $$,
  '22023', 'A task runs at most every 15 minutes: choose a schedule with at least 15 minutes between runs',
  'a task every minute is refused');
select throws_ok($$ insert into public.tasks (bot_id, name, type, cron, settings)
  values (tests.bot_id('A gallery'), 'Often', 'ask', '0,10,30,45 9 * * *', '{"prompt": "x"}') $$,
  '22023', null, 'two runs 10 minutes apart are refused');
select lives_ok($$ insert into public.tasks (bot_id, name, type, cron, settings)
  values (tests.bot_id('A gallery'), 'Quarterly hour', 'ask', '*/15 * * * *', '{"prompt": "x"}') $$,
  'every 15 minutes is accepted');
select throws_ok($$ update public.tasks set cron = '*/2 * * * *' where name = 'Quarterly hour' $$,
  '22023', null, 'a change to a more frequent cron is refused');
select lives_ok($$ update public.tasks set cron = '0 9 * * *' where name = 'Quarterly hour' $$, 'a change to a daily cron is accepted');
select throws_ok($$ insert into public.tasks (bot_id, name, type, cron, settings)
  values (tests.bot_id('A gallery'), 'Odd', 'ask', 'L * * * *', '{"prompt": "x"}') $$,
  '22023', null, 'a minute field that is not numbers, ranges, steps and lists is refused');
select is((select count(*)::int from public.tasks where name in ('Often', 'Odd')), 0, 'nothing refused was stored');

-- at most 20 tasks a bot ------------------------------------------------------------------------
select lives_ok($$ insert into public.tasks (bot_id, name, type, every_hours)
  select tests.bot_id('A gallery'), 'Digest ' || i, 'digest', 24 from generate_series(1, 19) i $$,
  'a bot gets up to 20 tasks');
select throws_ok($$ insert into public.tasks (bot_id, name, type, every_hours) values (tests.bot_id('A gallery'), 'One more', 'digest', 24) $$,
  '22023', 'A bot has at most 20 tasks: delete one first', 'the 21st task is refused');
select lives_ok($$ delete from public.tasks where name = 'Digest 1' $$, 'one is deleted');
select lives_ok($$ insert into public.tasks (bot_id, name, type, every_hours) values (tests.bot_id('A gallery'), 'One more', 'digest', 24) $$,
  'then another can be added');

-- the quota check ---------------------------------------------------------------------------------
select ok(not has_function_privilege('authenticated', 'public.message_quota_reached(uuid)', 'execute'),
  'clients cannot ask about the quota through it');
reset role;
set local role service_role;
select is(public.message_quota_reached(tests.bot_id('A gallery')), false, 'a free team with messages left has not reached it');
reset role;
insert into public.team_usage (team_id, month, messages)
values (tests.team_id('team-a'), date_trunc('month', now() at time zone 'utc')::date, 500)
on conflict (team_id, month) do update set messages = 500;
set local role service_role;
select is(public.message_quota_reached(tests.bot_id('A gallery')), true, 'at 500 of 500 messages it has');

select * from finish();
rollback;
