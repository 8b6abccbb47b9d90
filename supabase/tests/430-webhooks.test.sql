-- Webhooks: endpoints per role, secrets never readable by a client, events written with the
-- change, the worker's claim (ordering per endpoint, leases) and completion (backoff, disabling).
begin;
select plan(54);
select tests.create_team_fixture();
select tests.create_supabase_user('visitor1');

-- endpoints: who may create ---------------------------------------------------------------
select tests.authenticate_as('owner');
select lives_ok($$ insert into public.webhook_endpoints (bot_id, url, events, description)
  values (tests.bot_id('A gallery'), 'https://hooks.example.com/a', array['chat.created', 'message.created'], 'owner''s') $$,
  'an owner creates an endpoint');
select throws_ok($$ insert into public.webhook_endpoints (bot_id, url, events) values (tests.bot_id('A gallery'), 'ftp://x', '{}') $$,
  '23514', null, 'only http(s) URLs');
select throws_ok($$ insert into public.webhook_endpoints (bot_id, url, events) values (tests.bot_id('A gallery'), 'https://x.example', array['no.such']) $$,
  '23514', null, 'only known event types');

select tests.authenticate_as('admin');
select lives_ok($$ insert into public.webhook_endpoints (bot_id, url, events)
  values (tests.bot_id('A unlisted'), 'https://hooks.example.com/b', array['feedback.created']) $$,
  'an admin creates an endpoint');

select tests.authenticate_as('other');
select throws_ok($$ insert into public.webhook_endpoints (bot_id, url, events) values (tests.bot_id('A gallery'), 'https://evil.example', '{}') $$,
  '42501', null, 'a member of another team cannot add an endpoint');
select tests.authenticate_as('visitor1');
select throws_ok($$ insert into public.webhook_endpoints (bot_id, url, events) values (tests.bot_id('A gallery'), 'https://evil.example', '{}') $$,
  '42501', null, 'a visitor cannot add an endpoint');
select tests.authenticate_as('platform');
select throws_ok($$ insert into public.webhook_endpoints (bot_id, url, events) values (tests.bot_id('A gallery'), 'https://evil.example', '{}') $$,
  '42501', null, 'a platform admin cannot add an endpoint');
select tests.clear_authentication();
select throws_ok($$ insert into public.webhook_endpoints (bot_id, url, events) values (tests.bot_id('A gallery'), 'https://evil.example', '{}') $$,
  '42501', null, 'anon cannot add an endpoint');

-- endpoints: who may read and change ----------------------------------------------------------
reset role;
create temporary table ep on commit drop as
  select id from public.webhook_endpoints where url = 'https://hooks.example.com/a';
grant select on ep to anon, authenticated, service_role;

select tests.authenticate_as('admin');
select is((select count(*)::int from public.webhook_endpoints), 2, 'an admin reads the team''s endpoints');
select lives_ok($$ update public.webhook_endpoints set description = 'changed' where id = (select id from ep) $$, 'an admin updates an endpoint');
select throws_ok($$ update public.webhook_endpoints set failure_count = 0 where id = (select id from ep) $$,
  '42501', null, 'nobody but the worker sets the failure count');
select tests.authenticate_as('other');
select is((select count(*)::int from public.webhook_endpoints), 0, 'another team sees no endpoint');
update public.webhook_endpoints set url = 'https://evil.example' where id = (select id from ep);
delete from public.webhook_endpoints where id = (select id from ep);
select tests.authenticate_as('visitor1');
select is((select count(*)::int from public.webhook_endpoints), 0, 'a visitor sees no endpoint');
select tests.clear_authentication();
select throws_ok($$ select count(*) from public.webhook_endpoints $$, '42501', null, 'anon may not read endpoints');
reset role;
select is((select url from public.webhook_endpoints where id = (select id from ep)), 'https://hooks.example.com/a',
  'another team''s update and delete changed nothing');
select tests.authenticate_as('platform');
select is((select count(*)::int from public.webhook_endpoints), tests.count_all('public.webhook_endpoints'), 'a platform admin reads every endpoint');

-- secrets -------------------------------------------------------------------------------------
select tests.authenticate_as('owner');
select throws_ok($$ select secret from public.webhook_endpoint_secrets $$, '42501', null, 'no client reads the secrets table');
select matches(public.get_webhook_secret((select id from ep)), '^whsec_[A-Za-z0-9+/=]{32}$', 'an owner sees the secret on demand');
create temporary table old_secret on commit drop as select public.get_webhook_secret((select id from ep)) s;
create temporary table new_secret on commit drop as select public.rotate_webhook_secret((select id from ep)) s;
select isnt((select s from new_secret), (select s from old_secret), 'rotating gives a new secret');
select is(public.get_webhook_secret((select id from ep)), (select s from new_secret), 'the rotated secret is the one shown');
select tests.authenticate_as('admin');
select lives_ok($$ select public.get_webhook_secret((select id from ep)) $$, 'an admin sees the secret');
select tests.authenticate_as('other');
select throws_ok($$ select public.get_webhook_secret((select id from ep)) $$, 'PT404', 'Endpoint not found', 'another team cannot see the secret');
select throws_ok($$ select public.rotate_webhook_secret((select id from ep)) $$, 'PT404', 'Endpoint not found', 'another team cannot rotate it');
select tests.authenticate_as('platform');
select throws_ok($$ select public.get_webhook_secret((select id from ep)) $$, 'PT404', 'Endpoint not found', 'a platform admin cannot see the secret');
select tests.clear_authentication();
select throws_ok($$ select public.get_webhook_secret((select id from ep)) $$, '42501', null, 'anon cannot ask for a secret');

-- events are written with the change ----------------------------------------------------------
select tests.authenticate_as('visitor1');
create temporary table opened on commit drop as
  select * from public.open_chat_turn(tests.bot_id('A gallery'), 'When do you open?');
grant select on opened to authenticated, service_role;
reset role;
select is((select array_agg(type order by seq) from public.webhook_events where bot_id = tests.bot_id('A gallery')),
  array['chat.created', 'message.created'], 'a visitor''s first turn writes chat.created then message.created');
select is((select data -> 'message' ->> 'content' from public.webhook_events where type = 'message.created'),
  'When do you open?', 'the message payload carries the content');
select is((select count(*)::int from public.webhook_deliveries d join ep on d.endpoint_id = ep.id), 2,
  'a delivery per event for the subscribed endpoint');
select is((select count(*)::int from public.webhook_events where bot_id = tests.bot_id('A private')), 0,
  'a bot without endpoints keeps no events');
select is(private.enqueue_event(tests.bot_id('A unlisted'), 'lead.created', '{"lead": {}}'), null,
  'enqueue_event keeps nothing when no endpoint subscribed to the type');

select tests.authenticate_as('admin');
select is((select count(*)::int from public.webhook_deliveries), 2, 'an admin reads the deliveries');
select tests.authenticate_as('visitor1');
select is((select count(*)::int from public.webhook_events), 0, 'a visitor reads no events');
select tests.authenticate_as('other');
select is((select count(*)::int from public.webhook_deliveries), 0, 'another team reads no deliveries');
select throws_ok($$ select * from public.claim_webhook_deliveries() $$, '42501', null, 'a user cannot claim deliveries');

-- the worker: ordering, leases, backoff, disabling --------------------------------------------
select tests.authenticate_as_service_role();
create temporary table c1 on commit drop as select * from public.claim_webhook_deliveries(20, 60, now() + interval '1 second');
reset role;
grant select on c1 to authenticated, service_role;
select tests.authenticate_as_service_role();
select is((select event_type from c1 where endpoint_id = (select id from ep)), 'chat.created',
  'only the oldest pending event of an endpoint is claimed (ordering)');
select is((select count(*)::int from public.claim_webhook_deliveries(20, 60, now() + interval '2 seconds')), 0,
  'a leased delivery is not claimed twice, and the next one waits behind it');
select is((select count(*)::int from public.claim_webhook_deliveries(20, 60, now() + interval '2 minutes')), 1,
  'an expired lease is claimed again (the worker died)');
select is((public.complete_webhook_delivery((select delivery_id from c1), false, 500, 'oops', null, 10, now()) ->> 'status'),
  'pending', 'a failed attempt stays pending');
select cmp_ok((select next_attempt_at from public.webhook_deliveries where id = (select delivery_id from c1)), '>', now() + interval '1 minute',
  'the retry waits (backoff after the second attempt)');
update public.webhook_deliveries set attempt = 9 where id = (select delivery_id from c1);
select is((public.complete_webhook_delivery((select delivery_id from c1), false, null, null, 'timeout', 10, now()) ->> 'disabled'),
  'true', 'the last failed attempt disables the endpoint');
select is((select enabled from public.webhook_endpoints where id = (select id from ep)), false, 'the endpoint is disabled');

-- redeliver -------------------------------------------------------------------------------------
select tests.authenticate_as('owner');
update public.webhook_endpoints set enabled = true where id = (select id from ep);
select is(public.redeliver_failed_webhooks((select id from ep)), 1, 'an owner redelivers the failed delivery');
select tests.authenticate_as('other');
select throws_ok($$ select public.redeliver_webhook((select delivery_id from c1)) $$, 'PT404', 'Delivery not found',
  'another team cannot redeliver');

-- lead.created, handoff.requested, test_run.completed ------------------------------------------
reset role;
create temporary table ep2 on commit drop as
  with e as (insert into public.webhook_endpoints (bot_id, url, events)
    values (tests.bot_id('A gallery'), 'https://hooks.example.com/more', array['lead.created', 'handoff.requested', 'test_run.completed'])
    returning id) select id from e;
grant select on ep2 to anon, authenticated, service_role;
create function pg_temp.events_of(kind text) returns setof jsonb language sql as $$
  select data from public.webhook_events where bot_id = tests.bot_id('A gallery') and type = kind order by seq $$;

insert into public.leads (bot_id, chat_id, fields)
  values (tests.bot_id('A gallery'), (select opened_chat_id from opened), '{"email": "ada@example.com"}');
select is((select e -> 'lead' ->> 'chat_id' from pg_temp.events_of('lead.created') e), (select opened_chat_id::text from opened),
  'lead.created names the lead''s chat');
select is((select e -> 'lead' -> 'fields' ->> 'email' from pg_temp.events_of('lead.created') e), 'ada@example.com',
  'a new lead writes lead.created with its fields');
select is((select array(select jsonb_object_keys(e -> 'lead') order by 1) from pg_temp.events_of('lead.created') e),
  array['bot_id', 'chat_id', 'created_at', 'fields', 'id', 'power_up_id'], 'the lead payload has the documented keys');

select tests.authenticate_as('visitor1');
select is(public.request_handoff((select opened_chat_id from opened)), true, 'the visitor asks for a person');
select is(public.request_handoff((select opened_chat_id from opened)), false, 'and asks again');
reset role;
select is((select count(*)::int from pg_temp.events_of('handoff.requested')), 1, 'handoff.requested is written once per request');
select results_eq($$ select e ->> 'requested_by', e -> 'chat' ->> 'id', e -> 'last_visitor_message' ->> 'content',
    e -> 'chat' ? 'handoff_requested_at' from pg_temp.events_of('handoff.requested') e $$,
  $$ values ('visitor', (select opened_chat_id::text from opened), 'When do you open?', true) $$,
  'the handoff payload says who asked, the chat and the visitor''s last message');
select tests.authenticate_as('owner');
select public.hand_back_chat((select opened_chat_id from opened));
select public.reply_as_human((select opened_chat_id from opened), 'A person here.');
reset role;
select is(array(select e ->> 'requested_by' from pg_temp.events_of('handoff.requested') e), array['visitor', 'team'],
  'a team member''s reply that takes the chat over is requested_by team');

insert into public.test_cases (bot_id, question) values (tests.bot_id('A gallery'), 'Open on Sundays?');
create temporary table trun on commit drop as
  with r as (insert into public.test_runs (bot_id, status, progress_total) values (tests.bot_id('A gallery'), 'running', 1) returning id)
  select id from r;
update public.test_runs set progress_done = 1, failed_count = 1 where id = (select id from trun);
select is((select count(*)::int from pg_temp.events_of('test_run.completed')), 0, 'a running test run writes no event');
update public.test_runs set status = 'succeeded', finished_at = now() where id = (select id from trun);
update public.test_runs set notified_at = now() where id = (select id from trun);
select results_eq($$ select e -> 'test_run' ->> 'id', e -> 'test_run' ->> 'status', (e -> 'test_run' ->> 'failed')::int,
    e -> 'test_run' -> 'regressions' from pg_temp.events_of('test_run.completed') e $$,
  $$ values ((select id::text from trun), 'succeeded', 1, '[]'::jsonb) $$,
  'a test run reaching its final status writes test_run.completed once');
select is((select count(*)::int from public.webhook_deliveries where endpoint_id = (select id from ep2)), 4,
  'the lead, both handoffs and the test run are delivered to the endpoint that subscribed');

select * from finish();
rollback;
