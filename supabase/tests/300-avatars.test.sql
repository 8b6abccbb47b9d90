-- The avatars bucket: public, 1 MiB, images only; users write only under their own
-- folder (<uid>/...), anonymous visitors and anon not at all.
begin;
select plan(10);
select tests.create_supabase_user('av_user1');
select tests.create_supabase_user('av_user2');
select tests.create_anonymous_user('av_guest');

select results_eq($$ select public, file_size_limit, allowed_mime_types from storage.buckets where id = 'avatars' $$,
  $$ values (true, 1048576::bigint, array['image/png', 'image/jpeg', 'image/webp', 'image/gif']) $$,
  'the bucket is public, limited to 1 MiB of PNG, JPEG, WebP or GIF');

select tests.authenticate_as('av_user1');
select lives_ok(format($$ insert into storage.objects (bucket_id, name, owner) values ('avatars', '%s/profile-1.png', auth.uid()) $$,
  tests.get_supabase_uid('av_user1')), 'a user uploads into their own folder');
select lives_ok(format($$ insert into storage.objects (bucket_id, name, owner) values ('avatars', '%s/bots/b-1.png', auth.uid()) $$,
  tests.get_supabase_uid('av_user1')), 'including bot avatars under it');
select throws_ok(format($$ insert into storage.objects (bucket_id, name) values ('avatars', '%s/profile-1.png') $$,
  tests.get_supabase_uid('av_user2')), '42501', null, 'but not into another user''s folder');
select throws_ok($$ insert into storage.objects (bucket_id, name) values ('avatars', 'loose.png') $$,
  '42501', null, 'nor outside any folder');

select tests.authenticate_as('av_user2');
select is_empty($$ select 1 from storage.objects where bucket_id = 'avatars' $$, 'another user cannot list them (the public URL serves them)');
-- The Storage API deletes with storage.allow_delete_query set (a delete in SQL is refused); with it, RLS decides.
select set_config('storage.allow_delete_query', 'true', true);
select results_eq(format($$ with d as (delete from storage.objects where bucket_id = 'avatars' and name like '%s/%%' returning 1) select count(*)::int from d $$,
  tests.get_supabase_uid('av_user1')), $$ values (0) $$, 'nor delete them');

select tests.authenticate_as('av_user1');
select results_eq($$ with d as (delete from storage.objects where bucket_id = 'avatars' and name like '%/bots/%' returning 1) select count(*)::int from d $$,
  $$ values (1) $$, 'the owner deletes their own file');

select tests.authenticate_as('av_guest');
select throws_ok(format($$ insert into storage.objects (bucket_id, name) values ('avatars', '%s/x.png') $$,
  tests.get_supabase_uid('av_guest')), '42501', null, 'anonymous visitors cannot upload avatars');

select tests.clear_authentication();
select throws_ok($$ insert into storage.objects (bucket_id, name) values ('avatars', 'anon/x.png') $$,
  '42501', null, 'anon cannot upload');

select * from finish();
rollback;
