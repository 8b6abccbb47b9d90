-- Chat images: a visitor uploads at most 30 an hour (and 100 a day) into their own folder; what
-- is over the limit is refused by the insert policy, and a refused upload counts nothing.
begin;
select plan(7);
select tests.create_supabase_user('uploader');
select tests.create_supabase_user('other_uploader');

select tests.authenticate_as('uploader');
select lives_ok(
  format($$ insert into storage.objects (bucket_id, name, owner)
            select 'chat-images', '%s/img-' || g || '.png', auth.uid() from generate_series(1, 30) g $$,
         tests.get_supabase_uid('uploader')),
  'a visitor uploads 30 images within the hour');
select throws_ok(
  format($$ insert into storage.objects (bucket_id, name, owner) values ('chat-images', '%s/img-31.png', auth.uid()) $$,
         tests.get_supabase_uid('uploader')),
  '42501', null, 'the 31st within the hour is refused');
select is((select count(*)::int from storage.objects where bucket_id = 'chat-images' and name like tests.get_supabase_uid('uploader')::text || '/%'),
  30, 'and not stored');
select throws_ok(
  format($$ insert into storage.objects (bucket_id, name, owner) values ('chat-images', '%s/img-32.png', auth.uid()) $$,
         tests.get_supabase_uid('uploader')),
  '42501', null, 'nor the next one');

select tests.authenticate_as('other_uploader');
select lives_ok(
  format($$ insert into storage.objects (bucket_id, name, owner) values ('chat-images', '%s/mine.png', auth.uid()) $$,
         tests.get_supabase_uid('other_uploader')),
  'another visitor still uploads');

reset role;
select is((select hits from private.rate_limits where key = 'chat-image:hour:' || tests.get_supabase_uid('uploader')::text),
  30, 'refused uploads counted nothing');
select is((select hits from private.rate_limits where key = 'chat-image:day:' || tests.get_supabase_uid('uploader')::text),
  30, 'the day''s count is the same 30');

select * from finish();
rollback;
