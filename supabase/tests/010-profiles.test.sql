-- profiles: created by the auth trigger (with a personal team), readable by the
-- user, their teammates and platform admins; updatable only by the user.
begin;
select plan(28);
select tests.create_team_fixture();

-- trigger ---------------------------------------------------------------------
select tests.rls_enabled('public', 'profiles');
select is((select display_name from public.profiles where id = tests.get_supabase_uid('owner')), 'owner',
  'on_auth_user_created makes a profile with the display name from the metadata');
select is((select preferred_language::text from public.profiles where id = tests.get_supabase_uid('owner')), 'en',
  'the preferred language defaults to en');
select is((select count(*)::int from public.teams t join public.team_members m on m.team_id = t.id and m.role = 'owner'
           where t.personal and t.created_by = tests.get_supabase_uid('stranger') and m.user_id = tests.get_supabase_uid('stranger')), 1,
  'every new user gets one personal team they own');

insert into auth.users (id, email, raw_user_meta_data, is_anonymous)
values ('00000000-0000-4000-8000-0000000000d1', 'Deutsch@Example.com', '{"preferred_language":"de","full_name":"Dora"}', false),
       ('00000000-0000-4000-8000-0000000000d2', 'x@example.com', '{"preferred_language":"xx"}', false);
select is((select display_name || '/' || preferred_language from public.profiles where id = '00000000-0000-4000-8000-0000000000d1'), 'Dora/de',
  'display name and language come from the sign-up metadata');
select is((select display_name || '/' || preferred_language from public.profiles where id = '00000000-0000-4000-8000-0000000000d2'), 'x/en',
  'an unknown language falls back to en and the name to the email''s local part');

select tests.create_anonymous_user('guest');
select isnt((select id from public.profiles where id = tests.get_supabase_uid('guest')), null, 'anonymous users get a profile');
select is((select count(*)::int from public.teams where created_by = tests.get_supabase_uid('guest')), 0,
  'anonymous users get no personal team');
update auth.users set is_anonymous = false, email = 'guest@example.com' where id = tests.get_supabase_uid('guest');
select is((select count(*)::int from public.teams where created_by = tests.get_supabase_uid('guest') and personal), 1,
  'an anonymous user who signs up gets a personal team');

-- select ----------------------------------------------------------------------
select tests.authenticate_as('owner');
select is(array(select display_name from public.profiles order by 1), array['admin', 'owner'],
  'the owner reads their own profile and their teammate''s');
select tests.authenticate_as('admin');
select is(array(select display_name from public.profiles order by 1), array['admin', 'owner'],
  'the admin reads their own profile and their teammate''s');
select tests.authenticate_as('other');
select is(array(select display_name from public.profiles order by 1), array['other'],
  'a member of another team reads only their own profile');
select tests.authenticate_as('stranger');
select is(array(select display_name from public.profiles order by 1), array['stranger'],
  'a signed-in stranger reads only their own profile');
select tests.clear_authentication();
select is_empty($$ select * from public.profiles $$, 'anon reads no profiles');
select tests.authenticate_as('platform');
select is(array(select display_name from public.profiles where display_name in ('owner', 'admin', 'other', 'stranger') order by 1),
  array['admin', 'other', 'owner', 'stranger'], 'the platform admin reads every profile');

-- insert ----------------------------------------------------------------------
select tests.authenticate_as('stranger');
select throws_ok($$ insert into public.profiles (id, display_name) values (gen_random_uuid(), 'x') $$,
  '42501', 'permission denied for table profiles', 'a signed-in user cannot insert profiles');
select tests.clear_authentication();
select throws_ok($$ insert into public.profiles (id, display_name) values (gen_random_uuid(), 'x') $$,
  '42501', 'permission denied for table profiles', 'anon cannot insert profiles');

-- update ----------------------------------------------------------------------
select tests.authenticate_as('owner');
update public.profiles set display_name = 'Olivia Owner', preferred_language = 'fr' where id = auth.uid();
select is((select display_name || '/' || preferred_language from public.profiles where id = auth.uid()), 'Olivia Owner/fr',
  'a user updates their own profile');
select throws_ok($$ update public.profiles set preferred_language = 'xx' where id = auth.uid() $$,
  '23514', null, 'the preferred language must be one of the ten codes');
select throws_ok($$ update public.profiles set id = gen_random_uuid() where id = auth.uid() $$,
  '42501', 'A profile cannot be moved to another user', 'a profile cannot change its user');
update public.profiles set display_name = 'hacked' where id = tests.get_supabase_uid('admin');
select tests.authenticate_as('stranger');
update public.profiles set display_name = 'hacked' where id = tests.get_supabase_uid('owner');
select tests.authenticate_as('platform');
update public.profiles set display_name = 'hacked' where id = tests.get_supabase_uid('other');
select tests.clear_authentication();
update public.profiles set display_name = 'hacked';
select tests.authenticate_as_service_role();
select is((select display_name from public.profiles where id = tests.get_supabase_uid('admin')), 'admin',
  'a teammate cannot update another user''s profile');
select is((select display_name from public.profiles where id = tests.get_supabase_uid('owner')), 'Olivia Owner',
  'a stranger cannot update another user''s profile');
select is((select display_name from public.profiles where id = tests.get_supabase_uid('other')), 'other',
  'the platform admin cannot update other users'' profiles');
select is((select count(*)::int from public.profiles where display_name = 'hacked'), 0, 'anon updates no profile');

-- delete ----------------------------------------------------------------------
select tests.authenticate_as('owner');
select throws_ok($$ delete from public.profiles where id = auth.uid() $$,
  '42501', 'permission denied for table profiles', 'a user cannot delete profiles (deleting the account does)');
select tests.authenticate_as('platform');
select throws_ok($$ delete from public.profiles $$,
  '42501', 'permission denied for table profiles', 'the platform admin cannot delete profiles');
select tests.clear_authentication();
select throws_ok($$ delete from public.profiles $$,
  '42501', 'permission denied for table profiles', 'anon cannot delete profiles');
reset role;
delete from auth.users where id = tests.get_supabase_uid('stranger');
select is((select count(*)::int from public.teams t where t.slug like 'stranger-%'), 0,
  'deleting a user deletes their profile and personal team');

select * from finish();
rollback;
