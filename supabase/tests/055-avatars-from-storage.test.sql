-- Avatars come only from the project's own avatars bucket (20261123000200): profiles.avatar_url
-- and bots.avatar_url hold an object path of that bucket, never a URL, whoever writes them.
begin;
select plan(22);
select tests.create_team_fixture();

create function pg_temp.owner_folder() returns text language sql as $$ select tests.get_supabase_uid('owner')::text $$;

-- profiles
select tests.authenticate_as('owner');
select lives_ok(format($$ update public.profiles set avatar_url = '%s/profile-1732000000.png' where id = auth.uid() $$, pg_temp.owner_folder()),
  'a user sets their avatar to a path in their avatars folder');
select is((select avatar_url from public.profiles where id = auth.uid()), pg_temp.owner_folder() || '/profile-1732000000.png',
  'the path is stored as given');
select throws_ok($$ update public.profiles set avatar_url = 'https://tracker.example/pixel.png' where id = auth.uid() $$,
  '23514', null, 'an outside URL is refused');
select lives_ok(format($$ update public.profiles set avatar_url = 'http://127.0.0.1:54321/storage/v1/object/public/avatars/%s/profile-2.png' where id = auth.uid() $$, pg_temp.owner_folder()),
  'the public URL of a file in the bucket is accepted');
select is((select avatar_url from public.profiles where id = auth.uid()), pg_temp.owner_folder() || '/profile-2.png',
  '... and stored as its path (the client builds the URL from it)');
select throws_ok(format($$ update public.profiles set avatar_url = 'https://tracker.example/storage/v1/object/public/other/%s/profile-1.png' where id = auth.uid() $$, pg_temp.owner_folder()),
  '23514', null, 'a URL of another bucket or server is refused');
select throws_ok($$ update public.profiles set avatar_url = '//tracker.example/a0000000-0000-4000-8000-000000000001/x.png' where id = auth.uid() $$,
  '23514', null, 'and a protocol-relative URL');
select throws_ok(format($$ update public.profiles set avatar_url = '%s/../../chat-images/x.png' where id = auth.uid() $$, pg_temp.owner_folder()),
  '23514', null, 'and a path that climbs out of the folder');
select throws_ok(format($$ update public.profiles set avatar_url = '%s/profile.svg' where id = auth.uid() $$, pg_temp.owner_folder()),
  '23514', null, 'and a file that is not one of the bucket''s image types');
select throws_ok($$ update public.profiles set avatar_url = 'profile-1.png' where id = auth.uid() $$,
  '23514', null, 'and a path outside any user''s folder');
select lives_ok($$ update public.profiles set avatar_url = null where id = auth.uid() $$, 'removing the avatar is fine');

-- bots
select tests.authenticate_as('admin');
select lives_ok(format($$ update public.bots set avatar_url = '%s/bots/%s-1732000000.webp' where id = tests.bot_id('A gallery') $$,
    tests.get_supabase_uid('admin'), tests.bot_id('A gallery')),
  'a team admin sets a bot avatar to a path in the bucket');
select is((select avatar_url from public.gallery_bots() where id = tests.bot_id('A gallery')),
  tests.get_supabase_uid('admin')::text || '/bots/' || tests.bot_id('A gallery')::text || '-1732000000.webp',
  'the gallery hands out the path');
select throws_ok($$ update public.bots set avatar_url = 'https://tracker.example/bot.png' where id = tests.bot_id('A gallery') $$,
  '23514', null, 'an outside URL for a bot avatar is refused');
update public.bots set avatar_url = 'https://abc.supabase.co/storage/v1/object/public/avatars/' || auth.uid() || '/bots/b-2.png'
where id = tests.bot_id('A gallery');
select is((select avatar_url from public.bots where id = tests.bot_id('A gallery')),
  auth.uid()::text || '/bots/b-2.png', 'a public URL of the bucket for a bot avatar is stored as its path');

-- the service role (edge functions) and the database owner are held to it too
select tests.authenticate_as_service_role();
select throws_ok($$ update public.bots set avatar_url = 'https://tracker.example/bot.png' where id = tests.bot_id('A private') $$,
  '23514', null, 'the service role cannot store an outside URL either');
reset role;
select throws_ok($$ insert into public.bots (team_id, name, avatar_url) values (tests.team_id('team-b'), 'Tracker', 'http://tracker.example/b.png') $$,
  '23514', null, 'nor can SQL run as the database owner (seeds)');

-- a new user's profile does not copy an avatar URL from the sign-up metadata (OAuth)
insert into auth.users (instance_id, id, aud, role, email, raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_anonymous)
values ('00000000-0000-0000-0000-000000000000', 'a0550000-0000-4000-8000-000000000001', 'authenticated', 'authenticated',
        'oauth-avatar@test.parley.local', '{"provider":"google"}',
        '{"full_name":"O. Auth","avatar_url":"https://lh3.googleusercontent.example/a.png"}', now(), now(), false);
select is((select avatar_url from public.profiles where id = 'a0550000-0000-4000-8000-000000000001'), null,
  'a sign-up''s metadata avatar URL is not copied into the profile');
select is((select display_name from public.profiles where id = 'a0550000-0000-4000-8000-000000000001'), 'O. Auth',
  'the rest of the profile is still taken from the metadata');

-- what the migration made of the values stored before it
select is(private.avatar_path_from_url('https://abc.supabase.co/storage/v1/object/public/avatars/a0000000-0000-4000-8000-000000000001/profile-1.png'),
  'a0000000-0000-4000-8000-000000000001/profile-1.png', 'a public URL of the bucket became its path');
select is(private.avatar_path_from_url('a0000000-0000-4000-8000-000000000001/bots/b-1.webp'),
  'a0000000-0000-4000-8000-000000000001/bots/b-1.webp', 'a path stays as it is');
select is(private.avatar_path_from_url('https://tracker.example/pixel.png'), null, 'any other URL was dropped');

select * from finish();
rollback;
