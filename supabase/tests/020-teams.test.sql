-- teams: members read their teams, owners update and delete shared teams,
-- any signed-in (non-anonymous) user creates teams they own; protected fields.
begin;
select plan(29);
select tests.create_team_fixture();

select tests.rls_enabled('public', 'teams');

-- select ----------------------------------------------------------------------
select tests.authenticate_as('owner');
select is(array(select slug from public.teams where not personal order by 1), array['team-a'], 'the owner reads their shared team');
select is((select count(*)::int from public.teams where personal), 1, 'the owner reads their personal team');
select tests.authenticate_as('admin');
select is(array(select slug from public.teams where not personal order by 1), array['team-a'], 'the admin reads the team');
select tests.authenticate_as('other');
select is(array(select slug from public.teams where not personal order by 1), array['team-b'],
  'a member of another team reads only their own team');
select tests.authenticate_as('stranger');
select is((select count(*)::int from public.teams), 1, 'a signed-in stranger reads only their personal team');
select tests.clear_authentication();
select is_empty($$ select * from public.teams $$, 'anon reads no teams');
select tests.authenticate_as('platform');
select is((select count(*)::int from public.teams where not personal), tests.count_all('public.teams', 'not personal'),
  'the platform admin reads every team');

-- insert ----------------------------------------------------------------------
select tests.authenticate_as('stranger');
insert into public.teams (id, name, slug) values ('00000000-0000-4000-8000-00000000aaaa', 'Stranger Co', 'stranger-co');
select is((select role::text from public.team_members where team_id = '00000000-0000-4000-8000-00000000aaaa' and user_id = auth.uid()), 'owner',
  'a signed-in user creates a team and becomes its owner');
select throws_ok($$ insert into public.teams (name, slug, created_by) values ('X', 'x-team', tests.get_supabase_uid('owner')) $$,
  '42501', 'new row violates row-level security policy for table "teams"', 'nobody creates a team in someone else''s name');
select throws_ok($$ insert into public.teams (name, slug, personal) values ('X', 'x-team', true) $$,
  '42501', 'new row violates row-level security policy for table "teams"', 'clients cannot create personal teams');
select throws_ok($$ insert into public.teams (name, slug) values ('X', 'team-a') $$,
  '23505', null, 'slugs are unique');
select throws_ok($$ insert into public.teams (name, slug) values ('X', 'Not A Slug!') $$,
  '23514', null, 'slugs are lowercase letters, digits and dashes');
select tests.clear_authentication();
select throws_ok($$ insert into public.teams (name, slug) values ('X', 'anon-team') $$,
  '42501', 'new row violates row-level security policy for table "teams"', 'anon cannot create teams');
reset role;
select tests.create_anonymous_user('guest');
select tests.authenticate_as('guest');
select throws_ok($$ insert into public.teams (name, slug) values ('X', 'guest-team') $$,
  '42501', 'new row violates row-level security policy for table "teams"', 'anonymous (guest) users cannot create teams');

-- update ----------------------------------------------------------------------
select tests.authenticate_as('admin');
update public.teams set name = 'by admin' where slug = 'team-a';
select tests.authenticate_as('other');
update public.teams set name = 'by other' where slug = 'team-a';
select tests.authenticate_as('stranger');
update public.teams set name = 'by stranger' where slug = 'team-a';
select tests.authenticate_as('platform');
update public.teams set name = 'by platform' where slug = 'team-a';
select tests.clear_authentication();
update public.teams set name = 'by anon' where slug = 'team-a';
select tests.authenticate_as_service_role();
select is((select name from public.teams where slug = 'team-a'), 'Team A',
  'admins, other teams, strangers, the platform admin and anon cannot update a team');

select tests.authenticate_as('owner');
update public.teams set name = 'Team A Renamed', billing_email = 'billing@example.com' where slug = 'team-a';
select is((select name || ' ' || billing_email from public.teams where slug = 'team-a'), 'Team A Renamed billing@example.com',
  'the owner renames the team and sets billing fields');
select throws_ok($$ update public.teams set personal = true where slug = 'team-a' $$,
  '42501', 'Whether a team is personal cannot be changed', 'teams.personal is protected');
select throws_ok($$ update public.teams set created_by = tests.get_supabase_uid('admin') where slug = 'team-a' $$,
  '42501', 'The creator of a team cannot be changed', 'teams.created_by is protected');
select throws_ok($$ update public.teams set id = gen_random_uuid() where slug = 'team-a' $$,
  '42501', 'The id of a team cannot be changed', 'teams.id is protected');

-- delete ----------------------------------------------------------------------
select tests.authenticate_as('admin');
delete from public.teams where slug = 'team-a';
select tests.authenticate_as_service_role();
select isnt_empty($$ select 1 from public.teams where slug = 'team-a' $$, 'the admin cannot delete the team');
select tests.authenticate_as('other');
delete from public.teams where slug = 'team-a';
select tests.authenticate_as('stranger');
delete from public.teams where slug = 'team-a';
select tests.authenticate_as('platform');
delete from public.teams where slug = 'team-a';
select tests.clear_authentication();
delete from public.teams where slug = 'team-a';
select tests.authenticate_as_service_role();
select isnt_empty($$ select 1 from public.teams where slug = 'team-a' $$,
  'other teams, strangers, the platform admin and anon cannot delete the team');

select tests.authenticate_as('owner');
delete from public.teams where personal;
select tests.authenticate_as_service_role();
select is((select count(*)::int from public.teams where personal and created_by = tests.get_supabase_uid('owner')), 1,
  'the owner cannot delete their personal team');

select tests.authenticate_as('owner');
delete from public.teams where slug = 'team-a';
select tests.authenticate_as_service_role();
select is_empty($$ select 1 from public.teams where slug = 'team-a' $$, 'the owner deletes the team');
select is_empty($$ select 1 from public.team_members where team_id not in (select id from public.teams) $$,
  'its memberships go with it (the last-owner rule does not block deleting a team)');
select is((select count(*)::int from public.bots where name like 'A %'), 0, 'its bots go with it');

-- deleting users ----------------------------------------------------------------
reset role;
delete from auth.users where id = tests.get_supabase_uid('admin');
select is_empty($$ select 1 from public.teams where personal and slug like 'admin-%' $$,
  'deleting a user who owns only their personal team works, and the personal team goes with them');
select throws_ok($$ delete from auth.users where id = tests.get_supabase_uid('stranger') $$,
  'P0001', 'A team must keep at least one owner: make another member owner first, or delete the team',
  'a user who is the last owner of a shared team cannot be deleted before handing it over');
delete from public.teams where slug = 'stranger-co';
select lives_ok($$ delete from auth.users where id = tests.get_supabase_uid('stranger') $$,
  'once the shared team is gone the user can be deleted (their personal team goes with them)');

select * from finish();
rollback;
