-- A client-written turn may only attach images from the writer's own folder of the
-- chat-images bucket (<user id>/...). private.can_read_chat_image lets a bot's team read the
-- images attached to its bots' messages; without this check a team member chatting with
-- their own bot could attach another visitor's image path and so read that image.
create function private.check_message_image_paths() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  uid uuid := (select auth.uid());
  image jsonb;
begin
  if (select auth.role()) = 'authenticated' then
    for image in select * from jsonb_array_elements(new.images) loop
      if uid is null
         or jsonb_typeof(image -> 'path') is distinct from 'string'
         or not starts_with(image ->> 'path', uid::text || '/')
         or (image ->> 'path') ~ '(^|/)\.\.?(/|$)' then
        raise exception 'Images must be your own uploads' using errcode = '42501';
      end if;
    end loop;
  end if;
  return new;
end;
$$;
comment on function private.check_message_image_paths() is
  'Before a client inserts a message: every attached image path is under the writer''s own folder.';
revoke execute on function private.check_message_image_paths() from public, anon, authenticated;

create trigger check_message_image_paths before insert on public.messages
  for each row execute function private.check_message_image_paths();
