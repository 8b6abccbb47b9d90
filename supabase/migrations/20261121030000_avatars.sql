-- Avatars: the public `avatars` Storage bucket for profile pictures and bot avatars.
-- Files live under <user_id>/... (the uploader's own folder): profile pictures at
-- <uid>/profile-<time>.<ext>, bot avatars at <uid>/bots/<bot_id>-<time>.<ext>. The bucket
-- is public so the URLs stored in profiles.avatar_url and bots.avatar_url work for anyone
-- (the chat page, the gallery); the bucket itself enforces the size and the image types.

-- storage: avatars ----------------------------------------------------------------
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('avatars', 'avatars', true, 1024 * 1024,
        array['image/png', 'image/jpeg', 'image/webp', 'image/gif'])
on conflict (id) do nothing;

-- policies ---------------------------------------------------------------------------
create policy "Users can upload avatars to their own folder" on storage.objects
  for insert to authenticated
  with check (
    bucket_id = 'avatars'
    and (storage.foldername(name))[1] = (select auth.uid())::text
    and not (select private.is_anonymous_user())
  );

create policy "Users can read their own avatar files" on storage.objects
  for select to authenticated
  using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text);

create policy "Users can replace their own avatar files" on storage.objects
  for update to authenticated
  using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text)
  with check (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text);

create policy "Users can delete their own avatar files" on storage.objects
  for delete to authenticated
  using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text);
