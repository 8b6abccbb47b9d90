-- RPCs for multi-row work: create_team, change_member_role, remove_team_member,
-- transfer_team_ownership; and who may execute which RPC at all.
begin;
select plan(42);
select tests.create_team_fixture();

-- execute grants --------------------------------------------------------------
select ok(not has_function_privilege('anon', 'public.create_team(text, text)', 'execute'), 'anon cannot execute create_team');
select ok(not has_function_privilege('anon', 'public.invite_team_member(uuid, text, public.team_role)', 'execute'), 'anon cannot execute invite_team_member');
select ok(not has_function_privilege('anon', 'public.accept_invitation(text)', 'execute'), 'anon cannot execute accept_invitation');
select ok(not has_function_privilege('anon', 'public.change_member_role(uuid, uuid, public.team_role)', 'execute'), 'anon cannot execute change_member_role');
select ok(not has_function_privilege('anon', 'public.remove_team_member(uuid, uuid)', 'execute'), 'anon cannot execute remove_team_member');
select ok(not has_function_privilege('anon', 'public.transfer_team_ownership(uuid, uuid)', 'execute'), 'anon cannot execute transfer_team_ownership');
select ok(not has_function_privilege('anon', 'public.set_bot_password(uuid, text)', 'execute'), 'anon cannot execute set_bot_password');
select ok(has_function_privilege('anon', 'public.get_public_bot(uuid)', 'execute'), 'anon may execute get_public_bot');
select ok(has_function_privilege('anon', 'public.is_platform_admin()', 'execute'), 'anon may execute is_platform_admin (it says false)');
select ok(has_function_privilege('authenticated', 'public.create_team(text, text)', 'execute'), 'signed-in users may execute create_team');
select is(
  (select count(*)::int from pg_proc p join pg_namespace n on n.oid = p.pronamespace
   where n.nspname = 'public' and p.prosecdef
     and p.proname not in ('accept_invitation', 'get_invitation', 'get_team_members', 'get_public_bot', 'gallery_bots', 'is_platform_admin', 'set_bot_password',
                           'check_bot_password', 'set_team_provider_key', 'remove_team_provider_key', 'list_team_provider_keys',
                           'match_chunks', 'issue_chat_turn_pass', 'account_notice_recipient')
     -- the admin area reads and acts through security-definer functions that check is_platform_admin()
     and p.proname not like 'admin\_%'),
  0, 'public RPCs are security invoker except the few that must not be (and the admin area''s admin_*)');
select is(
  (select count(*)::int from pg_proc p join pg_namespace n on n.oid = p.pronamespace
   where n.nspname in ('public', 'private') and p.prosecdef
     and not exists (select 1 from unnest(p.proconfig) c where c = 'search_path=""')),
  0, 'every security definer function pins search_path to empty');

-- create_team -----------------------------------------------------------------
select tests.authenticate_as('stranger');
select is((select slug || ':' || personal from public.create_team('Stranger Co', 'stranger-co')), 'stranger-co:false',
  'create_team returns the new team');
select is((select role::text from public.team_members where team_id = tests.team_id('stranger-co') and user_id = auth.uid()), 'owner',
  'the creator is its owner');
select matches((select slug from public.create_team('Ünïcode & Co', null)), '^n-code-co-[0-9a-f]{6}$', 'without a slug, one is made from the name');
select matches((select slug from public.create_team('日本', null)), '^team-[0-9a-f]{6}$', 'a name without ASCII letters still gets a slug');
select throws_ok($$ select public.create_team('Again', 'stranger-co') $$, '23505', null, 'a taken slug is refused');
select throws_ok($$ select public.create_team('', null) $$, '23514', null, 'an empty name is refused');
select tests.clear_authentication();
select throws_ok($$ select public.create_team('Anon Co', 'anon-co') $$, '42501', 'permission denied for function create_team', 'anon cannot create teams');
reset role;
select tests.create_anonymous_user('guest');
select tests.authenticate_as('guest');
select throws_ok($$ select public.create_team('Guest Co', 'guest-co') $$, '42501', 'Guest users cannot create teams: sign up first',
  'anonymous (guest) users cannot create teams');

-- change_member_role ------------------------------------------------------------
select tests.authenticate_as('admin');
select throws_ok($$ select public.change_member_role(tests.team_id('team-a'), auth.uid(), 'owner') $$,
  '42501', 'Only team owners can change member roles', 'an admin cannot promote themselves');
select tests.authenticate_as('other');
select throws_ok($$ select public.change_member_role(tests.team_id('team-a'), tests.get_supabase_uid('admin'), 'owner') $$,
  '42501', 'Only team owners can change member roles', 'a member of another team cannot change roles');
select tests.authenticate_as('platform');
select throws_ok($$ select public.change_member_role(tests.team_id('team-a'), tests.get_supabase_uid('admin'), 'owner') $$,
  '42501', 'Only team owners can change member roles', 'the platform admin cannot change roles');
select tests.authenticate_as('owner');
select throws_ok($$ select public.change_member_role(tests.team_id('team-a'), tests.get_supabase_uid('stranger'), 'admin') $$,
  'PT404', 'This user is not a member of the team', 'a non-member has no role to change');
select throws_ok($$ select public.change_member_role(tests.team_id('team-a'), auth.uid(), 'admin') $$,
  'P0001', 'A team must keep at least one owner: make another member owner first, or delete the team', 'the last owner cannot demote themselves');
select lives_ok($$ select public.change_member_role(tests.team_id('team-a'), tests.get_supabase_uid('admin'), 'owner') $$, 'the owner promotes the admin');
select lives_ok($$ select public.change_member_role(tests.team_id('team-a'), tests.get_supabase_uid('admin'), 'admin') $$, 'and demotes them again');
select is((select role::text from public.team_members where team_id = tests.team_id('team-a') and user_id = tests.get_supabase_uid('admin')), 'admin',
  'change_member_role changes the role');

-- transfer_team_ownership -------------------------------------------------------
select tests.authenticate_as('admin');
select throws_ok($$ select public.transfer_team_ownership(tests.team_id('team-a'), auth.uid()) $$,
  '42501', 'Only team owners can transfer ownership', 'an admin cannot take ownership');
select tests.authenticate_as('owner');
select throws_ok($$ select public.transfer_team_ownership(tests.team_id('team-a'), tests.get_supabase_uid('stranger')) $$,
  'PT404', 'The new owner must already be a member of the team', 'ownership goes only to a member');
select throws_ok($$ select public.transfer_team_ownership(tests.team_id('team-a'), auth.uid()) $$,
  '22023', 'You already own this team', 'transferring to oneself is refused');
select lives_ok($$ select public.transfer_team_ownership(tests.team_id('team-a'), tests.get_supabase_uid('admin')) $$, 'the owner transfers ownership');
select is(array(select p.display_name || ':' || m.role from public.team_members m join public.profiles p on p.id = m.user_id
                where m.team_id = tests.team_id('team-a') order by 1),
  array['admin:owner', 'owner:admin'], 'the new owner owns the team and the old owner is an admin');
select throws_ok($$ select public.change_member_role(tests.team_id('team-a'), tests.get_supabase_uid('admin'), 'admin') $$,
  '42501', 'Only team owners can change member roles', 'the former owner has an admin''s rights now');

-- remove_team_member ------------------------------------------------------------
-- (now: 'admin' owns team-a, 'owner' is its admin)
select throws_ok($$ select public.remove_team_member(tests.team_id('team-a'), tests.get_supabase_uid('admin')) $$,
  '42501', 'Only team owners can remove other members', 'an admin cannot remove the owner');
select tests.authenticate_as('other');
select throws_ok($$ select public.remove_team_member(tests.team_id('team-a'), tests.get_supabase_uid('owner')) $$,
  '42501', 'Only team owners can remove other members', 'a member of another team cannot remove members');
select tests.authenticate_as('admin');
select throws_ok($$ select public.remove_team_member(tests.team_id('team-a'), auth.uid()) $$,
  'P0001', 'A team must keep at least one owner: make another member owner first, or delete the team', 'the last owner cannot leave');
select throws_ok($$ select public.remove_team_member(tests.team_id('team-a'), tests.get_supabase_uid('stranger')) $$,
  'PT404', 'This user is not a member of the team', 'removing a non-member says so');
select lives_ok($$ select public.remove_team_member(tests.team_id('team-a'), tests.get_supabase_uid('owner')) $$, 'the owner removes a member');
select is(array(select m.role::text from public.team_members m where m.team_id = tests.team_id('team-a')), array['owner'],
  'only the owner is left');
reset role;
insert into public.team_members (team_id, user_id, role) values (tests.team_id('team-a'), tests.get_supabase_uid('stranger'), 'admin');
select tests.authenticate_as('stranger');
select lives_ok($$ select public.remove_team_member(tests.team_id('team-a'), auth.uid()) $$, 'an admin leaves with remove_team_member');
select is_empty($$ select 1 from public.teams where slug = 'team-a' $$, 'and no longer sees the team');

select * from finish();
rollback;
