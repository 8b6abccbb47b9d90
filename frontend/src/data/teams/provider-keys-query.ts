import { useQuery } from "@tanstack/react-query";
import type { RpcRow } from "../../lib/database";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { KEY_PROVIDERS, type KeyProvider } from "../bots/types";
import { teamKeys } from "./keys";

/** A team's key for one provider, without the key (list_team_provider_keys shows its last four). */
export type ProviderKey = Omit<RpcRow<"list_team_provider_keys">, "provider" | "api_key_last4" | "base_url"> & {
  provider: KeyProvider;
  api_key_last4: string | null;
  base_url: string | null;
};

const isKeyProvider = (p: string): p is KeyProvider => (KEY_PROVIDERS as readonly string[]).includes(p);

export async function fetchProviderKeys(teamId: string): Promise<ProviderKey[]> {
  const rows = unwrap(await (await loadSupabase()).rpc("list_team_provider_keys", { team_id: teamId })) ?? [];
  return rows.flatMap((r) => (isKeyProvider(r.provider) ? [{ ...r, provider: r.provider }] : []));
}

export function useProviderKeysQuery(teamId: string, enabled = true) {
  return useQuery({ queryKey: teamKeys.providerKeys(teamId), queryFn: () => fetchProviderKeys(teamId), enabled });
}
