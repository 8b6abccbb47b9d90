-- Pending invitations count against a team's member limit when another invitation is made
-- (billing, issue 22; refines 20261128050300_invitations_within_plan): with 4 of 5 seats taken,
-- a second open invitation is refused, so a team cannot hand out more invitations than it has
-- seats. Inviting the same address again replaces its pending invitation (invite_team_member
-- deletes it first) and so needs no extra seat; expired invitations hold none. Accepting still
-- checks the members themselves (private.enforce_plan_limits on team_members).
create or replace function private.enforce_member_limit_on_invitation() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.check_plan_limit(new.team_id, 'members', 1 + (
    select count(*) from public.team_invitations i
    where i.team_id = new.team_id and i.accepted_at is null and i.expires_at > now() and i.email <> new.email
  ));
  return new;
end;
$$;
comment on function private.enforce_member_limit_on_invitation() is
  'Trigger: an invitation is refused (PT402) when the members plus the open invitations (other addresses) would exceed the plan''s member limit.';
revoke execute on function private.enforce_member_limit_on_invitation() from public;
