-- Not-found errors of the team RPCs answer HTTP 404 instead of 500: PostgREST
-- maps SQLSTATE P0002 to 500, but any 'PTxxx' state to HTTP status xxx. Same
-- functions, same checks and messages; only those error codes change.

create or replace function public.change_member_role(team_id uuid, user_id uuid, role public.team_role) returns void
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
    raise exception 'This user is not a member of the team' using errcode = 'PT404';
  end if;
end;
$$;

create or replace function public.remove_team_member(team_id uuid, user_id uuid) returns void
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
    raise exception 'This user is not a member of the team' using errcode = 'PT404';
  end if;
end;
$$;

create or replace function public.transfer_team_ownership(team_id uuid, new_owner_id uuid) returns void
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
    raise exception 'The new owner must already be a member of the team' using errcode = 'PT404';
  end if;
  update public.team_members tm
  set role = 'admin'
  where tm.team_id = transfer_team_ownership.team_id and tm.user_id = (select auth.uid());
end;
$$;

create or replace function public.accept_invitation(token text) returns uuid
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
    raise exception 'This invitation link is not valid' using errcode = 'PT404';
  end if;

  select ti.* into inv
  from public.team_invitations ti
  where ti.token_hash = private.hash_invitation_token(accept_invitation.token)
  for update;
  if not found then
    raise exception 'This invitation link is not valid' using errcode = 'PT404';
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
