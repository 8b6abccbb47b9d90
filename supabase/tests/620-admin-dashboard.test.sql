-- The admin dashboard's admin_* functions: every role but the platform administrator gets an
-- error from each; the administrator gets the right figures on fixture data dated 300 days ago
-- (no seed row is that old, so the figures are exact on an empty and a seeded database).
begin;
select plan(93);
select tests.create_team_fixture();

-- fixture: day D = 300 days ago (UTC noon) ---------------------------------------------------
create temp table d as select ((now() at time zone 'utc')::date - 300) as day,
  (((now() at time zone 'utc')::date - 300)::timestamp + interval '12 hours') at time zone 'utc' as ts;
grant select on d to authenticated;

-- created_at of chats, bots and feedback is stamped by triggers; the fixture backdates them.
alter table public.chats disable trigger chats_set_timestamps;
alter table public.bots disable trigger bots_set_timestamps;
alter table public.message_feedback disable trigger message_feedback_set_timestamps;

update auth.users set created_at = (select ts from d) where id in (tests.get_supabase_uid('stranger'), tests.get_supabase_uid('other'));
insert into public.bots (id, team_id, name, created_at, created_by, model_provider, model)
values ('f6200000-0000-4000-8000-000000000001', tests.team_id('team-b'), 'B old', (select ts from d), tests.get_supabase_uid('other'), 'mistral', 'mistral-large-latest');
insert into public.chats (id, bot_id, user_id, channel, created_at) values
  ('f6210000-0000-4000-8000-000000000001', tests.bot_id('A gallery'), tests.get_supabase_uid('stranger'), 'widget', (select ts from d));
insert into public.chats (id, bot_id, channel, external_thread_id, external_user_id, created_at) values
  ('f6210000-0000-4000-8000-000000000002', tests.bot_id('B private'), 'telegram', 't-1', 'u-1', (select ts from d));
insert into public.messages (id, chat_id, role, content, provider, model, prompt_tokens, completion_tokens, latency_ms, first_token_ms, error, created_at) values
  ('f6220000-0000-4000-8000-000000000001', 'f6210000-0000-4000-8000-000000000001', 'user', 'hi', null, null, null, null, null, null, null, (select ts from d)),
  ('f6220000-0000-4000-8000-000000000002', 'f6210000-0000-4000-8000-000000000001', 'assistant', 'hello', 'mistral', 'mistral-large-latest', 10, 20, 100, 40, null, (select ts from d)),
  ('f6220000-0000-4000-8000-000000000003', 'f6210000-0000-4000-8000-000000000001', 'assistant', '', 'mistral', 'mistral-large-latest', 5, 5, 300, 60, 'upstream 500', (select ts from d)),
  ('f6220000-0000-4000-8000-000000000004', 'f6210000-0000-4000-8000-000000000002', 'assistant', 'yo', 'groq', null, 1, 2, 200, 20, null, (select ts from d));
insert into public.message_feedback (message_id, user_id, rating, created_at) values
  ('f6220000-0000-4000-8000-000000000002', tests.get_supabase_uid('stranger'), 'down', (select ts from d));
insert into public.data_sources (id, bot_id, type, name, settings) values
  ('f6230000-0000-4000-8000-000000000001', tests.bot_id('A private'), 'web', 'Broken site', '{"url":"https://example.com"}');
insert into public.ingestion_jobs (data_source_id, bot_id, status, errors, finished_at) values
  ('f6230000-0000-4000-8000-000000000001', tests.bot_id('A private'), 'failed', '[{"url":"https://example.com","code":"http_404","message":"Page not found"}]', (select ts from d));
insert into public.power_ups (id, bot_id, type, name, settings) values
  ('f6240000-0000-4000-8000-000000000001', tests.bot_id('A private'), 'link', 'docs_link', '{"link_label":"Docs","link_url":"https://example.com"}');

alter table public.chats enable trigger chats_set_timestamps;
alter table public.bots enable trigger bots_set_timestamps;
alter table public.message_feedback enable trigger message_feedback_set_timestamps;

-- every other role is refused by every function -------------------------------------------
create temp table calls (sql text);
insert into calls values
  ('select * from public.admin_dashboard_daily(7)'),
  ('select * from public.admin_dashboard_tokens(7)'),
  ('select * from public.admin_dashboard_totals(7)'),
  ('select * from public.admin_provider_stats(7)'),
  ('select * from public.admin_model_usage(7)'),
  ('select * from public.admin_channel_usage(7)'),
  ('select * from public.admin_power_up_usage(7)'),
  ('select * from public.admin_ingestion_status(7)'),
  ('select * from public.admin_ingestion_failures(20)'),
  ($$select public.admin_update_plan('free', '{"bots": 4}')$$),
  ($$select public.admin_set_feature_enabled('power_up', 'http', false)$$);
grant select on calls to anon, authenticated;

select tests.clear_authentication();
select throws_ok(sql, '42501', null, 'anon: ' || sql) from calls;
select tests.authenticate_as('stranger');
select throws_ok(sql, '42501', 'Only platform administrators may do this', 'a stranger: ' || sql) from calls;
select tests.authenticate_as('owner');
select throws_ok(sql, '42501', 'Only platform administrators may do this', 'a team owner: ' || sql) from calls;
select tests.authenticate_as('admin');
select throws_ok(sql, '42501', 'Only platform administrators may do this', 'a team admin: ' || sql) from calls;

-- figures over time -----------------------------------------------------------------------
select tests.authenticate_as('platform');
select is((select count(*)::int from public.admin_dashboard_daily(7)), 7, 'seven days, one row each, empty days included');
select is((select max(day) from public.admin_dashboard_daily(7)), (now() at time zone 'utc')::date, 'the period ends today (UTC)');
select throws_ok('select * from public.admin_dashboard_daily(0)', '22023', 'A period is 1 to 366 days', 'a period under a day is refused');
select throws_ok('select * from public.admin_dashboard_daily(400)', '22023', 'A period is 1 to 366 days', 'a period over 366 days is refused');
select results_eq(
  $$ select signups, active_teams, new_bots, new_chats, messages, answers, prompt_tokens, completion_tokens,
       latency_p50_ms, latency_p95_ms, provider_errors, negative_feedback, sync_failures
     from public.admin_dashboard_daily(366) where day = (select day from d) $$,
  $$ values (2, 2, 1, 2, 4, 3, 16::bigint, 27::bigint, 200, 290, 1, 1, 1) $$,
  'day D: 2 sign-ups, 2 active teams, 1 bot, 2 chats, 4 messages, 3 answers, tokens, p50 200 / p95 290 ms, 1 error, 1 thumbs down, 1 failed sync');
select results_eq(
  $$ select provider, tokens from public.admin_dashboard_tokens(366) where day = (select day from d) order by provider $$,
  $$ values ('groq', 3::bigint), ('mistral', 40::bigint) $$,
  'tokens of day D per provider');
select is((select bots from public.admin_dashboard_totals(366)), tests.count_all('public.bots'), 'totals: every bot');
select is((select users from public.admin_dashboard_totals(366)),
  tests.count_all('auth.users', 'not coalesce(is_anonymous, false)'), 'totals: users who are not anonymous visitors');
select ok((select active_teams >= 2 from public.admin_dashboard_totals(366)), 'totals: at least the fixture''s two teams were active in the year');

-- sections ----------------------------------------------------------------------------------
select results_eq(
  $$ select answers, errors, latency_p50_ms, latency_p95_ms, first_token_p50_ms, tokens, bots
     from public.admin_provider_stats(366) where provider = 'mistral' $$,
  $$ values (2, 1, 200, 290, 50, 40::bigint, 1) $$,
  'provider mistral: 2 answers, 1 error, latencies, tokens, one bot');
select results_eq(
  $$ select bots, answers from public.admin_model_usage(366) where provider = 'mistral' and model = 'mistral-large-latest' $$,
  $$ values (1, 2) $$,
  'model usage: the bot set to mistral-large-latest and its answers');
select ok((select messages >= 3 from public.admin_channel_usage(366) where type = 'web'),
  'channel usage: the widget chat''s messages count for the web channel');
select is((select count(*)::int from public.admin_channel_usage(7)), 6, 'channel usage lists every channel type');
select results_eq(
  $$ select power_ups, enabled, disabled from public.admin_power_up_usage(7) where type = 'link' $$,
  $$ values (tests.count_all('public.power_ups', $c$type = 'link'$c$), tests.count_all('public.power_ups', $c$type = 'link' and enabled$c$), false) $$,
  'power-up usage: link power-ups, enabled ones, not turned off');
select is((select jobs from public.admin_ingestion_status(366) where status = 'failed'),
  tests.count_all('public.ingestion_jobs', $c$status = 'failed'$c$), 'sync status: failed jobs');
select results_eq(
  $$ select data_source_name, bot_name, team_name, error from public.admin_ingestion_failures(200) where data_source_name = 'Broken site' $$,
  $$ values ('Broken site', 'A private', 'Team A', 'Page not found') $$,
  'recent failures name the data source, bot, team and error text');

-- admin_update_plan -------------------------------------------------------------------------
select is((public.admin_update_plan('pro', '{"bots": 25, "name": {"en": "Pro+", "de": "Pro+", "es": "Pro+", "fr": "Pro+", "it": "Pro+", "jp": "Pro+", "cn": "Pro+", "el": "Pro+", "pl": "Pro+", "nl": "Pro+"}}')).bots, 25,
  'an administrator changes a plan limit');
select is((select name ->> 'en' from public.plans where id = 'pro'), 'Pro+', 'and its names');
select is((select members from public.plans where id = 'pro'), 10, 'columns not named keep their value');
select results_eq(
  $$ select actor_id, target_type, target_id, (before ->> 'bots')::int, (after ->> 'bots')::int from public.admin_audit_log where action = 'plan.update' $$,
  $$ values (tests.get_supabase_uid('platform'), 'plan', 'pro', 20, 25) $$,
  'the change is in the audit log with before and after');
select is((public.admin_update_plan('pro', '{"bots": null}')).bots, null, 'a limit can become unlimited (null)');
select throws_ok($$ select public.admin_update_plan('pro', '{"id": "gold"}') $$, '42501', 'The plan column id cannot be changed', 'the key is refused');
select throws_ok($$ select public.admin_update_plan('pro', '{"updated_at": "2020-01-01"}') $$, '42501', 'The plan column updated_at cannot be changed', 'updated_at is refused');
select throws_ok($$ select public.admin_update_plan('pro', '{"colour": "red"}') $$, '22023', 'Plans have no column colour', 'an unknown column is refused');
select throws_ok($$ select public.admin_update_plan('pro', '{"bots": -1}') $$, '23514', null, 'the table''s checks apply');
select throws_ok($$ select public.admin_update_plan('pro', '{"name": {"en": "Only English"}}') $$, '23514', null, 'names must stay in all ten languages');
select throws_ok($$ select public.admin_update_plan('pro', '{"chat_requests_per_minute": null}') $$, '23502', null, 'a required column cannot be emptied');
select throws_ok($$ select public.admin_update_plan('gold', '{"bots": 1}') $$, 'PT404', 'No plan gold', 'an unknown plan is refused');
select throws_ok($$ select public.admin_update_plan('pro', '[]') $$, '22023', null, 'changes must be an object');

-- feature switches --------------------------------------------------------------------------
select is(public.admin_set_feature_enabled('power_up', 'link', false), false, 'an administrator turns link power-ups off');
select results_eq(
  $$ select action, target_type, target_id from public.admin_audit_log where action like 'feature.%' $$,
  $$ values ('feature.disable', 'power_up_type', 'link') $$, 'and it is in the audit log');
select is((select disabled from public.admin_power_up_usage(7) where type = 'link'), true, 'power-up usage shows the type off');
select throws_ok($$ select public.admin_set_feature_enabled('channel', 'web', false) $$, '22023', null, 'the web channel cannot be turned off');
select throws_ok($$ select public.admin_set_feature_enabled('power_up', 'teleport', false) $$, '22023', null, 'an unknown type is refused');
select throws_ok($$ select public.admin_set_feature_enabled('widget', 'http', false) $$, '22023', null, 'an unknown kind is refused');
select lives_ok($$ select public.admin_set_feature_enabled('channel', 'telegram', false) $$, 'an administrator turns telegram channels off');
select throws_ok($$ insert into public.platform_disabled_features (kind, type) values ('power_up', 'http') $$, '42501', null,
  'nobody writes the switches directly');

select tests.authenticate_as('owner');
select is((select count(*)::int from public.platform_disabled_features), 2, 'a team owner reads what is turned off');
select throws_ok(
  format($$ insert into public.power_ups (bot_id, type, name, settings) values (%L, 'link', 'more_docs', '{"link_label":"x","link_url":"https://example.com"}') $$, tests.bot_id('A private')),
  '42501', 'power-up type link is turned off on this platform', 'creating a power-up of a type that is off is refused');
select lives_ok($$ update public.power_ups set enabled = false where name = 'docs_link' $$, 'an existing one can be switched off');
select throws_ok($$ update public.power_ups set enabled = true where name = 'docs_link' $$,
  '42501', 'power-up type link is turned off on this platform', 'but not back on');
select throws_ok(
  format($$ insert into public.channels (bot_id, type, name) values (%L, 'telegram', 'Telegram') $$, tests.bot_id('A private')),
  '42501', 'channel type telegram is turned off on this platform', 'creating a channel of a type that is off is refused');
select tests.authenticate_as_service_role();
select throws_ok(
  format($$ insert into public.channels (bot_id, type, name) values (%L, 'telegram', 'Telegram') $$, tests.bot_id('A private')),
  '42501', null, 'the service role is refused too');
select tests.clear_authentication();
select is((select count(*)::int from public.platform_disabled_features), 2, 'anon reads what is turned off');

select tests.authenticate_as('platform');
select is(public.admin_set_feature_enabled('power_up', 'link', true), true, 'an administrator turns link power-ups back on');
select is((select count(*)::int from public.admin_audit_log where action = 'feature.enable'), 1, 'logged');
select lives_ok($$ select public.admin_set_feature_enabled('power_up', 'link', true) $$, 'turning on what is on is harmless');
select is((select count(*)::int from public.admin_audit_log where action = 'feature.enable'), 1, 'and logs nothing');
select tests.authenticate_as('owner');
select lives_ok($$ update public.power_ups set enabled = true where name = 'docs_link' $$, 'the owner enables the power-up again');

select * from finish();
rollback;
