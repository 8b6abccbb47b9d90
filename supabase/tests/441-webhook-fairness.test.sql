-- One team cannot hold up the others' webhooks (20261201200100): at most 20 endpoints a bot,
-- test events and redeliveries 20 a minute per bot, and a claim takes at most 3 heads of one bot.
begin;
select plan(10);
select tests.create_team_fixture();

-- at most 20 endpoints a bot ---------------------------------------------------------------------
select tests.authenticate_as('owner');
select lives_ok($$ insert into public.webhook_endpoints (bot_id, url, events)
  select tests.bot_id('A gallery'), 'https://hooks.example.com/' || i, '{}' from generate_series(1, 20) i $$,
  'a bot gets up to 20 endpoints');
select throws_ok($$ insert into public.webhook_endpoints (bot_id, url, events) values (tests.bot_id('A gallery'), 'https://hooks.example.com/21', '{}') $$,
  '22023', 'A bot has at most 20 webhook endpoints: delete one first', 'the 21st is refused');
select lives_ok($$ insert into public.webhook_endpoints (bot_id, url, events) values (tests.bot_id('A unlisted'), 'https://hooks.example.com/other', '{}') $$,
  'another bot of the team still gets one');

-- a fair claim -------------------------------------------------------------------------------------
reset role;
-- every endpoint of 'A gallery' has a delivery due for an hour; the other bot's is due just now
insert into public.webhook_events (bot_id, type, data) values (tests.bot_id('A gallery'), 'webhook.test', '{}');
insert into public.webhook_deliveries (endpoint_id, event_id, event_seq, bot_id, next_attempt_at)
select e.id, ev.id, ev.seq, e.bot_id, now() - interval '1 hour'
from public.webhook_endpoints e, public.webhook_events ev
where e.bot_id = tests.bot_id('A gallery') and ev.bot_id = tests.bot_id('A gallery');
insert into public.webhook_events (bot_id, type, data) values (tests.bot_id('A unlisted'), 'webhook.test', '{}');
insert into public.webhook_deliveries (endpoint_id, event_id, event_seq, bot_id, next_attempt_at)
select e.id, ev.id, ev.seq, e.bot_id, now()
from public.webhook_endpoints e, public.webhook_events ev
where e.bot_id = tests.bot_id('A unlisted') and ev.bot_id = tests.bot_id('A unlisted');

set local role service_role;
create temporary table pass1 on commit drop as select * from public.claim_webhook_deliveries(20, 60, now() + interval '1 second');
select is((select count(*)::int from pass1 where bot_id = tests.bot_id('A gallery')), 3, 'one pass takes 3 heads of the bot with 20 due');
select is((select count(*)::int from pass1 where bot_id = tests.bot_id('A unlisted')), 1, 'and the other bot''s newer delivery beside them');
create temporary table pass2 on commit drop as select * from public.claim_webhook_deliveries(20, 60, now() + interval '2 seconds');
select is((select count(*)::int from pass2), 3, 'the next pass takes the next 3 (the leased ones wait)');
select is((select count(*)::int from pass2 where delivery_id in (select delivery_id from pass1)), 0, 'none claimed twice');

-- test events and redeliveries: 20 a minute per bot -------------------------------------------------
reset role;
select tests.authenticate_as('owner');
select lives_ok($$ select public.send_test_webhook(e.id) from public.webhook_endpoints e
  where e.bot_id = tests.bot_id('A gallery') order by e.url limit 19 $$, '19 test events are sent');
select lives_ok($$ select public.redeliver_failed_webhooks(e.id) from public.webhook_endpoints e
  where e.bot_id = tests.bot_id('A gallery') order by e.url limit 1 $$, 'a redelivery shares the budget (the 20th)');
select throws_ok($$ select public.send_test_webhook(e.id) from public.webhook_endpoints e
  where e.bot_id = tests.bot_id('A gallery') order by e.url limit 1 $$,
  'PT429', 'Too many test events and redeliveries for this bot: wait a minute and try again', 'the 21st is refused');

select * from finish();
rollback;
