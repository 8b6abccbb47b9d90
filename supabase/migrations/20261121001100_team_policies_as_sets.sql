-- Team-scoped policies as set membership: `team_id in (select private.get_teams_with_role(...))`
-- is evaluated once per statement (an initplan), where `(select private.has_team_role(team_id))`
-- ran a lookup for every row. Same rules, measured in bench/gateway.

alter policy "Team members can read their teams" on public.teams
  using (id in (select private.get_teams_with_role()));

alter policy "Team owners can update their teams" on public.teams
  using (id in (select private.get_teams_with_role('owner'))) with check (id in (select private.get_teams_with_role('owner')));

alter policy "Team members can read their team's members" on public.team_members
  using (team_id in (select private.get_teams_with_role()));

alter policy "Team owners can change member roles" on public.team_members
  using (team_id in (select private.get_teams_with_role('owner'))) with check (team_id in (select private.get_teams_with_role('owner')));

alter policy "Team owners can remove members" on public.team_members
  using (team_id in (select private.get_teams_with_role('owner')));

alter policy "Team owners can read their team's invitations" on public.team_invitations
  using (team_id in (select private.get_teams_with_role('owner')));

alter policy "Team owners can revoke invitations" on public.team_invitations
  using (team_id in (select private.get_teams_with_role('owner')));

alter policy "Team members can read their team's bots" on public.bots
  using (team_id in (select private.get_teams_with_role()));

alter policy "Team admins can create bots" on public.bots
  with check (team_id in (select private.get_teams_with_role('admin')));

alter policy "Team admins can update bots" on public.bots
  using (team_id in (select private.get_teams_with_role('admin'))) with check (team_id in (select private.get_teams_with_role('admin')));

alter policy "Team admins can delete bots" on public.bots
  using (team_id in (select private.get_teams_with_role('admin')));
