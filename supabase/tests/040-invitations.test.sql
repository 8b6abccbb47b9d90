-- team_invitations: owners invite (token returned once, stored hashed), read and
-- revoke; the invited user accepts with the token and the right email.
begin;
select plan(41);
select tests.create_team_fixture();
update public.teams set plan_id = 'business' where slug in ('team-a', 'team-b'); -- plan limits are 510-billing's concern
select tests.create_supabase_user('invitee', 'invitee@example.com');

select tests.rls_enabled('public', 'team_invitations');

-- invite ----------------------------------------------------------------------
select tests.authenticate_as('owner');
create temporary table tokens (name text primary key, token text) on commit drop;
grant all on tokens to authenticated, anon, service_role;
insert into tokens values ('invitee', public.invite_team_member(tests.team_id('team-a'), ' Invitee@Example.com ', 'admin'));
select matches((select token from tokens where name = 'invitee'), '^[0-9a-f]{64}$', 'invite_team_member returns a 64-character token');
select is((select email || ':' || role || ':' || (invited_by = auth.uid()) from public.team_invitations), 'invitee@example.com:admin:true',
  'the invitation stores the lower-cased email, the role and the inviter');
select is((select token_hash from public.team_invitations),
  encode(extensions.digest((select token from tokens where name = 'invitee'), 'sha256'), 'hex'), 'only the sha256 of the token is stored');
select cmp_ok((select expires_at from public.team_invitations), '>', now() + interval '6 days', 'invitations expire after 7 days');

-- select ----------------------------------------------------------------------
select is((select count(*)::int from public.team_invitations), 1, 'the owner reads the team''s invitations');
select tests.authenticate_as('admin');
select is_empty($$ select * from public.team_invitations $$, 'the admin cannot read invitations');
select tests.authenticate_as('other');
select is_empty($$ select * from public.team_invitations $$, 'a member of another team cannot read invitations');
select tests.authenticate_as('invitee');
select is_empty($$ select * from public.team_invitations $$, 'the invitee cannot list invitations (they use the token)');
select tests.clear_authentication();
select is_empty($$ select * from public.team_invitations $$, 'anon reads no invitations');
select tests.authenticate_as('platform');
select is((select count(*)::int from public.team_invitations), 1, 'the platform admin reads every invitation');

-- insert ----------------------------------------------------------------------
select tests.authenticate_as('owner');
select lives_ok($$ insert into public.team_invitations (team_id, email, role, token_hash) values (tests.team_id('team-a'), 'direct@example.com', 'admin', repeat('a', 64)) $$,
  'the owner may insert an invitation directly');
select throws_ok($$ insert into public.team_invitations (team_id, email, role, token_hash, invited_by) values (tests.team_id('team-a'), 'x@example.com', 'admin', repeat('b', 64), tests.get_supabase_uid('admin')) $$,
  '42501', 'new row violates row-level security policy for table "team_invitations"', 'an invitation is made in the inviter''s own name');
select tests.authenticate_as('admin');
select throws_ok($$ insert into public.team_invitations (team_id, email, role, token_hash) values (tests.team_id('team-a'), 'x@example.com', 'owner', repeat('c', 64)) $$,
  '42501', 'new row violates row-level security policy for table "team_invitations"', 'the admin cannot create invitations');
select tests.authenticate_as('stranger');
select throws_ok($$ insert into public.team_invitations (team_id, email, role, token_hash) values (tests.team_id('team-a'), 'stranger@test.parley.local', 'owner', repeat('d', 64)) $$,
  '42501', 'new row violates row-level security policy for table "team_invitations"', 'a stranger cannot invite themselves');
select tests.authenticate_as('platform');
select throws_ok($$ insert into public.team_invitations (team_id, email, role, token_hash) values (tests.team_id('team-a'), 'x@example.com', 'owner', repeat('e', 64)) $$,
  '42501', 'new row violates row-level security policy for table "team_invitations"', 'the platform admin cannot create invitations');
select tests.clear_authentication();
select throws_ok($$ insert into public.team_invitations (team_id, email, role, token_hash) values (tests.team_id('team-a'), 'x@example.com', 'owner', repeat('f', 64)) $$,
  '42501', 'new row violates row-level security policy for table "team_invitations"', 'anon cannot create invitations');

-- update ----------------------------------------------------------------------
select tests.authenticate_as('owner');
select throws_ok($$ update public.team_invitations set role = 'owner' $$,
  '42501', 'permission denied for table team_invitations', 'nobody updates invitations, not even the owner');
select tests.authenticate_as('invitee');
select throws_ok($$ update public.team_invitations set accepted_at = now() $$,
  '42501', 'permission denied for table team_invitations', 'the invitee cannot mark an invitation accepted');
select tests.clear_authentication();
select throws_ok($$ update public.team_invitations set role = 'owner' $$,
  '42501', 'permission denied for table team_invitations', 'anon cannot update invitations');

-- delete ----------------------------------------------------------------------
select tests.authenticate_as('admin');
delete from public.team_invitations;
select tests.authenticate_as('other');
delete from public.team_invitations;
select tests.authenticate_as('invitee');
delete from public.team_invitations;
select tests.authenticate_as('platform');
delete from public.team_invitations;
select tests.clear_authentication();
delete from public.team_invitations;
select tests.authenticate_as_service_role();
select is((select count(*)::int from public.team_invitations), 2,
  'the admin, other teams, the invitee, the platform admin and anon cannot revoke invitations');
select tests.authenticate_as('owner');
delete from public.team_invitations where email = 'direct@example.com';
select tests.authenticate_as_service_role();
select is((select count(*)::int from public.team_invitations), 1, 'the owner revokes an invitation');

-- invite_team_member refusals and resend ----------------------------------------
select tests.authenticate_as('admin');
select throws_ok($$ select public.invite_team_member(tests.team_id('team-a'), 'x@example.com', 'admin') $$,
  '42501', 'Only team owners can invite members', 'admins cannot invite');
select tests.authenticate_as('owner');
select throws_ok($$ select public.invite_team_member((select id from public.teams where personal), 'x@example.com', 'admin') $$,
  '22023', 'A personal team cannot have other members: create a team first', 'personal teams take no invitations');
select throws_ok($$ select public.invite_team_member(tests.team_id('team-a'), 'not an email', 'admin') $$,
  '22023', 'This is not a valid email address', 'a malformed email is refused');
insert into tokens values ('invitee-again', public.invite_team_member(tests.team_id('team-a'), 'invitee@example.com', 'admin'));
select is((select count(*)::int from public.team_invitations where email = 'invitee@example.com'), 1,
  'inviting the same address again replaces the pending invitation');
select tests.clear_authentication();
select throws_ok($$ select public.invite_team_member(tests.team_id('team-a'), 'x@example.com', 'admin') $$,
  '42501', 'permission denied for function invite_team_member', 'anon cannot call invite_team_member');

-- accept ----------------------------------------------------------------------
select tests.authenticate_as('invitee');
select throws_ok($$ select public.accept_invitation((select token from tokens where name = 'invitee')) $$,
  'PT404', 'This invitation link is not valid', 'a replaced token no longer works');
select throws_ok($$ select public.accept_invitation(repeat('0', 64)) $$,
  'PT404', 'This invitation link is not valid', 'a wrong token is refused');
select throws_ok($$ select public.accept_invitation('short') $$,
  'PT404', 'This invitation link is not valid', 'a malformed token is refused');
select is((select team_name || ':' || role || ':' || accepted from public.get_invitation((select token from tokens where name = 'invitee-again'))),
  'Team A:admin:false', 'get_invitation shows the team and role behind a token');
select tests.authenticate_as('stranger');
select throws_ok($$ select public.accept_invitation((select token from tokens where name = 'invitee-again')) $$,
  '42501', 'This invitation was sent to another email address', 'someone else cannot use the invitation');
select tests.clear_authentication();
select throws_ok($$ select public.accept_invitation((select token from tokens where name = 'invitee-again')) $$,
  '42501', 'permission denied for function accept_invitation', 'anon cannot accept invitations');

reset role;
update public.team_invitations set expires_at = now() - interval '1 minute' where email = 'invitee@example.com';
select tests.authenticate_as('invitee');
select throws_ok($$ select public.accept_invitation((select token from tokens where name = 'invitee-again')) $$,
  '22023', 'This invitation has expired: ask the team owner for a new one', 'an expired invitation is refused');
reset role;
update public.team_invitations set expires_at = now() + interval '1 day' where email = 'invitee@example.com';

select tests.authenticate_as('invitee');
select is(public.accept_invitation((select token from tokens where name = 'invitee-again')), tests.team_id('team-a'),
  'the invitee accepts and gets the team id');
select is((select role::text from public.team_members where team_id = tests.team_id('team-a') and user_id = auth.uid()), 'admin',
  'the invitee is now a member with the invited role');
select is((select count(*)::int from public.bots where team_id = tests.team_id('team-a')), 3, 'and sees the team''s bots');
select throws_ok($$ select public.accept_invitation((select token from tokens where name = 'invitee-again')) $$,
  '22023', 'This invitation has already been used', 'an invitation works once');
select tests.authenticate_as_service_role();
select is((select accepted_by from public.team_invitations where email = 'invitee@example.com'), tests.get_supabase_uid('invitee'),
  'the invitation records who accepted it and when');

-- an owner invited as admin keeps being owner
select tests.authenticate_as('owner');
insert into tokens values ('self', public.invite_team_member(tests.team_id('team-a'), 'owner@test.parley.local', 'admin'));
select lives_ok($$ select public.accept_invitation((select token from tokens where name = 'self')) $$, 'an existing member may accept');
select is((select role::text from public.team_members where team_id = tests.team_id('team-a') and user_id = auth.uid()), 'owner',
  'accepting never demotes an existing member');

select * from finish();
rollback;
