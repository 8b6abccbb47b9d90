import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { TeamInviteAnswer, TeamInviteRequest } from "@shared/contracts/team-invite.ts";
import type { TeamRole } from "../../lib/database";
import { callFunction } from "../../lib/functions";
import { invitationKeys } from "./keys";

export interface InviteInput {
  teamId: string;
  email: string;
  role: TeamRole;
  locale: NonNullable<TeamInviteRequest["locale"]>;
}

/** Invites (or re-invites: a new token replaces the pending one) through the team-invite function. */
export function sendInvitation(v: InviteInput): Promise<TeamInviteAnswer> {
  const body: TeamInviteRequest = { team_id: v.teamId, email: v.email, role: v.role, locale: v.locale };
  return callFunction<TeamInviteAnswer>("team-invite", body);
}

export function useSendInvitationMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: sendInvitation, onSettled: (_d, _e, v) => qc.invalidateQueries({ queryKey: invitationKeys.team(v.teamId) }) });
}
