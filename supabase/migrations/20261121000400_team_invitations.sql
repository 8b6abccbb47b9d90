-- Team invitations: an owner invites an email address with a role; the raw token
-- is returned once by invite_team_member() (for the invitation email) and only
-- its sha256 is stored. accept_invitation() lets the signed-in user whose email
-- matches join the team. Inviting the same address again replaces the pending
-- invitation (that is "resend"); deleting it is "revoke".

-- tables ----------------------------------------------------------------------
create table public.team_invitations (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references public.teams (id) on delete cascade,
  email text not null check (email = lower(email) and char_length(email) <= 320 and email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'),
  role public.team_role not null default 'admin',
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  expires_at timestamptz not null default now() + interval '7 days',
  accepted_at timestamptz,
  accepted_by uuid references auth.users (id) on delete set null,
  invited_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);
comment on table public.team_invitations is 'Pending and accepted invitations to a team. token_hash is the sha256 (hex) of the token; the token itself is never stored.';

create index team_invitations_team_id_idx on public.team_invitations (team_id);
create index team_invitations_email_idx on public.team_invitations (email);

alter table public.team_invitations enable row level security;

-- helper functions ------------------------------------------------------------
create function private.hash_invitation_token(token text) returns text
language sql
immutable
set search_path = ''
as $$
  select encode(extensions.digest(convert_to(hash_invitation_token.token, 'UTF8'), 'sha256'), 'hex');
$$;
comment on function private.hash_invitation_token(text) is 'sha256 hex of an invitation token, as stored in team_invitations.token_hash.';
revoke execute on function private.hash_invitation_token(text) from public;
grant execute on function private.hash_invitation_token(text) to authenticated, service_role;

-- policies --------------------------------------------------------------------
-- No update policy: an invitation changes only by being accepted (accept_invitation).
create policy "Team owners can read their team's invitations" on public.team_invitations
  for select to authenticated
  using ((select private.has_team_role(team_id, 'owner')));

create policy "Platform admins can read all invitations" on public.team_invitations
  for select to authenticated
  using ((select private.is_platform_admin()));

create policy "Team owners can create invitations" on public.team_invitations
  for insert to authenticated
  with check (
    (select private.has_team_role(team_id, 'owner'))
    and invited_by = (select auth.uid())
    and accepted_at is null
    and accepted_by is null
  );

create policy "Team owners can revoke invitations" on public.team_invitations
  for delete to authenticated
  using ((select private.has_team_role(team_id, 'owner')));

-- RPCs ------------------------------------------------------------------------
create function public.invite_team_member(team_id uuid, email text, role public.team_role default 'admin') returns text
language plpgsql
security invoker
set search_path = ''
as $$
declare
  clean_email text := lower(btrim(invite_team_member.email));
  token text;
begin
  if not (select private.has_team_role(invite_team_member.team_id, 'owner')) then
    raise exception 'Only team owners can invite members' using errcode = '42501';
  end if;
  if exists (select 1 from public.teams t where t.id = invite_team_member.team_id and t.personal) then
    raise exception 'A personal team cannot have other members: create a team first' using errcode = '22023';
  end if;
  if clean_email is null or clean_email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' or char_length(clean_email) > 320 then
    raise exception 'This is not a valid email address' using errcode = '22023';
  end if;
  if invite_team_member.role is null then
    raise exception 'Choose a role for the invitation' using errcode = '22023';
  end if;

  -- Inviting again replaces the pending invitation (resend with a fresh token).
  delete from public.team_invitations ti
  where ti.team_id = invite_team_member.team_id and ti.email = clean_email and ti.accepted_at is null;

  token := encode(extensions.gen_random_bytes(32), 'hex');
  insert into public.team_invitations (team_id, email, role, token_hash, invited_by)
  values (invite_team_member.team_id, clean_email, invite_team_member.role,
          private.hash_invitation_token(token), (select auth.uid()));
  return token;
end;
$$;
comment on function public.invite_team_member(uuid, text, public.team_role) is
  'Owners: invite an email address. Returns the raw token once (it goes into the invitation link); only its hash is stored.';

-- Security definer: the invitee is not a member yet, so neither the invitation
-- nor team_members is writable for them under RLS. Every check is explicit here.
create function public.accept_invitation(token text) returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  uid uuid := (select auth.uid());
  user_email text;
  inv public.team_invitations;
begin
  if uid is null then
    raise exception 'Sign in to accept an invitation' using errcode = '42501';
  end if;
  if accept_invitation.token is null or char_length(accept_invitation.token) not between 16 and 200 then
    raise exception 'This invitation link is not valid' using errcode = 'P0002';
  end if;

  select ti.* into inv
  from public.team_invitations ti
  where ti.token_hash = private.hash_invitation_token(accept_invitation.token)
  for update;
  if not found then
    raise exception 'This invitation link is not valid' using errcode = 'P0002';
  end if;
  if inv.accepted_at is not null then
    raise exception 'This invitation has already been used' using errcode = '22023';
  end if;
  if inv.expires_at <= now() then
    raise exception 'This invitation has expired: ask the team owner for a new one' using errcode = '22023';
  end if;

  select lower(u.email) into user_email from auth.users u where u.id = uid;
  if user_email is null or user_email <> inv.email then
    raise exception 'This invitation was sent to another email address' using errcode = '42501';
  end if;

  -- An existing member keeps their role (an owner is never demoted by an invitation).
  insert into public.team_members (team_id, user_id, role)
  values (inv.team_id, uid, inv.role)
  on conflict (team_id, user_id) do nothing;

  update public.team_invitations ti
  set accepted_at = now(), accepted_by = uid
  where ti.id = inv.id;
  return inv.team_id;
end;
$$;
comment on function public.accept_invitation(text) is 'Joins the team of the invitation for the signed-in user whose email it was sent to. Returns the team id.';

-- What the invitation page shows before accepting. Security definer for the
-- same reason as accept_invitation; it reveals only the team name and role to
-- whoever holds the token.
create function public.get_invitation(token text)
returns table (team_id uuid, team_name text, email text, role public.team_role, expires_at timestamptz, accepted boolean)
language sql
stable
security definer
set search_path = ''
as $$
  select ti.team_id, t.name, ti.email, ti.role, ti.expires_at, ti.accepted_at is not null
  from public.team_invitations ti
  join public.teams t on t.id = ti.team_id
  where (select auth.uid()) is not null
    and ti.token_hash = private.hash_invitation_token(get_invitation.token);
$$;
comment on function public.get_invitation(text) is 'Signed-in users: the team name, email and role behind an invitation token.';

-- grants ----------------------------------------------------------------------
revoke execute on function public.invite_team_member(uuid, text, public.team_role) from public, anon;
revoke execute on function public.accept_invitation(text) from public, anon;
revoke execute on function public.get_invitation(text) from public, anon;
grant execute on function public.invite_team_member(uuid, text, public.team_role) to authenticated;
grant execute on function public.accept_invitation(text) to authenticated;
grant execute on function public.get_invitation(text) to authenticated;

revoke update, truncate, references, trigger on public.team_invitations from anon, authenticated;
