import { useMutation, useQueryClient } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import type { KeyProvider } from "../bots/types";
import { teamKeys } from "./keys";

export async function removeProviderKey(v: { teamId: string; provider: KeyProvider }): Promise<void> {
  unwrap(await (await loadSupabase()).rpc("remove_team_provider_key", { team_id: v.teamId, provider: v.provider }));
}

export function useRemoveProviderKeyMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: removeProviderKey, onSuccess: (_d, v) => qc.invalidateQueries({ queryKey: teamKeys.providerKeys(v.teamId) }) });
}
