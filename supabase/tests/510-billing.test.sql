-- billing (issue 22): subscriptions, invoices, Stripe events, and every plan limit enforced by
-- Postgres with one error (SQLSTATE PT402, hint plan_limit, detail = the limit) for every role and
-- path: the owner and an admin (the app and the REST API), the service role (edge functions),
-- security-definer RPCs (invitations), and the chat turn (open_chat_turn) for the monthly quota.
begin;
select plan(88);
select tests.create_team_fixture();


select tests.rls_enabled('public', 'subscriptions');
select tests.rls_enabled('public', 'invoices');
select tests.rls_enabled('public', 'stripe_events');

-- every team has a subscription; plans have prices ------------------------------------------------
select is((select count(*)::int from public.teams t where not exists (select 1 from public.subscriptions s where s.team_id = t.id)),
  0, 'every team has a subscription row');
select is((select plan_id || '/' || status from public.subscriptions where team_id = tests.team_id('team-a')),
  'free/active', 'a new team starts on free, active');
select tests.authenticate_as('stranger');
select lives_ok($$ select public.create_team('Stranger Co', 'stranger-co') $$, 'a user creates a team');
select tests.authenticate_as_service_role();
select is((select s.plan_id from public.subscriptions s join public.teams t on t.id = s.team_id where t.slug = 'stranger-co'),
  'free', 'a team created through create_team gets its free subscription');
select is((select (prices -> 'usd' ->> 'month')::int from public.plans where id = 'pro'), 1900, 'plans carry monthly prices per currency');
select is((select stripe_price_ids -> 'eur' ->> 'year' from public.plans where id = 'business'), 'price_business_eur_year',
  'plans carry their Stripe price ids');
select is((select prices from public.plans where id = 'free'), '{}'::jsonb, 'free has no price');

-- who reads subscriptions and invoices -------------------------------------------------------------
reset role;
insert into public.invoices (team_id, stripe_invoice_id, status, currency, amount_due, amount_paid)
values (tests.team_id('team-a'), 'in_test_1', 'paid', 'usd', 1900, 1900);
insert into public.stripe_events (id, type, stripe_created_at) values ('evt_test_1', 'invoice.paid', now());

select tests.authenticate_as('owner');
select is((select count(*)::int from public.subscriptions where team_id = tests.team_id('team-a')), 1, 'an owner reads their team''s subscription');
select is((select count(*)::int from public.subscriptions where team_id = tests.team_id('team-b')), 0, 'and not another team''s');
select is((select count(*)::int from public.invoices), 1, 'an owner reads their team''s invoices');
select throws_ok($$ update public.subscriptions set plan_id = 'business' $$, '42501', null, 'an owner cannot change the subscription');
select throws_ok($$ insert into public.invoices (team_id, stripe_invoice_id, status, currency) values (tests.team_id('team-a'), 'in_x', 'paid', 'usd') $$,
  '42501', null, 'an owner cannot write invoices');
select throws_ok($$ select * from public.stripe_events $$, '42501', null, 'an owner cannot read Stripe events');
select tests.authenticate_as('admin');
select is((select count(*)::int from public.subscriptions where team_id = tests.team_id('team-a')), 0, 'a team admin does not read billing (owners only)');
select is((select count(*)::int from public.invoices), 0, 'a team admin reads no invoices');
select tests.authenticate_as('other');
select is((select count(*)::int from public.subscriptions where team_id = tests.team_id('team-a')), 0, 'another team''s member reads nothing');
select tests.authenticate_as('platform');
select is((select count(*)::int from public.subscriptions), tests.count_all('public.subscriptions'), 'a platform administrator reads every subscription');
select throws_ok($$ update public.subscriptions set plan_id = 'business' $$, '42501', null, 'a platform administrator cannot write subscriptions');
select tests.clear_authentication();
select throws_ok($$ select * from public.subscriptions $$, '42501', null, 'anon cannot read subscriptions');
select throws_ok($$ select * from public.invoices $$, '42501', null, 'anon cannot read invoices');
select tests.authenticate_as_service_role();
select is((select count(*)::int from public.stripe_events where id = 'evt_test_1'), 1, 'the service role reads Stripe events');
select throws_ok($$ insert into public.stripe_events (id, type, stripe_created_at) values ('evt_test_1', 'invoice.paid', now()) $$,
  '23505', null, 'an event id is recorded once (replays are detected)');

-- a plan change (billing or a platform administrator) moves the subscription ---------------------------
select lives_ok($$ update public.teams set plan_id = 'pro' where id = tests.team_id('team-b') $$, 'the service role moves a team to pro');
select is((select plan_id from public.subscriptions where team_id = tests.team_id('team-b')), 'pro', 'the subscription follows teams.plan_id');
reset role;
update public.subscriptions set status = 'past_due', grace_until = now() + interval '3 days' where team_id = tests.team_id('team-b');
update public.teams set plan_id = 'free' where id = tests.team_id('team-b');
select is((select plan_id || '/' || status || '/' || (grace_until is null)::text from public.subscriptions where team_id = tests.team_id('team-b')),
  'free/canceled/true', 'a move to free (as an admin action would) ends the grace period and the unpaid subscription');

-- the limits ----------------------------------------------------------------------------------------
-- A small plan for team A (which has 3 bots, an owner and an admin).
insert into public.plans (id, sort_order, name, chat_requests_per_minute, bots, messages_per_month, data_sources,
  stored_characters, members, channels, power_ups, api_access, powered_by_removable, test_runs_per_month)
values ('tiny', 1, '{"en":"Tiny","de":"Winzig","es":"Mini","fr":"Mini","it":"Mini","jp":"ミニ","cn":"迷你","el":"Μίνι","pl":"Mini","nl":"Mini"}',
  600, 4, 2, 1, 100, 2, 1, 1, false, false, 1);
update public.teams set plan_id = 'tiny' where id = tests.team_id('team-a');

-- bots
select tests.authenticate_as('owner');
select lives_ok($$ insert into public.bots (team_id, name) values (tests.team_id('team-a'), 'Fourth') $$, 'the owner creates a 4th bot on a 4-bot plan');
select is(tests.error_of($$ insert into public.bots (team_id, name) values (tests.team_id('team-a'), 'Fifth') $$),
  'PT402|plan_limit|bots', 'the 5th bot is refused with PT402, hint plan_limit, detail bots (owner)');
select throws_ok($$ insert into public.bots (team_id, name) values (tests.team_id('team-a'), 'Fifth') $$,
  'PT402', 'The Tiny plan allows 4 bots. Upgrade for more.', 'the message names the plan and the limit');
select tests.authenticate_as('admin');
select is(tests.error_of($$ insert into public.bots (team_id, name) values (tests.team_id('team-a'), 'Fifth') $$),
  'PT402|plan_limit|bots', 'an admin gets the same refusal');
select tests.authenticate_as_service_role();
select is(tests.error_of($$ insert into public.bots (team_id, name) values (tests.team_id('team-a'), 'Fifth') $$),
  'PT402|plan_limit|bots', 'the service role (edge functions) gets the same refusal');
reset role;
select is(tests.error_of($$ insert into public.bots (team_id, name) values (tests.team_id('team-a'), 'Fifth') $$),
  'PT402|plan_limit|bots', 'and so does security-definer code (the owner role)');
select tests.authenticate_as('other');
select lives_ok($$ insert into public.bots (team_id, name) values (tests.team_id('team-b'), 'B second') $$, 'another team on its own plan is not affected');

-- powered by
select tests.authenticate_as('owner');
select is(tests.error_of($$ update public.bots set show_powered_by = false where id = tests.bot_id('A gallery') $$),
  'PT402|plan_limit|powered_by_removable', 'hiding "powered by" is refused where the plan does not allow it');
select lives_ok($$ update public.bots set description = 'still editable' where id = tests.bot_id('A gallery') $$,
  'other edits of a bot within the limit go through');

-- data sources
select tests.authenticate_as('admin');
select lives_ok($$ insert into public.data_sources (bot_id, type, name, settings) values (tests.bot_id('A private'), 'text', 'One', '{"text":"x"}') $$,
  'an admin adds the first data source');
select is(tests.error_of($$ insert into public.data_sources (bot_id, type, name, settings) values (tests.bot_id('A gallery'), 'text', 'Two', '{"text":"x"}') $$),
  'PT402|plan_limit|data_sources', 'the second data source of the team is refused (admin)');
select tests.authenticate_as_service_role();
select is(tests.error_of($$ insert into public.data_sources (bot_id, type, name, settings) values (tests.bot_id('A gallery'), 'text', 'Two', '{"text":"x"}') $$),
  'PT402|plan_limit|data_sources', 'and through the service role');

-- stored characters (ingest writes documents as the service role)
select lives_ok($$ insert into public.documents (data_source_id, bot_id, url, content)
  select d.id, d.bot_id, 'doc-1', repeat('a', 60) from public.data_sources d where d.name = 'One' and d.bot_id = tests.bot_id('A private') $$,
  'a 60-character document fits in 100');
select is(tests.error_of($$ insert into public.documents (data_source_id, bot_id, url, content)
  select d.id, d.bot_id, 'doc-2', repeat('b', 50) from public.data_sources d where d.name = 'One' and d.bot_id = tests.bot_id('A private') $$),
  'PT402|plan_limit|stored_characters', 'a document that would go over the stored characters is refused');
select is(tests.error_of($$ update public.documents set content = repeat('c', 101) where url = 'doc-1' $$),
  'PT402|plan_limit|stored_characters', 'so is growing a document over the limit');
select lives_ok($$ update public.documents set content = repeat('c', 10) where url = 'doc-1' $$, 'shrinking one is fine');

-- channels and API access
select tests.authenticate_as('admin');
select lives_ok($$ insert into public.channels (bot_id, type, name) values (tests.bot_id('A private'), 'slack', 'Slack') $$,
  'an admin adds one channel besides the web channels');
select is(tests.error_of($$ insert into public.channels (bot_id, type, name) values (tests.bot_id('A gallery'), 'telegram', 'Telegram') $$),
  'PT402|plan_limit|channels', 'the second channel is refused');
select tests.authenticate_as('owner');
select is(tests.error_of($$ insert into public.channels (bot_id, type, name) values (tests.bot_id('A gallery'), 'api', 'API') $$),
  'PT402|plan_limit|api_access', 'an API channel is refused on a plan without API access');
select is(tests.error_of($$ select * from public.create_api_key(tests.bot_id('A gallery'), 'key') $$),
  'PT402|plan_limit|api_access', 'so is an API key (create_api_key)');
select is((select count(*)::int from public.channels where type = 'web' and bot_id = tests.bot_id('Fourth')), 1,
  'every bot still gets its web channel (not counted)');

-- power-ups
select tests.authenticate_as('admin');
select lives_ok($$ insert into public.power_ups (bot_id, type, name) values (tests.bot_id('A private'), 'handoff', 'human') $$, 'the first power-up');
select is(tests.error_of($$ insert into public.power_ups (bot_id, type, name) values (tests.bot_id('A gallery'), 'handoff', 'human') $$),
  'PT402|plan_limit|power_ups', 'the second power-up is refused');

-- members: invitations are accepted through a security-definer RPC
create temp table tokens (token text);
grant all on tokens to authenticated;
select tests.authenticate_as('owner');
select is(tests.error_of($$ select public.invite_team_member(tests.team_id('team-a'), 'stranger@test.parley.local', 'admin') $$),
  'PT402|plan_limit|members', 'inviting beyond the members limit is refused when the invitation is made');
-- An invitation made while there was room (the plan shrank since) still cannot be accepted.
reset role;
update public.plans set members = 3 where id = 'tiny';
select tests.authenticate_as('owner');
insert into tokens select public.invite_team_member(tests.team_id('team-a'), 'stranger@test.parley.local', 'admin');
reset role;
update public.plans set members = 2 where id = 'tiny';
select tests.authenticate_as('stranger');
select is(tests.error_of($$ select public.accept_invitation((select token from tokens)) $$),
  'PT402|plan_limit|members', 'accepting an invitation beyond the members limit is refused');
select tests.authenticate_as_service_role();
select lives_ok($$ insert into public.team_members (team_id, user_id) values (tests.team_id('team-a'), tests.get_supabase_uid('admin'))
  on conflict (team_id, user_id) do nothing $$, 'adding an existing member is not refused by the limit');
select is(tests.error_of($$ insert into public.team_members (team_id, user_id) values (tests.team_id('team-a'), tests.get_supabase_uid('stranger')) $$),
  'PT402|plan_limit|members', 'the service role cannot add a member beyond the limit either');

-- test runs a month
create temp table runs (id uuid);
grant all on runs to service_role;
select lives_ok($$ insert into public.test_runs (bot_id, trigger, status) values (tests.bot_id('A private'), 'manual', 'succeeded') $$, 'the first test run this month');
select is(tests.error_of($$ insert into public.test_runs (bot_id, trigger) values (tests.bot_id('A gallery'), 'manual') $$),
  'PT402|plan_limit|test_runs_per_month', 'a second manual run is refused');
select lives_ok($$ with r as (insert into public.test_runs (bot_id, trigger) values (tests.bot_id('A gallery'), 'sync') returning id) insert into runs select id from r $$,
  'an automatic run over the limit does not fail the change that queued it');
select is((select count(*)::int from public.test_runs r join public.bots b on b.id = r.bot_id where b.team_id = tests.team_id('team-a')), 1,
  '... it is skipped');

-- messages a month: the turn is refused where it is stored
reset role;
insert into public.team_usage (team_id, month, messages)
values (tests.team_id('team-a'), date_trunc('month', now() at time zone 'utc')::date, 1);
select tests.create_anonymous_user('visitor');
select tests.authenticate_as('visitor');
select lives_ok($$ select * from public.open_chat_turn(tests.bot_id('A gallery'), 'hello') $$, 'under the quota a visitor''s turn is stored');
reset role;
update public.team_usage set messages = 2 where team_id = tests.team_id('team-a');
select tests.authenticate_as('visitor');
select is(tests.error_of($$ select * from public.open_chat_turn(tests.bot_id('A gallery'), 'hello again') $$),
  'PT402|plan_limit|messages_per_month', 'at the monthly quota open_chat_turn refuses the visitor''s turn');
select is(tests.error_of($$ insert into public.messages (chat_id, role, content)
  select id, 'user', 'direct' from public.chats where bot_id = tests.bot_id('A gallery') limit 1 $$),
  'PT402|plan_limit|messages_per_month', 'a direct insert of a turn is refused the same way');
select tests.authenticate_as_service_role();
select is(tests.error_of($$ select * from public.open_chat_turn(tests.bot_id('A gallery'), 'from slack', channel => 'slack', external_thread_id => 'T1:C1') $$),
  'PT402|plan_limit|messages_per_month', 'a channel''s turn (service role) is refused the same way');
select lives_ok($$ insert into public.messages (chat_id, role, content)
  select id, 'assistant', 'an answer already being written' from public.chats where bot_id = tests.bot_id('A gallery') limit 1 $$,
  'answers are not turns (not refused)');

-- quota e-mails: claimed once each at 80 % and 100 % ----------------------------------------------
select tests.authenticate_as('owner');
select throws_ok($$ select * from public.claim_quota_notices() $$, '42501', null, 'clients cannot claim quota notices');
select tests.authenticate_as_service_role();
select results_eq($$ select threshold, used, quota from public.claim_quota_notices() where team_id = tests.team_id('team-a') order by threshold $$,
  $$ values (80, 3::bigint, 2::bigint), (100, 3::bigint, 2::bigint) $$, 'over the quota, both notices are due');
select is_empty($$ select * from public.claim_quota_notices() where team_id = tests.team_id('team-a') $$, 'and only once a month');
select tests.rls_enabled('public', 'quota_notices');

-- the API after a downgrade: keys made on a bigger plan stop working
select tests.authenticate_as_service_role();
select is(tests.error_of($$ select * from public.open_chat_turn(tests.bot_id('B private'), 'via api', channel => 'api', external_thread_id => 'key1:c1') $$),
  'PT402|plan_limit|api_access', 'an API turn of a team whose plan has no API is refused');
select lives_ok($$ select * from public.open_chat_turn(tests.bot_id('B private'), 'via slack', channel => 'slack', external_thread_id => 'T9:C9') $$,
  'other channels'' turns of that team go through');

-- a downgrade keeps everything; items beyond the limit become read-only ---------------------------
reset role;
update public.plans set bots = 2 where id = 'tiny';
-- Rows made in one transaction share now(): make 'Fourth' the newest, as it would be.
alter table public.bots disable trigger bots_set_timestamps;
update public.bots set created_at = now() + interval '1 hour' where id = tests.bot_id('Fourth');
update public.bots set created_at = now() - interval '1 hour' where id = tests.bot_id('A private');
alter table public.bots enable trigger bots_set_timestamps;
select is((select count(*)::int from public.bots where team_id = tests.team_id('team-a')), 4, 'a downgrade deletes nothing');
select tests.authenticate_as('owner');
select is(tests.error_of($$ update public.bots set name = 'Renamed' where id = tests.bot_id('Fourth') $$),
  'PT402|plan_limit|bots', 'the newest bot beyond the limit is read-only for the owner');
select lives_ok($$ update public.bots set name = 'A private renamed' where id = tests.bot_id('A private') $$,
  'the oldest bots within the limit stay editable');
select is((select count(*)::int from public.bots where id = tests.bot_id('Fourth')), 1, 'the read-only bot is still readable');
select tests.authenticate_as_service_role();
select lives_ok($$ update public.bots set name = 'Fourth kept' where id = tests.bot_id('Fourth') $$,
  'the service side still updates it (not a client edit)');
select tests.authenticate_as('owner');
select lives_ok($$ delete from public.bots where id = tests.bot_id('Fourth kept') $$, 'the owner may delete an item beyond the limit');

-- usage meters ----------------------------------------------------------------------------------------
select is((select count(*)::int from public.team_plan_usage(tests.team_id('team-a'))), 10, 'team_plan_usage lists all ten limits');
select is((select used || '/' || limit_value from public.team_plan_usage(tests.team_id('team-a')) where limit_name = 'bots'), '3/2',
  'with the use and the limit of each');
select is((select used::int from public.team_plan_usage(tests.team_id('team-a')) where limit_name = 'messages_per_month'), 3,
  'the month''s answers (the one stored above counted)');
select tests.authenticate_as('admin');
select is((select count(*)::int from public.team_plan_usage(tests.team_id('team-a'))), 10, 'a team admin reads the meters too');
select tests.authenticate_as('stranger');
select throws_ok($$ select * from public.team_plan_usage(tests.team_id('team-a')) $$, 'PT404', 'Team not found', 'someone outside the team reads nothing');
select tests.clear_authentication();
select throws_ok($$ select * from public.team_plan_usage(tests.team_id('team-a')) $$, '42501', null, 'anon may not call it');

-- deadlines: a cancelled subscription at its period's end, an unpaid one after its grace period -------
reset role;
update public.teams set plan_id = 'pro' where id in (tests.team_id('team-b'), tests.team_id('stranger-co'));
update public.subscriptions set cancel_at_period_end = true, current_period_end = now() - interval '1 minute',
  stripe_subscription_id = 'sub_b' where team_id = tests.team_id('team-b');
update public.subscriptions set status = 'past_due', grace_until = now() + interval '2 days', stripe_subscription_id = 'sub_s'
  where team_id = tests.team_id('stranger-co');
select tests.authenticate_as('owner');
select throws_ok($$ select public.apply_billing_deadlines() $$, '42501', null, 'clients cannot run the deadline sweep');
select tests.authenticate_as_service_role();
select is(public.apply_billing_deadlines(), 1, 'the sweep moves the team whose cancelled period ended');
select is((select plan_id from public.teams where id = tests.team_id('team-b')), 'free', 'to free');
select is((select plan_id || '/' || status from public.subscriptions where team_id = tests.team_id('stranger-co')), 'pro/past_due',
  'a failed payment keeps the plan during the grace period');
reset role;
update public.subscriptions set grace_until = now() - interval '1 minute' where team_id = tests.team_id('stranger-co');
select tests.authenticate_as_service_role();
select is(public.apply_billing_deadlines(), 1, 'after the grace period ...');
select is((select t.plan_id || '/' || s.status from public.subscriptions s join public.teams t on t.id = s.team_id
  where t.id = tests.team_id('stranger-co')), 'free/canceled', '... the team is on free and the subscription cancelled');

select * from finish();
rollback;
