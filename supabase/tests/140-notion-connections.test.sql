-- notion_connections hold Notion access tokens between the OAuth callback and the
-- data source: only the service role (the edge functions) may touch them.
begin;
select plan(9);
select tests.create_team_fixture();

select tests.rls_enabled('public', 'notion_connections');
select table_privs_are('public', 'notion_connections', 'anon', array[]::text[], 'anon has no privileges');
select table_privs_are('public', 'notion_connections', 'authenticated', array[]::text[], 'authenticated has no privileges');

select tests.authenticate_as_service_role();
insert into public.notion_connections (user_id, state_hash, redirect_uri, return_path, access_token)
values (tests.get_supabase_uid('owner'), repeat('a', 64), 'http://127.0.0.1/app/auth/providers/notion/callback', '/app/bots', 'secret_token');
select is((select count(*)::int from public.notion_connections), 1, 'the service role writes a connection');
select throws_ok($$ insert into public.notion_connections (user_id, state_hash, redirect_uri, return_path)
  values (tests.get_supabase_uid('owner'), repeat('b', 64), 'x', 'https://evil.test/') $$,
  '23514', null, 'a return path must be a path');
select ok((select expires_at > now() and expires_at <= now() + interval '15 minutes' from public.notion_connections), 'a pending connection expires within 15 minutes');

select tests.authenticate_as('owner');
select throws_ok($$ select * from public.notion_connections $$, '42501', null, 'the owner cannot read tokens, not even their own');
select throws_ok($$ insert into public.notion_connections (user_id, state_hash, redirect_uri, return_path)
  values (auth.uid(), repeat('c', 64), 'x', '/app') $$, '42501', null, 'nor write a connection');

select tests.clear_authentication();
select throws_ok($$ delete from public.notion_connections $$, '42501', null, 'anon cannot delete connections');

select * from finish();
rollback;
