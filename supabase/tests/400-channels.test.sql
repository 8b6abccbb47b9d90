-- channels, channel_credentials, api_keys, channel_deliveries:
-- the team's admins and owners manage a bot's channels and API keys; secrets and
-- key hashes never reach a client role; the receivers' bookkeeping is service-only.
begin;
select plan(73);
-- This file counts channels and keys: start from none, whatever a seed holds (rolled back at the end).
delete from public.api_keys;
delete from public.channels;
select tests.create_team_fixture();
update public.teams set plan_id = 'business' where slug in ('team-a', 'team-b'); -- plan limits are 510-billing's concern
-- Every bot comes with its web channel (401-web-channel.test.sql); this file counts the others.
delete from public.channels where type = 'web';

select tests.rls_enabled('public', 'channels');
select tests.rls_enabled('public', 'channel_credentials');
select tests.rls_enabled('public', 'api_keys');
select tests.rls_enabled('public', 'channel_deliveries');
select table_privs_are('public', 'channel_credentials', 'authenticated', array[]::text[], 'authenticated has no privileges on channel_credentials');
select table_privs_are('public', 'channel_credentials', 'anon', array[]::text[], 'anon has no privileges on channel_credentials');
select table_privs_are('public', 'channel_deliveries', 'authenticated', array[]::text[], 'authenticated has no privileges on channel_deliveries');
select ok(not has_column_privilege('authenticated', 'public.api_keys', 'key_hash', 'select'), 'no client may read an API key''s hash');

-- insert ----------------------------------------------------------------------
select tests.authenticate_as('owner');
insert into public.channels (bot_id, type, name) values (tests.bot_id('A private'), 'telegram', 'Owner Telegram');
select tests.authenticate_as('admin');
insert into public.channels (bot_id, type, name, settings, status, message_count)
values (tests.bot_id('A private'), 'slack', 'Admin Slack', '{"team_id":"T1"}', 'connected', 99);
select is((select created_by from public.channels where name = 'Admin Slack'), auth.uid(), 'created_by defaults to the signed-in user');
select is((select status || '/' || message_count from public.channels where name = 'Admin Slack'), 'not_connected/0',
  'a client cannot create a channel with a status or counters');
select throws_ok($$ insert into public.channels (bot_id, type, name) values (tests.bot_id('A private'), 'fax', 'x') $$,
  '22P02', null, 'the type is one of the six channel types');
select throws_ok($$ insert into public.channels (bot_id, type, name, created_by) values (tests.bot_id('A private'), 'api', 'x', tests.get_supabase_uid('owner')) $$,
  '42501', 'A channel is created by the signed-in user', 'a channel cannot be created in someone else''s name');
select tests.authenticate_as('other');
select throws_ok($$ insert into public.channels (bot_id, type, name) values (tests.bot_id('A private'), 'api', 'x') $$,
  '42501', 'new row violates row-level security policy for table "channels"', 'another team cannot add channels to the bot');
select tests.authenticate_as('stranger');
select throws_ok($$ insert into public.channels (bot_id, type, name) values (tests.bot_id('A gallery'), 'api', 'x') $$,
  '42501', 'new row violates row-level security policy for table "channels"', 'a visitor cannot add channels to a public bot');
select tests.authenticate_as('platform');
select throws_ok($$ insert into public.channels (bot_id, type, name) values (tests.bot_id('A private'), 'api', 'x') $$,
  '42501', 'new row violates row-level security policy for table "channels"', 'the platform admin cannot add channels');
select tests.clear_authentication();
select throws_ok($$ insert into public.channels (bot_id, type, name) values (tests.bot_id('A private'), 'api', 'x') $$,
  '42501', null, 'anon cannot add channels');
select tests.authenticate_as('other');
insert into public.channels (bot_id, type, name) values (tests.bot_id('B private'), 'discord', 'B Discord');

reset role;
create temporary table channel_ids on commit drop as select id, type from public.channels;
grant select on channel_ids to authenticated, anon, service_role;

-- select ----------------------------------------------------------------------
select tests.authenticate_as('owner');
select is(array(select name from public.channels order by 1), array['Admin Slack', 'Owner Telegram'], 'the owner reads the team''s channels');
select tests.authenticate_as('admin');
select is(array(select name from public.channels order by 1), array['Admin Slack', 'Owner Telegram'], 'the admin reads the team''s channels');
select tests.authenticate_as('other');
select is(array(select name from public.channels order by 1), array['B Discord'], 'another team reads only its own channels');
select tests.authenticate_as('stranger');
select is_empty($$ select * from public.channels $$, 'a visitor reads no channels');
select tests.clear_authentication();
select throws_ok($$ select * from public.channels $$, '42501', null, 'anon may not read channels');
select tests.authenticate_as('platform');
select is(array(select name from public.channels order by 1), array['Admin Slack', 'B Discord', 'Owner Telegram'], 'the platform admin reads every channel');

-- update ----------------------------------------------------------------------
select tests.authenticate_as('admin');
update public.channels set name = 'Support Slack', enabled = false, settings = '{"team_id":"T2"}' where name = 'Admin Slack';
select tests.authenticate_as_service_role();
select is((select name || '/' || enabled || '/' || (settings ->> 'team_id') from public.channels where type = 'slack'), 'Support Slack/false/T2',
  'the admin renames, disables and configures a channel');
select tests.authenticate_as('owner');
update public.channels set enabled = true where type = 'slack';
select tests.authenticate_as_service_role();
select is((select enabled from public.channels where type = 'slack'), true, 'the owner enables a channel');
select tests.authenticate_as('admin');
select throws_ok($$ update public.channels set status = 'connected' where type = 'slack' $$,
  '42501', 'The status of a channel is kept by Parley', 'a client cannot fake a channel''s status');
select throws_ok($$ update public.channels set message_count = 5 where type = 'slack' $$,
  '42501', 'The status of a channel is kept by Parley', 'nor its counters');
select throws_ok($$ update public.channels set type = 'discord' where type = 'slack' $$,
  '42501', 'The type of a channel cannot be changed', 'nor its type');
select throws_ok($$ update public.channels set bot_id = tests.bot_id('A gallery') where type = 'slack' $$,
  '42501', 'A channel cannot be moved to another bot', 'nor its bot');
select tests.authenticate_as('other');
update public.channels set name = 'hacked' where bot_id = tests.bot_id('A private');
select tests.authenticate_as('stranger');
update public.channels set name = 'hacked';
select tests.authenticate_as('platform');
update public.channels set name = 'hacked';
select tests.authenticate_as_service_role();
select is((select count(*)::int from public.channels where name = 'hacked'), 0,
  'another team, a visitor and the platform admin cannot update channels');
select tests.clear_authentication();
select throws_ok($$ update public.channels set name = 'hacked' $$, '42501', null, 'anon cannot update channels');
select tests.authenticate_as_service_role();
update public.channels set status = 'connected', message_count = 3, last_event_at = now() where type = 'slack';
select is((select status from public.channels where type = 'slack'), 'connected', 'the service role keeps a channel''s status');
select public.record_channel_event((select id from public.channels where type = 'slack'), 0, 'Slack refused chat.postMessage: invalid_auth');
select is((select status || '/' || last_error || '/' || message_count from public.channels where type = 'slack'),
  'needs_attention/Slack refused chat.postMessage: invalid_auth/3', 'record_channel_event: a failure needs attention');
select public.record_channel_event((select id from public.channels where type = 'slack'), 2);
select is((select status || '/' || coalesce(last_error, '-') || '/' || message_count from public.channels where type = 'slack'),
  'connected/-/5', 'record_channel_event: an answered delivery counts and clears the failure');
select tests.authenticate_as('owner');
select throws_ok($$ select public.record_channel_event((select id from public.channels where type = 'slack'), 100) $$,
  '42501', null, 'no client records channel events');
select tests.authenticate_as_service_role();

-- credentials -----------------------------------------------------------------
select tests.authenticate_as('admin');
select lives_ok($$ select public.set_channel_credentials((select id from public.channels where type = 'slack'),
  '{"bot_token":"xoxb-1","signing_secret":"s3cret"}') $$, 'the admin sets a channel''s secrets');
select tests.authenticate_as('owner');
select lives_ok($$ select public.set_channel_credentials((select id from public.channels where type = 'slack'), '{"signing_secret":null}') $$,
  'the owner removes one with null');
select is(array(select name || '=' || is_set from public.channel_credential_status((select id from public.channels where type = 'slack'))),
  array['bot_token=true', 'client_secret=false', 'signing_secret=false'], 'the status says which secrets are set, never their values');
reset role;
select ok(not (array['secrets', 'value'] && (select proargnames from pg_proc where oid = 'public.channel_credential_status(uuid)'::regprocedure)),
  'channel_credential_status has no value column');
select tests.authenticate_as('admin');
select throws_ok($$ select public.set_channel_credentials((select id from public.channels where type = 'slack'), '{"password":"x"}') $$,
  '22023', 'A slack channel has no secret named password', 'unknown secret names are refused');
select throws_ok($$ select public.set_channel_credentials((select id from public.channels where type = 'slack'), '{"bot_token":42}') $$,
  '22023', 'The secret bot_token is a text of at most 2000 characters', 'secrets are texts');
select throws_ok($$ select * from public.channel_credentials $$, '42501', null, 'the admin cannot read the secrets table');
select tests.authenticate_as('other');
select throws_ok($$ select public.set_channel_credentials(channel_ids.id, '{"bot_token":"x"}') from channel_ids where channel_ids.type = 'slack' $$,
  '42501', 'Only admins and owners of the bot''s team can set a channel''s credentials', 'another team cannot set the channel''s secrets');
select is_empty($$ select s.* from channel_ids, public.channel_credential_status(channel_ids.id) s where channel_ids.type = 'slack' $$,
  'another team sees no credential status of the channel');
select tests.authenticate_as('stranger');
select throws_ok($$ select public.set_channel_credentials(tests.bot_id('A private'), '{"bot_token":"x"}') $$,
  '42501', 'Only admins and owners of the bot''s team can set a channel''s credentials', 'a visitor cannot set secrets');
select is_empty($$ select * from public.channel_credential_status((select c.id from public.channels c limit 1)) $$, 'a visitor sees no credential status');
select tests.authenticate_as('platform');
select is((select count(*)::int from public.channel_credential_status((select id from public.channels where type = 'slack'))), 3,
  'the platform admin sees which secrets are set');
select throws_ok($$ select * from public.channel_credentials $$, '42501', null, 'the platform admin cannot read secrets');
select tests.clear_authentication();
select throws_ok($$ select public.channel_credential_status(gen_random_uuid()) $$, '42501', null, 'anon cannot call channel_credential_status');
select tests.authenticate_as_service_role();
select is((select secrets ->> 'bot_token' from public.channel_credentials), 'xoxb-1', 'the service role reads the secrets');

-- api keys --------------------------------------------------------------------
select tests.authenticate_as('admin');
create temporary table new_key on commit drop as select * from public.create_api_key(tests.bot_id('A private'), 'CI', 120);
grant select on new_key to authenticated, anon, service_role;
select ok((select key ~ '^pk_[A-Za-z0-9_-]{43}$' and prefix = left(key, 11) from new_key), 'create_api_key returns the key once, with its prefix');
select is((select name || '/' || rate_limit_per_minute || '/' || prefix from public.api_keys),
  (select 'CI/120/' || prefix from new_key), 'the admin lists the bot''s keys');
select throws_ok($$ select key_hash from public.api_keys $$, '42501', null, 'the admin cannot read the key hash');
select throws_ok($$ insert into public.api_keys (bot_id, name, prefix, key_hash) values (tests.bot_id('A private'), 'x', 'pk_aaaaaaaa', repeat('a', 64)) $$,
  '42501', null, 'keys are made by create_api_key only, never inserted with a chosen hash');
select tests.authenticate_as('owner');
select lives_ok($$ select * from public.create_api_key(tests.bot_id('A private'), 'Owner key') $$, 'the owner creates a key');
update public.api_keys set revoked_at = now() where name = 'CI';
select isnt((select revoked_at from public.api_keys where name = 'CI'), null, 'the owner revokes a key');
select throws_ok($$ update public.api_keys set revoked_at = null where name = 'CI' $$,
  '42501', 'A revoked API key stays revoked', 'a revoked key stays revoked');
select tests.authenticate_as('other');
select throws_ok($$ select * from public.create_api_key(tests.bot_id('A private'), 'x') $$,
  '42501', 'Only admins and owners of the bot''s team can create API keys', 'another team cannot create keys for the bot');
select is_empty($$ select id from public.api_keys $$, 'another team reads none of the bot''s keys');
update public.api_keys set name = 'hacked';
delete from public.api_keys;
select tests.authenticate_as('stranger');
select throws_ok($$ select * from public.create_api_key(tests.bot_id('A gallery'), 'x') $$,
  '42501', 'Only admins and owners of the bot''s team can create API keys', 'a visitor cannot create keys');
select is_empty($$ select id from public.api_keys $$, 'a visitor reads no keys');
update public.api_keys set name = 'hacked';
delete from public.api_keys;
select tests.authenticate_as('platform');
select is((select count(*)::int from (select id from public.api_keys) k), 2, 'the platform admin reads every key (without hashes)');
update public.api_keys set name = 'hacked';
delete from public.api_keys;
select tests.clear_authentication();
select throws_ok($$ select * from public.create_api_key(tests.bot_id('A private'), 'x') $$, '42501', null, 'anon cannot create keys');
select throws_ok($$ select id from public.api_keys $$, '42501', null, 'anon cannot read keys');
select tests.authenticate_as_service_role();
select is((select count(*)::int from public.api_keys where name <> 'hacked'), 2,
  'another team, a visitor and the platform admin neither rename nor delete keys');
select is((select count(*)::int from public.api_keys k join new_key n on n.id = k.id
           where k.key_hash = encode(extensions.digest(n.key, 'sha256'), 'hex')), 1, 'the stored hash is the sha256 of the key');
select tests.authenticate_as('admin');
delete from public.api_keys where name = 'Owner key';
select tests.authenticate_as_service_role();
select is(array(select name from public.api_keys), array['CI'], 'the admin deletes a key');

-- service-only bookkeeping ----------------------------------------------------
insert into public.channel_deliveries (channel_id, event_id) select id, 'Ev1' from public.channels where type = 'slack';
select throws_ok($$ insert into public.channel_deliveries (channel_id, event_id) select id, 'Ev1' from public.channels where type = 'slack' $$,
  '23505', null, 'a delivery is recorded once (duplicates are detected)');
select tests.authenticate_as('owner');
select throws_ok($$ select * from public.channel_deliveries $$, '42501', null, 'the owner cannot read deliveries');
select throws_ok($$ insert into public.channel_deliveries (channel_id, event_id) values (gen_random_uuid(), 'x') $$, '42501', null,
  'no client writes deliveries');

-- delete ----------------------------------------------------------------------
select tests.authenticate_as('other');
delete from public.channels where bot_id = tests.bot_id('A private');
select tests.authenticate_as('stranger');
delete from public.channels;
select tests.authenticate_as('platform');
delete from public.channels;
select tests.authenticate_as_service_role();
select is((select count(*)::int from public.channels), 3, 'another team, a visitor and the platform admin cannot delete channels');
select tests.clear_authentication();
select throws_ok($$ delete from public.channels $$, '42501', null, 'anon cannot delete channels');
select tests.authenticate_as('admin');
delete from public.channels where type = 'slack';
select tests.authenticate_as('owner');
delete from public.channels where type = 'telegram';
select tests.authenticate_as_service_role();
select is(array(select name from public.channels), array['B Discord'], 'the admin and the owner delete channels');
select is((select count(*)::int from public.channel_credentials) + (select count(*)::int from public.channel_deliveries), 0,
  'a deleted channel takes its secrets and deliveries with it');

select * from finish();
rollback;
