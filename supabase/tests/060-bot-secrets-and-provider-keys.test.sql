-- Secrets: bot_secrets (chat password hash) and team_provider_keys are closed to
-- every client role; set_bot_password / set_team_provider_key write them with
-- their own checks; only the service role reads them.
begin;
select plan(51);
select tests.create_team_fixture();

select tests.rls_enabled('public', 'bot_secrets');
select tests.rls_enabled('public', 'team_provider_keys');
select is((select count(*)::int from pg_policies where schemaname = 'public' and tablename in ('bot_secrets', 'team_provider_keys')), 0,
  'the secret tables have no policies for client roles');

select is_empty($$
  select r, t, p from unnest(array['anon', 'authenticated']) r,
    unnest(array['public.bot_secrets', 'public.team_provider_keys']) t,
    unnest(array['select', 'insert', 'update', 'delete', 'truncate', 'references', 'trigger']) p
  where has_table_privilege(r, t, p) $$,
  'anon and authenticated hold no privilege at all on the secret tables');

-- set_bot_password ------------------------------------------------------------
select tests.authenticate_as('admin');
select lives_ok($$ select public.set_bot_password(tests.bot_id('A private'), 'open-sesame') $$, 'the admin sets a chat password');
select is((select visibility::text from public.bots where id = tests.bot_id('A private')), 'password', 'the bot becomes password-protected');
select tests.authenticate_as('owner');
select lives_ok($$ select public.set_bot_password(tests.bot_id('A gallery'), 'gallery-pw') $$, 'the owner sets a chat password');
select throws_ok($$ select public.set_bot_password(tests.bot_id('A gallery'), 'abc') $$,
  '22023', 'A chat password has 4 to 128 characters', 'too short passwords are refused');
select tests.authenticate_as('other');
select throws_ok($$ select public.set_bot_password(tests.bot_id('A private'), 'mine now') $$,
  '42501', 'Only admins and owners of the bot''s team can set its password', 'a member of another team cannot set the password');
select tests.authenticate_as('stranger');
select throws_ok($$ select public.set_bot_password(tests.bot_id('A gallery'), 'mine now') $$,
  '42501', 'Only admins and owners of the bot''s team can set its password', 'a stranger cannot set the password of a bot they can see');
select tests.authenticate_as('platform');
select throws_ok($$ select public.set_bot_password(tests.bot_id('A private'), 'mine now') $$,
  '42501', 'Only admins and owners of the bot''s team can set its password', 'the platform admin cannot set the password');
select tests.clear_authentication();
select throws_ok($$ select public.set_bot_password(tests.bot_id('A private'), 'mine now') $$,
  '42501', 'permission denied for function set_bot_password', 'anon cannot call set_bot_password');

select tests.authenticate_as_service_role();
select matches((select password_hash from public.bot_secrets where bot_id = tests.bot_id('A private')), '^\$2[abxy]\$',
  'the password is stored as a bcrypt hash');
select ok(public.check_bot_password(tests.bot_id('A private'), 'open-sesame'), 'check_bot_password accepts the right password');
select ok(not public.check_bot_password(tests.bot_id('A private'), 'open sesame'), 'check_bot_password refuses a wrong password');
select ok(not public.check_bot_password(tests.bot_id('B private'), 'open-sesame'), 'check_bot_password refuses a bot without a password');
select tests.authenticate_as('owner');
select throws_ok($$ select public.check_bot_password(tests.bot_id('A private'), 'open-sesame') $$,
  '42501', 'permission denied for function check_bot_password', 'clients cannot probe passwords with check_bot_password');
select is((select name from public.get_public_bot(tests.bot_id('A private'))), 'A private', 'a password bot is reachable through get_public_bot');

-- bot_secrets: every client role refused ----------------------------------------
select throws_ok($$ select * from public.bot_secrets $$, '42501', 'permission denied for table bot_secrets', 'the owner cannot read bot_secrets');
select throws_ok($$ insert into public.bot_secrets (bot_id, password_hash) values (tests.bot_id('B private'), 'x') $$,
  '42501', 'permission denied for table bot_secrets', 'the owner cannot insert bot_secrets');
select throws_ok($$ update public.bot_secrets set password_hash = 'x' $$,
  '42501', 'permission denied for table bot_secrets', 'the owner cannot update bot_secrets');
select throws_ok($$ delete from public.bot_secrets $$, '42501', 'permission denied for table bot_secrets', 'the owner cannot delete bot_secrets');
select tests.authenticate_as('admin');
select throws_ok($$ select * from public.bot_secrets $$, '42501', 'permission denied for table bot_secrets', 'the admin cannot read bot_secrets');
select tests.authenticate_as('other');
select throws_ok($$ select * from public.bot_secrets $$, '42501', 'permission denied for table bot_secrets', 'a member of another team cannot read bot_secrets');
select tests.authenticate_as('stranger');
select throws_ok($$ select * from public.bot_secrets $$, '42501', 'permission denied for table bot_secrets', 'a stranger cannot read bot_secrets');
select tests.authenticate_as('platform');
select throws_ok($$ select * from public.bot_secrets $$, '42501', 'permission denied for table bot_secrets', 'the platform admin cannot read bot_secrets');
select tests.clear_authentication();
select throws_ok($$ select * from public.bot_secrets $$, '42501', 'permission denied for table bot_secrets', 'anon cannot read bot_secrets');
select throws_ok($$ insert into public.bot_secrets (bot_id, password_hash) values (tests.bot_id('B private'), 'x') $$,
  '42501', 'permission denied for table bot_secrets', 'anon cannot insert bot_secrets');

-- removing the password ---------------------------------------------------------
select tests.authenticate_as('admin');
select lives_ok($$ select public.set_bot_password(tests.bot_id('A private'), null) $$, 'the admin removes the chat password');
select is((select visibility::text from public.bots where id = tests.bot_id('A private')), 'private', 'a bot whose password is removed becomes private');
select tests.authenticate_as_service_role();
select is_empty($$ select 1 from public.bot_secrets where bot_id = tests.bot_id('A private') $$, 'the hash is gone');

-- team_provider_keys ------------------------------------------------------------
select tests.authenticate_as('admin');
select lives_ok($$ select public.set_team_provider_key(tests.team_id('team-a'), 'openai', 'sk-test-1234567890abcd') $$,
  'the admin stores an API key');
select tests.authenticate_as('owner');
select lives_ok($$ select public.set_team_provider_key(tests.team_id('team-a'), 'openai_compatible', null, 'http://127.0.0.1:11434/v1') $$,
  'the owner stores a base URL');
select is(array(select provider || ':' || has_api_key || ':' || coalesce(api_key_last4, '-') || ':' || coalesce(base_url, '-')
                from public.list_team_provider_keys(tests.team_id('team-a'))),
  array['openai:true:abcd:-', 'openai_compatible:false:-:http://127.0.0.1:11434/v1'],
  'list_team_provider_keys tells which providers are configured, never the key');
select throws_ok($$ select * from public.team_provider_keys $$, '42501', 'permission denied for table team_provider_keys', 'the owner cannot read keys');
select throws_ok($$ insert into public.team_provider_keys (team_id, provider, api_key) values (tests.team_id('team-a'), 'groq', 'x') $$,
  '42501', 'permission denied for table team_provider_keys', 'the owner cannot insert keys directly');
select throws_ok($$ update public.team_provider_keys set api_key = 'x' $$,
  '42501', 'permission denied for table team_provider_keys', 'the owner cannot update keys directly');
select throws_ok($$ delete from public.team_provider_keys $$,
  '42501', 'permission denied for table team_provider_keys', 'the owner cannot delete keys directly');
select tests.authenticate_as('admin');
select throws_ok($$ select * from public.team_provider_keys $$, '42501', 'permission denied for table team_provider_keys', 'the admin cannot read keys');
select tests.authenticate_as('platform');
select throws_ok($$ select * from public.team_provider_keys $$, '42501', 'permission denied for table team_provider_keys', 'the platform admin cannot read keys');
select is((select count(*)::int from public.list_team_provider_keys(tests.team_id('team-a'))), 2, 'the platform admin sees which providers are configured');
select throws_ok($$ select public.set_team_provider_key(tests.team_id('team-a'), 'groq', 'gsk_x') $$,
  '42501', 'Only admins and owners of the team can set provider keys', 'the platform admin cannot set keys');
select tests.authenticate_as('other');
select is_empty($$ select * from public.list_team_provider_keys(tests.team_id('team-a')) $$, 'a member of another team sees no providers');
select throws_ok($$ select public.set_team_provider_key(tests.team_id('team-a'), 'groq', 'gsk_x') $$,
  '42501', 'Only admins and owners of the team can set provider keys', 'a member of another team cannot set keys');
select throws_ok($$ select public.remove_team_provider_key(tests.team_id('team-a'), 'openai') $$,
  '42501', 'Only admins and owners of the team can remove provider keys', 'a member of another team cannot remove keys');
select tests.authenticate_as('stranger');
select throws_ok($$ select * from public.team_provider_keys $$, '42501', 'permission denied for table team_provider_keys', 'a stranger cannot read keys');
select tests.clear_authentication();
select throws_ok($$ select * from public.team_provider_keys $$, '42501', 'permission denied for table team_provider_keys', 'anon cannot read keys');
select throws_ok($$ select * from public.list_team_provider_keys(tests.team_id('team-a')) $$,
  '42501', 'permission denied for function list_team_provider_keys', 'anon cannot list providers');
select tests.authenticate_as_service_role();
select is((select api_key from public.team_provider_keys where provider = 'openai'), 'sk-test-1234567890abcd', 'the service role reads the key');
select tests.authenticate_as('admin');
select lives_ok($$ select public.remove_team_provider_key(tests.team_id('team-a'), 'openai') $$, 'the admin removes a key');
select is(array(select provider from public.list_team_provider_keys(tests.team_id('team-a'))), array['openai_compatible'], 'the key is gone');

select * from finish();
rollback;
