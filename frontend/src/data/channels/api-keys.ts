// API keys of the HTTP API channel: listed without their hash, created by create_api_key
// (the key is in that answer only), revoked by setting revoked_at.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getSupabase } from "../../lib/supabase";
import { channelKeys } from "./keys";
import { API_KEY_COLUMNS, toAppError, type ApiKey, type NewApiKey } from "./types";

export async function fetchApiKeys(botId: string): Promise<ApiKey[]> {
  const { data, error } = await getSupabase().from("api_keys").select(API_KEY_COLUMNS).eq("bot_id", botId).order("created_at", { ascending: false });
  if (error) throw toAppError(error);
  return data ?? [];
}

export function useApiKeysQuery(botId: string) {
  return useQuery({ queryKey: channelKeys.apiKeys(botId), queryFn: () => fetchApiKeys(botId) });
}

export async function createApiKey(input: { botId: string; name: string; ratePerMinute: number }): Promise<NewApiKey> {
  const { data, error } = await getSupabase().rpc("create_api_key", { bot_id: input.botId, name: input.name.trim(), rate_limit_per_minute: input.ratePerMinute });
  if (error) throw toAppError(error);
  const row = data?.[0];
  if (!row) throw toAppError({ code: "request_failed" });
  return row;
}

export function useCreateApiKeyMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: createApiKey, onSuccess: (_r, v) => qc.invalidateQueries({ queryKey: channelKeys.apiKeys(v.botId) }) });
}

export async function revokeApiKey({ id }: { id: string; botId: string }): Promise<void> {
  const { error } = await getSupabase().from("api_keys").update({ revoked_at: new Date().toISOString() }).eq("id", id);
  if (error) throw toAppError(error);
}

export function useRevokeApiKeyMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: revokeApiKey, onSuccess: (_r, v) => qc.invalidateQueries({ queryKey: channelKeys.apiKeys(v.botId) }) });
}
