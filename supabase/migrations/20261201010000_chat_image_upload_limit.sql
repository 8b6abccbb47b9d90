-- Chat images: a visitor (often an anonymous session) could upload 5 MB images into their own
-- folder without end. Uploads are now limited per user: 30 an hour and 100 a day (each counted
-- when the upload is accepted; a refused one counts nothing). What is over the limit is refused
-- by the insert policy (storage answers 403), as storage refuses any upload its policies do not
-- allow. The chat function re-checks size and type before a model sees an image, as before.

create function private.may_upload_chat_image() returns boolean
language plpgsql volatile security definer set search_path = ''
as $$
declare
  uid uuid := auth.uid();
begin
  if uid is null then
    return false;
  end if;
  -- Both windows are spent together, or neither: a refusal rolls the statement back.
  return private.consume_rate_limit('chat-image:hour:' || uid::text, 30, 3600)
     and private.consume_rate_limit('chat-image:day:' || uid::text, 100, 86400);
end;
$$;
comment on function private.may_upload_chat_image() is
  'May the caller upload one more chat image (30 an hour, 100 a day per user)? Counts the upload when it may.';
revoke all on function private.may_upload_chat_image() from public, anon;
grant execute on function private.may_upload_chat_image() to authenticated, service_role;

drop policy "Visitors can upload chat images to their own folder" on storage.objects;
create policy "Visitors can upload chat images to their own folder" on storage.objects
  for insert to authenticated
  with check (
    bucket_id = 'chat-images'
    and (storage.foldername(name))[1] = (select auth.uid())::text
    and private.may_upload_chat_image()
  );
