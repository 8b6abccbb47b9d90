-- platform_admins: written only by the service role; is_platform_admin() for the
-- admin guard; platform admins read everything (see the other files) but write nothing here.
begin;
select plan(24);
select tests.create_team_fixture();

select tests.rls_enabled('public', 'platform_admins');

-- is_platform_admin -------------------------------------------------------------
select tests.authenticate_as('platform');
select ok(public.is_platform_admin(), 'is_platform_admin() is true for a platform admin');
select ok((select private.is_platform_admin()), 'private.is_platform_admin() agrees');
select tests.authenticate_as('owner');
select ok(not public.is_platform_admin(), 'is_platform_admin() is false for a team owner');
select tests.clear_authentication();
select ok(not public.is_platform_admin(), 'is_platform_admin() is false for anon');
select throws_ok($$ select private.is_platform_admin() $$, '42501', 'permission denied for schema private',
  'anon cannot reach the private schema');
select tests.authenticate_as_service_role();
select ok(not public.is_platform_admin(), 'is_platform_admin() is false for the service role (no user)');

-- select ----------------------------------------------------------------------
select tests.authenticate_as('platform');
select is((select count(*)::int from public.platform_admins), tests.count_all('public.platform_admins'),
  'the platform admin reads the list of platform admins');
select tests.authenticate_as('owner');
select is_empty($$ select * from public.platform_admins $$, 'a team owner reads no platform admins');
select tests.authenticate_as('admin');
select is_empty($$ select * from public.platform_admins $$, 'a team admin reads no platform admins');
select tests.authenticate_as('other');
select is_empty($$ select * from public.platform_admins $$, 'a member of another team reads no platform admins');
select tests.authenticate_as('stranger');
select is_empty($$ select * from public.platform_admins $$, 'a stranger reads no platform admins');
select tests.clear_authentication();
select is_empty($$ select * from public.platform_admins $$, 'anon reads no platform admins');

-- insert / update / delete --------------------------------------------------------
select tests.authenticate_as('stranger');
select throws_ok($$ insert into public.platform_admins (user_id) values (auth.uid()) $$,
  '42501', 'permission denied for table platform_admins', 'a signed-in user cannot make themselves platform admin');
select tests.authenticate_as('owner');
select throws_ok($$ insert into public.platform_admins (user_id) values (auth.uid()) $$,
  '42501', 'permission denied for table platform_admins', 'a team owner cannot make themselves platform admin');
select tests.authenticate_as('platform');
select throws_ok($$ insert into public.platform_admins (user_id) values (tests.get_supabase_uid('stranger')) $$,
  '42501', 'permission denied for table platform_admins', 'a platform admin cannot add platform admins (service role only)');
select throws_ok($$ update public.platform_admins set user_id = tests.get_supabase_uid('stranger') $$,
  '42501', 'permission denied for table platform_admins', 'a platform admin cannot update the list');
select throws_ok($$ delete from public.platform_admins $$,
  '42501', 'permission denied for table platform_admins', 'a platform admin cannot delete from the list');
select tests.clear_authentication();
select throws_ok($$ insert into public.platform_admins (user_id) values (tests.get_supabase_uid('stranger')) $$,
  '42501', 'permission denied for table platform_admins', 'anon cannot add platform admins');
select throws_ok($$ delete from public.platform_admins $$,
  '42501', 'permission denied for table platform_admins', 'anon cannot delete platform admins');
select tests.authenticate_as_service_role();
select lives_ok($$ insert into public.platform_admins (user_id) values (tests.get_supabase_uid('stranger')) $$,
  'the service role adds a platform admin');
select tests.authenticate_as('stranger');
select ok(public.is_platform_admin(), 'who then is a platform admin');
select tests.authenticate_as_service_role();
select lives_ok($$ delete from public.platform_admins where user_id = tests.get_supabase_uid('stranger') $$,
  'the service role removes a platform admin');

reset role;
select is(array(select r || ':' || p from unnest(array['anon', 'authenticated']) r,
    unnest(array['select', 'insert', 'update', 'delete', 'truncate']) p
  where has_table_privilege(r, 'public.platform_admins', p) order by 1),
  array['anon:select', 'authenticated:select'], 'client roles may only select platform_admins (and RLS decides which rows)');

select * from finish();
rollback;
