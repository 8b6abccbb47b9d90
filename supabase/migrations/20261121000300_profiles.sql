-- Profiles: one per auth user (display name, avatar, preferred language), made
-- by the `on_auth_user_created` trigger, which also gives every non-anonymous
-- user a personal team they own. An anonymous user who later signs up (is_anonymous
-- turns false) gets the personal team then. Deleting a user deletes their
-- personal teams; a user who is the last owner of a shared team must hand it over
-- (or delete it) first.

-- tables ----------------------------------------------------------------------
create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  display_name text check (display_name is null or char_length(display_name) <= 100),
  avatar_url text check (avatar_url is null or char_length(avatar_url) <= 2048),
  preferred_language public.language_code not null default 'en',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.profiles is 'Public face of an auth user: display name, avatar, preferred interface language.';

alter table public.profiles enable row level security;

-- helper functions ------------------------------------------------------------
-- Teammates see each other's names and avatars in the member list.
create function private.shares_team_with(user_id uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from public.team_members mine
    join public.team_members theirs on theirs.team_id = mine.team_id
    where mine.user_id = (select auth.uid())
      and theirs.user_id = shares_team_with.user_id
  );
$$;
comment on function private.shares_team_with(uuid) is 'Is the given user in at least one team with the caller?';
revoke execute on function private.shares_team_with(uuid) from public;
grant execute on function private.shares_team_with(uuid) to authenticated, service_role;

create function private.create_personal_team(user_id uuid, display_name text) returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  new_id uuid;
begin
  select t.id into new_id from public.teams t
  where t.created_by = create_personal_team.user_id and t.personal;
  if found then
    return new_id;
  end if;
  insert into public.teams (name, slug, personal, created_by)
  values (
    coalesce(nullif(btrim(create_personal_team.display_name), ''), 'Personal'),
    private.generate_team_slug(create_personal_team.display_name),
    true,
    create_personal_team.user_id
  )
  returning id into new_id;
  return new_id;
end;
$$;
comment on function private.create_personal_team(uuid, text) is 'Creates the user''s personal team (owned by them) unless it exists.';
revoke execute on function private.create_personal_team(uuid, text) from public, anon, authenticated;

-- triggers --------------------------------------------------------------------
create trigger profiles_set_timestamps before insert or update on public.profiles
  for each row execute function private.set_timestamps();

create function private.handle_new_user() returns trigger
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
  values (
    new.id,
    name,
    case when char_length(meta ->> 'avatar_url') <= 2048 then meta ->> 'avatar_url' end,
    lang
  )
  on conflict (id) do nothing;

  if not new.is_anonymous then
    perform private.create_personal_team(new.id, name);
  end if;
  return new;
end;
$$;
comment on function private.handle_new_user() is 'Trigger on auth.users: profile for everyone, personal team for non-anonymous users.';

create trigger on_auth_user_created after insert on auth.users
  for each row execute function private.handle_new_user();

create function private.handle_user_upgraded() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.create_personal_team(
    new.id,
    (select p.display_name from public.profiles p where p.id = new.id)
  );
  return new;
end;
$$;
comment on function private.handle_user_upgraded() is 'Trigger on auth.users: an anonymous user who signs up gets a personal team.';

create trigger on_auth_user_upgraded after update of is_anonymous on auth.users
  for each row when (old.is_anonymous and not new.is_anonymous)
  execute function private.handle_user_upgraded();

create function private.handle_user_deleted() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.teams t where t.created_by = old.id and t.personal;
  return old;
end;
$$;
comment on function private.handle_user_deleted() is 'Trigger on auth.users: a deleted user''s personal teams go with them.';

create trigger on_auth_user_deleted before delete on auth.users
  for each row execute function private.handle_user_deleted();

-- A profile always belongs to its user.
create function private.protect_profile_fields() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') and new.id is distinct from old.id then
    raise exception 'A profile cannot be moved to another user' using errcode = '42501';
  end if;
  return new;
end;
$$;
create trigger protect_profile_fields before update on public.profiles
  for each row execute function private.protect_profile_fields();

-- policies --------------------------------------------------------------------
-- No insert or delete policies: the auth.users triggers create and remove profiles.
create policy "Users can read their own profile" on public.profiles
  for select to authenticated
  using (id = (select auth.uid()));

create policy "Team members can read their teammates' profiles" on public.profiles
  for select to authenticated
  using ((select private.shares_team_with(id)));

create policy "Platform admins can read all profiles" on public.profiles
  for select to authenticated
  using ((select private.is_platform_admin()));

create policy "Users can update their own profile" on public.profiles
  for update to authenticated
  using (id = (select auth.uid()))
  with check (id = (select auth.uid()));

-- grants ----------------------------------------------------------------------
revoke insert, delete, truncate, references, trigger on public.profiles from anon, authenticated;
