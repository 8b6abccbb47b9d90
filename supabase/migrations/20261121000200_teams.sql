-- Teams and their members. A team owner may do everything in the team (members,
-- invitations, billing fields, deleting it); a team admin manages the team's bots
-- and reads its members. Adds the role helpers every later policy calls
-- (`private.has_team_role`, `private.is_team_member`), the protected-field and
-- last-owner triggers, and the RPCs for multi-row work: create_team,
-- change_member_role, remove_team_member, transfer_team_ownership.

-- types -----------------------------------------------------------------------
create type public.team_role as enum ('owner', 'admin');
comment on type public.team_role is 'owner: everything in the team; admin: the team''s bots and everything under them.';

-- tables ----------------------------------------------------------------------
create table public.teams (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(btrim(name)) between 1 and 100),
  slug text not null unique check (slug ~ '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$'),
  personal boolean not null default false,
  billing_email text check (billing_email is null or (char_length(billing_email) <= 320 and billing_email ~ '^[^@\s]+@[^@\s]+$')),
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.teams is 'A team owns bots. Every user gets a personal team; shared teams are created with create_team().';
comment on column public.teams.personal is 'The team created for a user at sign-up. Never shared, never deleted by the client.';
comment on column public.teams.billing_email is 'Where invoices go. Owners only.';

create index teams_created_by_idx on public.teams (created_by);

create table public.team_members (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references public.teams (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  role public.team_role not null default 'admin',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (team_id, user_id)
);
comment on table public.team_members is 'Who belongs to which team and with which role. Joined through invitations; changed by owners.';

-- (team_id, user_id) is covered by the unique index; policies also filter by user_id alone.
create index team_members_user_id_idx on public.team_members (user_id);

alter table public.teams enable row level security;
alter table public.team_members enable row level security;

-- helper functions ------------------------------------------------------------
-- null role = any member; 'admin' = admin or owner; 'owner' = owner.
create function private.has_team_role(team_id uuid, role public.team_role default null) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from public.team_members tm
    where tm.team_id = has_team_role.team_id
      and tm.user_id = (select auth.uid())
      and (
        has_team_role.role is null
        or tm.role = has_team_role.role
        or (has_team_role.role = 'admin' and tm.role = 'owner')
      )
  );
$$;
comment on function private.has_team_role(uuid, public.team_role) is
  'Does the caller have this role in the team? null = any member, admin = admin or owner, owner = owner.';

create function private.is_team_member(team_id uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select private.has_team_role(is_team_member.team_id, null);
$$;
comment on function private.is_team_member(uuid) is 'Is the caller a member (any role) of the team?';

-- Teams the caller belongs to, for `team_id in (select private.get_teams_with_role())` filters.
create function private.get_teams_with_role(role public.team_role default null) returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select tm.team_id
  from public.team_members tm
  where tm.user_id = (select auth.uid())
    and (
      get_teams_with_role.role is null
      or tm.role = get_teams_with_role.role
      or (get_teams_with_role.role = 'admin' and tm.role = 'owner')
    );
$$;
comment on function private.get_teams_with_role(public.team_role) is 'Ids of the teams where the caller has the role (same rules as has_team_role).';

-- Anonymous sign-ins are chat visitors: they may chat, not create teams.
create function private.is_anonymous_user() returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(((select auth.jwt()) ->> 'is_anonymous')::boolean, false);
$$;
comment on function private.is_anonymous_user() is 'True when the caller signed in anonymously (a chat visitor).';

create function private.generate_team_slug(base text) returns text
language plpgsql
volatile
set search_path = ''
as $$
declare
  s text := lower(coalesce(base, ''));
begin
  s := btrim(regexp_replace(s, '[^a-z0-9]+', '-', 'g'), '-');
  s := btrim(left(s, 40), '-');
  if s = '' then
    s := 'team';
  end if;
  return s || '-' || substr(md5(gen_random_uuid()::text), 1, 6);
end;
$$;
comment on function private.generate_team_slug(text) is 'A URL-safe, probably-unique slug from a name (ASCII part + 6 random hex characters).';

revoke execute on all functions in schema private from public;
grant execute on all functions in schema private to authenticated, service_role;

-- triggers --------------------------------------------------------------------
create trigger teams_set_timestamps before insert or update on public.teams
  for each row execute function private.set_timestamps();
create trigger team_members_set_timestamps before insert or update on public.team_members
  for each row execute function private.set_timestamps();

-- The creator of a team becomes its first owner (basejump's add_current_user_to_new_account).
create function private.add_team_creator_as_owner() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.created_by is not null then
    insert into public.team_members (team_id, user_id, role)
    values (new.id, new.created_by, 'owner')
    on conflict (team_id, user_id) do update set role = 'owner';
  end if;
  return new;
end;
$$;
create trigger on_team_created after insert on public.teams
  for each row execute function private.add_team_creator_as_owner();

-- Fields a client must not change (basejump's protect_account_fields). Only
-- client roles are stopped: migrations, the service role and security-definer
-- RPCs run as other roles.
create function private.protect_team_fields() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') then
    if new.id is distinct from old.id then
      raise exception 'The id of a team cannot be changed' using errcode = '42501';
    end if;
    if new.personal is distinct from old.personal then
      raise exception 'Whether a team is personal cannot be changed' using errcode = '42501';
    end if;
    if new.created_by is distinct from old.created_by then
      raise exception 'The creator of a team cannot be changed' using errcode = '42501';
    end if;
  end if;
  return new;
end;
$$;
create trigger protect_team_fields before update on public.teams
  for each row execute function private.protect_team_fields();

create function private.protect_team_member_fields() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') then
    if new.team_id is distinct from old.team_id then
      raise exception 'A membership cannot be moved to another team' using errcode = '42501';
    end if;
    if new.user_id is distinct from old.user_id then
      raise exception 'A membership cannot be given to another user' using errcode = '42501';
    end if;
  end if;
  return new;
end;
$$;
create trigger protect_team_member_fields before update on public.team_members
  for each row execute function private.protect_team_member_fields();

-- The last owner cannot leave or be demoted, whoever asks. Deleting the whole
-- team (its memberships cascade) is allowed. The team row is locked so two
-- owners demoting each other at once cannot both succeed.
create function private.keep_last_team_owner() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.role <> 'owner' then
    return coalesce(new, old);
  end if;
  if tg_op = 'UPDATE' and new.role = 'owner' and new.team_id = old.team_id then
    return new;
  end if;
  perform 1 from public.teams t where t.id = old.team_id for update;
  if not found then
    -- the team itself is being deleted
    return coalesce(new, old);
  end if;
  if not exists (
    select 1 from public.team_members tm
    where tm.team_id = old.team_id and tm.role = 'owner' and tm.id <> old.id
  ) then
    raise exception 'A team must keep at least one owner: make another member owner first, or delete the team'
      using errcode = 'P0001', hint = 'last_owner';
  end if;
  return coalesce(new, old);
end;
$$;
create trigger keep_last_team_owner before update or delete on public.team_members
  for each row execute function private.keep_last_team_owner();

-- policies: teams -------------------------------------------------------------
create policy "Team members can read their teams" on public.teams
  for select to authenticated
  using ((select private.has_team_role(id)));

create policy "Platform admins can read all teams" on public.teams
  for select to authenticated
  using ((select private.is_platform_admin()));

create policy "Signed-in users can create teams they own" on public.teams
  for insert to authenticated
  with check (
    created_by = (select auth.uid())
    and personal = false
    and not (select private.is_anonymous_user())
  );

create policy "Team owners can update their teams" on public.teams
  for update to authenticated
  using ((select private.has_team_role(id, 'owner')))
  with check ((select private.has_team_role(id, 'owner')));

create policy "Team owners can delete their shared teams" on public.teams
  for delete to authenticated
  using (personal = false and (select private.has_team_role(id, 'owner')));

-- policies: team_members -------------------------------------------------------
-- No insert policy: people join through invitations (accept_invitation) and
-- creators through the on_team_created trigger.
create policy "Team members can read their team's members" on public.team_members
  for select to authenticated
  using ((select private.has_team_role(team_id)));

create policy "Platform admins can read all team members" on public.team_members
  for select to authenticated
  using ((select private.is_platform_admin()));

create policy "Team owners can change member roles" on public.team_members
  for update to authenticated
  using ((select private.has_team_role(team_id, 'owner')))
  with check ((select private.has_team_role(team_id, 'owner')));

create policy "Team owners can remove members" on public.team_members
  for delete to authenticated
  using ((select private.has_team_role(team_id, 'owner')));

create policy "Members can leave a team" on public.team_members
  for delete to authenticated
  using (user_id = (select auth.uid()));

-- RPCs ------------------------------------------------------------------------
create function public.create_team(name text, slug text default null) returns public.teams
language plpgsql
security invoker
set search_path = ''
as $$
declare
  new_id uuid := gen_random_uuid();
  result public.teams;
begin
  if (select auth.uid()) is null then
    raise exception 'Sign in to create a team' using errcode = '42501';
  end if;
  if (select private.is_anonymous_user()) then
    raise exception 'Guest users cannot create teams: sign up first' using errcode = '42501';
  end if;
  -- No RETURNING: the creator can read the team only once on_team_created has
  -- added the membership, at the end of the insert.
  insert into public.teams (id, name, slug, personal, created_by)
  values (
    new_id,
    btrim(create_team.name),
    coalesce(nullif(lower(btrim(create_team.slug)), ''), private.generate_team_slug(create_team.name)),
    false,
    (select auth.uid())
  );
  select t.* into result from public.teams t where t.id = new_id;
  return result;
end;
$$;
comment on function public.create_team(text, text) is 'Creates a shared team with the caller as owner. slug defaults to one made from the name.';

create function public.change_member_role(team_id uuid, user_id uuid, role public.team_role) returns void
language plpgsql
security invoker
set search_path = ''
as $$
begin
  if not (select private.has_team_role(change_member_role.team_id, 'owner')) then
    raise exception 'Only team owners can change member roles' using errcode = '42501';
  end if;
  update public.team_members tm
  set role = change_member_role.role
  where tm.team_id = change_member_role.team_id and tm.user_id = change_member_role.user_id;
  if not found then
    raise exception 'This user is not a member of the team' using errcode = 'P0002';
  end if;
end;
$$;
comment on function public.change_member_role(uuid, uuid, public.team_role) is 'Owners: set a member''s role. The last owner cannot be demoted.';

create function public.remove_team_member(team_id uuid, user_id uuid) returns void
language plpgsql
security invoker
set search_path = ''
as $$
begin
  if remove_team_member.user_id is distinct from (select auth.uid())
     and not (select private.has_team_role(remove_team_member.team_id, 'owner')) then
    raise exception 'Only team owners can remove other members' using errcode = '42501';
  end if;
  delete from public.team_members tm
  where tm.team_id = remove_team_member.team_id and tm.user_id = remove_team_member.user_id;
  if not found then
    raise exception 'This user is not a member of the team' using errcode = 'P0002';
  end if;
end;
$$;
comment on function public.remove_team_member(uuid, uuid) is 'Owners remove a member; anyone may remove themselves (leave). The last owner cannot leave.';

create function public.transfer_team_ownership(team_id uuid, new_owner_id uuid) returns void
language plpgsql
security invoker
set search_path = ''
as $$
begin
  if not (select private.has_team_role(transfer_team_ownership.team_id, 'owner')) then
    raise exception 'Only team owners can transfer ownership' using errcode = '42501';
  end if;
  if transfer_team_ownership.new_owner_id = (select auth.uid()) then
    raise exception 'You already own this team' using errcode = '22023';
  end if;
  -- Promote first, so the team is never without an owner.
  update public.team_members tm
  set role = 'owner'
  where tm.team_id = transfer_team_ownership.team_id and tm.user_id = transfer_team_ownership.new_owner_id;
  if not found then
    raise exception 'The new owner must already be a member of the team' using errcode = 'P0002';
  end if;
  update public.team_members tm
  set role = 'admin'
  where tm.team_id = transfer_team_ownership.team_id and tm.user_id = (select auth.uid());
end;
$$;
comment on function public.transfer_team_ownership(uuid, uuid) is 'Owners: make another member owner and become an admin.';

-- grants ----------------------------------------------------------------------
revoke execute on function public.create_team(text, text) from public, anon;
revoke execute on function public.change_member_role(uuid, uuid, public.team_role) from public, anon;
revoke execute on function public.remove_team_member(uuid, uuid) from public, anon;
revoke execute on function public.transfer_team_ownership(uuid, uuid) from public, anon;
grant execute on function public.create_team(text, text) to authenticated;
grant execute on function public.change_member_role(uuid, uuid, public.team_role) to authenticated;
grant execute on function public.remove_team_member(uuid, uuid) to authenticated;
grant execute on function public.transfer_team_ownership(uuid, uuid) to authenticated;

-- Clients never add memberships directly (see policies); make that explicit.
revoke insert, truncate, references, trigger on public.team_members from anon, authenticated;
revoke truncate, references, trigger on public.teams from anon, authenticated;
