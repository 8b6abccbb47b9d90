import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toAppError } from "./errors";
import { teamKeys } from "./keys";

export const PROVIDERS = ["openai", "anthropic", "google", "mistral", "groq", "openai_compatible"] as const;
export type Provider = (typeof PROVIDERS)[number];

export interface ProviderKey {
  provider: Provider;
  has_api_key: boolean;
  api_key_last4: string | null;
  base_url: string | null;
  updated_at: string;
}

export async function fetchProviderKeys(teamId: string): Promise<ProviderKey[]> {
  const { getSupabase } = await import("../../lib/supabase");
  const { data, error } = await getSupabase().rpc("list_team_provider_keys", { team_id: teamId });
  if (error) throw toAppError(error);
  return (data ?? []) as ProviderKey[];
}

export async function setProviderKey(v: { teamId: string; provider: Provider; apiKey: string | null; baseUrl: string | null }): Promise<void> {
  const { getSupabase } = await import("../../lib/supabase");
  const { error } = await getSupabase().rpc("set_team_provider_key", { team_id: v.teamId, provider: v.provider, api_key: v.apiKey, base_url: v.baseUrl });
  if (error) throw toAppError(error);
}

export async function removeProviderKey(v: { teamId: string; provider: Provider }): Promise<void> {
  const { getSupabase } = await import("../../lib/supabase");
  const { error } = await getSupabase().rpc("remove_team_provider_key", { team_id: v.teamId, provider: v.provider });
  if (error) throw toAppError(error);
}

export function useProviderKeysQuery(teamId: string, enabled = true) {
  return useQuery({ queryKey: teamKeys.providerKeys(teamId), queryFn: () => fetchProviderKeys(teamId), enabled });
}

export function useSetProviderKeyMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: setProviderKey, onSuccess: (_d, v) => qc.invalidateQueries({ queryKey: teamKeys.providerKeys(v.teamId) }) });
}

export function useRemoveProviderKeyMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: removeProviderKey, onSuccess: (_d, v) => qc.invalidateQueries({ queryKey: teamKeys.providerKeys(v.teamId) }) });
}
