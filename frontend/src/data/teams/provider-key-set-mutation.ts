import { useMutation, useQueryClient } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import type { KeyProvider } from "../bots/types";
import { teamKeys } from "./keys";

export interface ProviderKeyInput {
  teamId: string;
  provider: KeyProvider;
  /** null keeps the stored key (a base URL change only). */
  apiKey: string | null;
  baseUrl: string | null;
}

export async function setProviderKey(v: ProviderKeyInput): Promise<void> {
  // The generated Args say `string`; the SQL function reads null as "keep" / "none".
  const args: { team_id: string; provider: string; api_key: string; base_url?: string } = { team_id: v.teamId, provider: v.provider, api_key: v.apiKey as string, base_url: v.baseUrl as string };
  unwrap(await (await loadSupabase()).rpc("set_team_provider_key", args));
}

export function useSetProviderKeyMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: setProviderKey, onSuccess: (_d, v) => qc.invalidateQueries({ queryKey: teamKeys.providerKeys(v.teamId) }) });
}
