import { useQuery } from "@tanstack/react-query";
import { getSupabase } from "../../lib/supabase";
import { channelKeys } from "./keys";
import { toAppError, type CredentialStatus } from "./types";

/** Which of the channel's secrets are set (never their values). */
export async function fetchCredentialStatus(channelId: string): Promise<CredentialStatus[]> {
  const { data, error } = await getSupabase().rpc("channel_credential_status", { channel_id: channelId });
  if (error) throw toAppError(error);
  return data ?? [];
}

export function useCredentialStatusQuery(channelId: string) {
  return useQuery({ queryKey: channelKeys.credentials(channelId), queryFn: () => fetchCredentialStatus(channelId) });
}
