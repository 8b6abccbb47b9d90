import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { callFunction, toAppError } from "../teams/errors";
import type { TeamRole } from "../teams/my-teams-query";
import { invitationKeys } from "./keys";

export interface PendingInvitation {
  id: string;
  email: string;
  role: TeamRole;
  expires_at: string;
  created_at: string;
}

/** Pending invitations of a team (owners only: RLS returns nothing to others). */
export async function fetchPendingInvitations(teamId: string): Promise<PendingInvitation[]> {
  const { getSupabase } = await import("../../lib/supabase");
  const { data, error } = await getSupabase()
    .from("team_invitations")
    .select("id, email, role, expires_at, created_at")
    .eq("team_id", teamId)
    .is("accepted_at", null)
    .order("created_at", { ascending: false });
  if (error) throw toAppError(error);
  return (data ?? []) as PendingInvitation[];
}

export interface InviteInput {
  teamId: string;
  email: string;
  role: TeamRole;
  locale: string;
}

/** Invites (or re-invites: a new token replaces the pending one) through the team-invite function. */
export function sendInvitation(v: InviteInput) {
  return callFunction<{ ok: true; delivery: "invite" | "sign_in_link" }>("team-invite", { team_id: v.teamId, email: v.email, role: v.role, locale: v.locale });
}

export async function revokeInvitation(v: { teamId: string; id: string }): Promise<void> {
  const { getSupabase } = await import("../../lib/supabase");
  const { data, error } = await getSupabase().from("team_invitations").delete().eq("id", v.id).select("id");
  if (error) throw toAppError(error);
  if (!data?.length) throw toAppError({ message: "Only team owners can revoke invitations", code: "42501" });
}

export function usePendingInvitationsQuery(teamId: string, enabled = true) {
  return useQuery({ queryKey: invitationKeys.team(teamId), queryFn: () => fetchPendingInvitations(teamId), enabled });
}

export function useSendInvitationMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: sendInvitation, onSettled: (_d, _e, v) => qc.invalidateQueries({ queryKey: invitationKeys.team(v.teamId) }) });
}

export function useRevokeInvitationMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: revokeInvitation, onSuccess: (_d, v) => qc.invalidateQueries({ queryKey: invitationKeys.team(v.teamId) }) });
}
