-- team_members: members read their team's members; owners change roles and remove
-- members; anyone may leave; nobody inserts directly; the last owner stays.
begin;
select plan(27);
select tests.create_team_fixture();

select tests.rls_enabled('public', 'team_members');

-- select ----------------------------------------------------------------------
select tests.authenticate_as('owner');
select is(array(select p.display_name || ':' || m.role from public.team_members m join public.profiles p on p.id = m.user_id
                where m.team_id = tests.team_id('team-a') order by 1),
  array['admin:admin', 'owner:owner'], 'the owner reads the team''s members and roles');
select is((select count(*)::int from public.team_members), 3, 'the owner reads memberships of their teams only (team-a x2 + personal)');
select tests.authenticate_as('admin');
select is(array(select m.role::text from public.team_members m where m.team_id = tests.team_id('team-a') order by 1),
  array['admin', 'owner'], 'the admin reads the team''s members');
select tests.authenticate_as('other');
select is_empty($$ select 1 from public.team_members where team_id = tests.team_id('team-a') $$,
  'a member of another team cannot read the team''s members');
select tests.authenticate_as('stranger');
select is((select count(*)::int from public.team_members), 1, 'a signed-in stranger reads only their own personal membership');
select tests.clear_authentication();
select is_empty($$ select * from public.team_members $$, 'anon reads no memberships');
select tests.authenticate_as('platform');
select is((select count(*)::int from public.team_members where team_id in (tests.team_id('team-a'), tests.team_id('team-b'))), 3,
  'the platform admin reads every membership');

-- get_team_members (names and emails for the members screen) --------------------
select tests.authenticate_as('admin');
select is(array(select display_name || ':' || role || ':' || email || ':' || is_current_user from public.get_team_members(tests.team_id('team-a'))),
  array['owner:owner:owner@test.parley.local:false', 'admin:admin:admin@test.parley.local:true'],
  'get_team_members lists members with names, roles and emails, owners first');
select tests.authenticate_as('other');
select is_empty($$ select * from public.get_team_members(tests.team_id('team-a')) $$, 'get_team_members shows nothing to another team');
select tests.authenticate_as('platform');
select is((select count(*)::int from public.get_team_members(tests.team_id('team-a'))), 2, 'the platform admin may list any team''s members');
select tests.clear_authentication();
select throws_ok($$ select * from public.get_team_members(tests.team_id('team-a')) $$,
  '42501', 'permission denied for function get_team_members', 'anon cannot call get_team_members');

-- insert ----------------------------------------------------------------------
select tests.authenticate_as('owner');
select throws_ok($$ insert into public.team_members (team_id, user_id, role) values (tests.team_id('team-a'), tests.get_supabase_uid('stranger'), 'admin') $$,
  '42501', 'permission denied for table team_members', 'even the owner cannot add members directly (invitations do)');
select tests.authenticate_as('stranger');
select throws_ok($$ insert into public.team_members (team_id, user_id, role) values (tests.team_id('team-a'), auth.uid(), 'owner') $$,
  '42501', 'permission denied for table team_members', 'a stranger cannot join a team by inserting');
select tests.clear_authentication();
select throws_ok($$ insert into public.team_members (team_id, user_id, role) values (tests.team_id('team-a'), tests.get_supabase_uid('stranger'), 'owner') $$,
  '42501', 'permission denied for table team_members', 'anon cannot add members');

-- update ----------------------------------------------------------------------
select tests.authenticate_as('admin');
update public.team_members set role = 'owner' where user_id = auth.uid();
select tests.authenticate_as('other');
update public.team_members set role = 'owner' where team_id = tests.team_id('team-a');
select tests.authenticate_as('stranger');
update public.team_members set role = 'admin' where team_id = tests.team_id('team-a');
select tests.authenticate_as('platform');
update public.team_members set role = 'admin' where team_id = tests.team_id('team-a');
select tests.clear_authentication();
update public.team_members set role = 'admin';
select tests.authenticate_as_service_role();
select is(array(select m.role::text from public.team_members m where m.team_id = tests.team_id('team-a') order by 1),
  array['admin', 'owner'], 'the admin, other teams, strangers, the platform admin and anon cannot change roles');

select tests.authenticate_as('owner');
select throws_ok($$ update public.team_members set role = 'admin' where user_id = auth.uid() and team_id = tests.team_id('team-a') $$,
  'P0001', 'A team must keep at least one owner: make another member owner first, or delete the team',
  'the last owner cannot be demoted');
update public.team_members set role = 'owner' where user_id = tests.get_supabase_uid('admin');
select is((select role::text from public.team_members where user_id = tests.get_supabase_uid('admin') and team_id = tests.team_id('team-a')), 'owner',
  'the owner promotes the admin to owner');
update public.team_members set role = 'admin' where user_id = auth.uid() and team_id = tests.team_id('team-a');
select is((select role::text from public.team_members where user_id = auth.uid() and team_id = tests.team_id('team-a')), 'admin',
  'with a second owner, an owner can step down');
select tests.authenticate_as('admin');
update public.team_members set role = 'owner' where user_id = tests.get_supabase_uid('owner') and team_id = tests.team_id('team-a');
select throws_ok($$ update public.team_members set user_id = tests.get_supabase_uid('stranger') where user_id = tests.get_supabase_uid('owner') and team_id = tests.team_id('team-a') $$,
  '42501', 'A membership cannot be given to another user', 'team_members.user_id is protected');
select throws_ok($$ update public.team_members set team_id = tests.team_id('team-b') where user_id = tests.get_supabase_uid('owner') and team_id = tests.team_id('team-a') $$,
  '42501', 'A membership cannot be moved to another team', 'team_members.team_id is protected');

-- delete ----------------------------------------------------------------------
-- (now: 'owner' and 'admin' are both owners of team-a)
reset role;
update public.team_members set role = 'admin' where user_id = tests.get_supabase_uid('admin') and team_id = tests.team_id('team-a');
select tests.authenticate_as('admin');
delete from public.team_members where user_id = tests.get_supabase_uid('owner');
select tests.authenticate_as('other');
delete from public.team_members where team_id = tests.team_id('team-a');
select tests.authenticate_as('stranger');
delete from public.team_members where team_id = tests.team_id('team-a');
select tests.authenticate_as('platform');
delete from public.team_members where team_id = tests.team_id('team-a');
select tests.clear_authentication();
delete from public.team_members;
select tests.authenticate_as_service_role();
select is((select count(*)::int from public.team_members where team_id = tests.team_id('team-a')), 2,
  'the admin, other teams, strangers, the platform admin and anon cannot remove members');

select tests.authenticate_as('owner');
select throws_ok($$ delete from public.team_members where user_id = auth.uid() and team_id = tests.team_id('team-a') $$,
  'P0001', 'A team must keep at least one owner: make another member owner first, or delete the team',
  'the last owner cannot leave');
select throws_ok($$ delete from public.team_members where user_id = auth.uid() and team_id in (select id from public.teams where personal) $$,
  'P0001', 'A team must keep at least one owner: make another member owner first, or delete the team',
  'nobody leaves their personal team');
select tests.authenticate_as('admin');
delete from public.team_members where user_id = auth.uid() and team_id = tests.team_id('team-a');
select tests.authenticate_as_service_role();
select is((select count(*)::int from public.team_members where team_id = tests.team_id('team-a')), 1, 'an admin can leave the team');

reset role;
insert into public.team_members (team_id, user_id, role) values (tests.team_id('team-a'), tests.get_supabase_uid('admin'), 'admin');
select tests.authenticate_as('owner');
delete from public.team_members where user_id = tests.get_supabase_uid('admin') and team_id = tests.team_id('team-a');
select tests.authenticate_as_service_role();
select is_empty($$ select 1 from public.team_members where team_id = tests.team_id('team-a') and user_id = tests.get_supabase_uid('admin') $$,
  'the owner removes a member');
select tests.authenticate_as('admin');
select is_empty($$ select name from public.bots where team_id = tests.team_id('team-a') $$,
  'a removed member no longer sees the team''s bots');

select * from finish();
rollback;
