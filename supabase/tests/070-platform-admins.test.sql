-- platform_admins: written only by the service role; is_platform_admin() for the
-- admin guard; platform admins read everything (see the other files) but write nothing here.
begin;
select plan(39);
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

-- aal2: a listed administrator acts only from a session that passed a second factor ----------
select tests.authenticate_as_at('platform', 'aal1');
select ok(not public.is_platform_admin(), 'a platform admin at aal1 is not a platform admin (is_platform_admin)');
select ok(not (select private.is_platform_admin()), 'nor for the policies (private.is_platform_admin)');
select is(public.admin_access(), 'aal2_required', 'admin_access() says a second factor is missing');
select throws_ok($$ select private.require_platform_admin() $$, '42501', 'Only platform administrators may do this',
  'require_platform_admin (every admin_* function) refuses a platform admin at aal1');
select throws_ok($$ select public.admin_dashboard_totals(7) $$, '42501', null,
  'an admin_* function refuses a platform admin at aal1');
select is_empty($$ select * from public.platform_admins where user_id <> auth.uid() $$,
  'at aal1 a platform admin reads no other platform admins');
select is_empty($$ select * from public.bots where team_id = tests.team_id('team-b') $$,
  'at aal1 a platform admin reads no other team''s bots');
select tests.authenticate_as_at('platform', 'aal2');
select is(public.admin_access(), 'granted', 'admin_access() is granted at aal2');
select lives_ok($$ select private.require_platform_admin() $$, 'require_platform_admin lets a platform admin at aal2 through');
select lives_ok($$ select public.admin_dashboard_totals(7) $$, 'an admin_* function answers at aal2');
select isnt_empty($$ select * from public.bots where team_id = tests.team_id('team-b') $$,
  'at aal2 a platform admin reads every team''s bots');
select tests.authenticate_as('owner');
select is(public.admin_access(), 'none', 'admin_access() is none for anyone not listed');
select tests.clear_authentication();
select is(public.admin_access(), 'none', 'and for anon');

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
select ok(not public.is_platform_admin(), 'who, without a second factor yet (aal1), is not treated as one');
select is(public.admin_access(), 'aal2_required', 'admin_access() says why');
select tests.authenticate_as_at('stranger', 'aal2');
select ok(public.is_platform_admin(), 'but is a platform admin once the session passed a second factor (aal2)');
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
