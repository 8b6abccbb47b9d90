-- The data-sources bucket: team owners and admins upload, read and delete files
-- under <bot_id>/...; nobody else sees them.
begin;
select plan(11);
select tests.create_team_fixture();

select is((select public from storage.buckets where id = 'data-sources'), false, 'the data-sources bucket is private');
select is((select file_size_limit from storage.buckets where id = 'data-sources'), 20971520::bigint, 'files are limited to 20 MB');

select tests.authenticate_as('owner');
select lives_ok(format($$ insert into storage.objects (bucket_id, name, owner) values ('data-sources', '%s/manual.pdf', auth.uid()) $$,
  tests.bot_id('A private')), 'the owner uploads under the bot''s folder');
select throws_ok(format($$ insert into storage.objects (bucket_id, name) values ('data-sources', '%s/x.pdf') $$, tests.bot_id('B private')),
  '42501', null, 'the owner cannot upload under another team''s bot');
select throws_ok($$ insert into storage.objects (bucket_id, name) values ('data-sources', 'not-a-uuid/x.pdf') $$,
  '42501', null, 'a path that is not under a bot is refused');

select tests.authenticate_as('admin');
select is((select count(*)::int from storage.objects where bucket_id = 'data-sources'), 1, 'an admin of the team reads the file');

select tests.authenticate_as('other');
select is_empty($$ select * from storage.objects where bucket_id = 'data-sources' $$, 'another team cannot see the file');
select throws_ok($$ delete from storage.objects where bucket_id = 'data-sources' $$, '42501', null,
  'a delete in SQL is refused, as on hosted Supabase (files go through the Storage API)');
-- The Storage API deletes with storage.allow_delete_query set; with it, RLS decides.
select set_config('storage.allow_delete_query', 'true', true);
select lives_ok($$ delete from storage.objects where bucket_id = 'data-sources' $$, 'a delete by another team runs...');

select tests.authenticate_as('admin');
select is((select count(*)::int from storage.objects where bucket_id = 'data-sources'), 1, '...and removes nothing');
select lives_ok($$ delete from storage.objects where bucket_id = 'data-sources' $$, 'an admin deletes the file');

select * from finish();
rollback;
