// Secret header values: the app only learns which names are set, and sets or removes them.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { powerUpKeys } from "./keys";

export async function fetchSecretNames(id: string): Promise<string[]> {
  const rows = unwrap(await (await loadSupabase()).rpc("power_up_secret_names", { power_up_id: id }));
  return (rows ?? []).map((r) => r.name);
}

export function useSecretNamesQuery(id: string) {
  return useQuery({ queryKey: powerUpKeys.secrets(id), queryFn: () => fetchSecretNames(id) });
}

export async function setSecret(v: { id: string; name: string; value: string }): Promise<void> {
  unwrap(await (await loadSupabase()).rpc("set_power_up_secret", { power_up_id: v.id, name: v.name, value: v.value }));
}

export function useSetSecretMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: setSecret, onSuccess: (_r, v) => void qc.invalidateQueries({ queryKey: powerUpKeys.secrets(v.id) }) });
}
