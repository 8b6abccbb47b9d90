-- Inviting someone to a team that has as many members as its plan allows is refused when the
-- invitation is made, with the plan limit error (PT402, hint plan_limit, detail members), not
-- only when the invitee tries to accept (billing, issue 22). Pending invitations are not counted:
-- accepting still checks the limit (private.enforce_plan_limits on team_members).
create function private.enforce_member_limit_on_invitation() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.check_plan_limit(new.team_id, 'members', 1);
  return new;
end;
$$;
comment on function private.enforce_member_limit_on_invitation() is
  'Trigger: an invitation to a team already at its plan''s member limit is refused (PT402).';
revoke execute on function private.enforce_member_limit_on_invitation() from public;

create trigger enforce_member_limit_on_invitation before insert on public.team_invitations
  for each row execute function private.enforce_member_limit_on_invitation();
