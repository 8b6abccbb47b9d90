import { useQuery } from "@tanstack/react-query";
import type { Tables } from "../../lib/database";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { invitationKeys } from "./keys";

export type PendingInvitation = Pick<Tables<"team_invitations">, "id" | "email" | "role" | "expires_at" | "created_at">;

/** Pending invitations of a team (owners only: RLS returns nothing to others). */
export async function fetchPendingInvitations(teamId: string): Promise<PendingInvitation[]> {
  const db = await loadSupabase();
  return unwrap(await db.from("team_invitations").select("id, email, role, expires_at, created_at").eq("team_id", teamId).is("accepted_at", null).order("created_at", { ascending: false })) ?? [];
}

export function usePendingInvitationsQuery(teamId: string, enabled = true) {
  return useQuery({ queryKey: invitationKeys.team(teamId), queryFn: () => fetchPendingInvitations(teamId), enabled });
}
