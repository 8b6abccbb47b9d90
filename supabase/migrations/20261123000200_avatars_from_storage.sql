-- Avatars come only from the project's own `avatars` bucket.
--
-- profiles.avatar_url and bots.avatar_url took any URL, so a bot's owner could point its
-- avatar at a server of their own and learn the address of every visitor of the chat page,
-- the widget and the gallery. From now on both columns hold an object path inside the
-- public `avatars` bucket (`<user id>/profile-<time>.png`, `<user id>/bots/<bot id>-<time>.webp`),
-- never a URL; clients turn the path into the bucket's public URL
-- (supabase.storage.from('avatars').getPublicUrl(path)), so the image is always served by
-- this project's Storage. A public URL of the bucket sent by a client is stored as its path;
-- existing values that are such URLs become their path; any other value is dropped. A new user's profile no longer copies an avatar URL
-- from the sign-up metadata (OAuth providers put their own image URLs there).

-- functions -------------------------------------------------------------------------
-- The shape of an object path in the avatars bucket: the uploader's folder (a user id),
-- up to three sub-folders, an image file name; no "." or ".." segments, no scheme or host.
create function private.is_avatar_path(value text) returns boolean
language sql
immutable
parallel safe
set search_path = ''
as $$
  select is_avatar_path.value ~ (
    '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/'
    || '([A-Za-z0-9_-][A-Za-z0-9._-]{0,199}/){0,3}'
    || '[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}\.(png|jpg|jpeg|webp|gif)$'
  );
$$;
comment on function private.is_avatar_path(text) is
  'Is the value an object path in the avatars bucket (<user id>/.../<name>.<png|jpg|jpeg|webp|gif>)? No URLs.';
-- Check constraints run it as whoever writes the row.
grant execute on function private.is_avatar_path(text) to public;

-- The path a stored value stands for: a path as it is, the object path of a public URL
-- of the bucket (what the app stored until now), null for anything else.
create function private.avatar_path_from_url(value text) returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case
    when private.is_avatar_path(avatar_path_from_url.value) then avatar_path_from_url.value
    when private.is_avatar_path(substring(avatar_path_from_url.value from '/storage/v1/object/public/avatars/([^?#]+)'))
      then substring(avatar_path_from_url.value from '/storage/v1/object/public/avatars/([^?#]+)')
  end;
$$;
comment on function private.avatar_path_from_url(text) is
  'A stored avatar value as a path of the avatars bucket: paths as they are, public URLs of the bucket as their path, else null.';
-- The normalising trigger below runs it as whoever writes the row.
grant execute on function private.avatar_path_from_url(text) to public;

-- data --------------------------------------------------------------------------------
update public.profiles p set avatar_url = private.avatar_path_from_url(p.avatar_url)
where p.avatar_url is not null and not private.is_avatar_path(p.avatar_url);

update public.bots b set avatar_url = private.avatar_path_from_url(b.avatar_url)
where b.avatar_url is not null and not private.is_avatar_path(b.avatar_url);

-- constraints ---------------------------------------------------------------------------
alter table public.profiles
  add constraint profiles_avatar_url_in_storage check (avatar_url is null or private.is_avatar_path(avatar_url));
comment on column public.profiles.avatar_url is
  'Object path in the public avatars bucket (<user id>/profile-<time>.<ext>), never a URL; null = initials.';

alter table public.bots
  add constraint bots_avatar_url_in_storage check (avatar_url is null or private.is_avatar_path(avatar_url));
comment on column public.bots.avatar_url is
  'Object path in the public avatars bucket (<uploader id>/bots/<bot id>-<time>.<ext>), never a URL; null = initial.';

-- triggers ------------------------------------------------------------------------------
-- A client may send the public URL that storage.from('avatars').getPublicUrl() gave it: it is
-- stored as its path (whatever host it names, the path is then one of this bucket). Any other
-- value is left for the check constraint to refuse.
create function private.store_avatar_as_path() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.avatar_url is not null then
    new.avatar_url := coalesce(private.avatar_path_from_url(new.avatar_url), new.avatar_url);
  end if;
  return new;
end;
$$;
comment on function private.store_avatar_as_path() is
  'Before a profile or bot is written: a public URL of the avatars bucket in avatar_url becomes its object path.';

create trigger store_avatar_as_path before insert or update of avatar_url on public.profiles
  for each row execute function private.store_avatar_as_path();
create trigger store_avatar_as_path before insert or update of avatar_url on public.bots
  for each row execute function private.store_avatar_as_path();

-- As 20261121000300_profiles.sql, without copying meta.avatar_url (an outside URL).
create or replace function private.handle_new_user() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  meta jsonb := coalesce(new.raw_user_meta_data, '{}'::jsonb);
  name text;
  lang text := meta ->> 'preferred_language';
begin
  name := left(coalesce(
    nullif(btrim(meta ->> 'display_name'), ''),
    nullif(btrim(meta ->> 'full_name'), ''),
    nullif(btrim(meta ->> 'name'), ''),
    nullif(split_part(coalesce(new.email, ''), '@', 1), '')
  ), 100);
  if lang is null or lang not in ('en', 'de', 'es', 'fr', 'it', 'jp', 'cn', 'el', 'pl', 'nl') then
    lang := 'en';
  end if;

  insert into public.profiles (id, display_name, avatar_url, preferred_language)
  values (new.id, name, null, lang)
  on conflict (id) do nothing;

  if not new.is_anonymous then
    perform private.create_personal_team(new.id, name);
  end if;
  return new;
end;
$$;
