// The invitation behind an e-mailed token, and accepting it (both SQL functions check that the
// signed-in address is the invited one). The client is passed in: the invite screen's tests
// hand in a fake one through the auth screens' dependencies.
import { useQuery } from "@tanstack/react-query";
import type { RpcRow } from "../../lib/database";
import { unwrap } from "../../lib/errors";
import type { AppSupabaseClient } from "../../lib/supabase";
import { invitationKeys } from "./keys";

export type Invitation = RpcRow<"get_invitation">;

export async function fetchInvitation(client: AppSupabaseClient, token: string): Promise<Invitation | null> {
  return (unwrap(await client.rpc("get_invitation", { token })) ?? [])[0] ?? null;
}

export function useInvitationQuery(client: () => Promise<AppSupabaseClient>, token: string, enabled: boolean) {
  return useQuery({ queryKey: invitationKeys.byToken(token), enabled: enabled && token.length > 0, queryFn: async () => fetchInvitation(await client(), token) });
}

/** Joins the team; resolves with its id. */
export async function acceptInvitation(client: AppSupabaseClient, token: string): Promise<string> {
  return unwrap(await client.rpc("accept_invitation", { token }));
}
