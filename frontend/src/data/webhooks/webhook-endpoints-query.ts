import { useQuery } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { webhookKeys } from "./keys";
import { ENDPOINT_COLUMNS, type WebhookEndpoint } from "./types";

export async function fetchWebhookEndpoints(botId: string): Promise<WebhookEndpoint[]> {
  return unwrap(await (await loadSupabase()).from("webhook_endpoints").select(ENDPOINT_COLUMNS).eq("bot_id", botId).order("created_at")) ?? [];
}

export function useWebhookEndpointsQuery(botId: string) {
  return useQuery({ queryKey: webhookKeys.endpoints(botId), queryFn: () => fetchWebhookEndpoints(botId) });
}
