import { useQuery } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { webhookKeys } from "./keys";
import { DELIVERY_COLUMNS, type WebhookDelivery } from "./types";

/** The latest 50 deliveries of the bot (or of one endpoint), newest first; refreshed every 5 s while pending ones exist. */
export async function fetchWebhookDeliveries(botId: string, endpointId: string | null): Promise<WebhookDelivery[]> {
  let q = (await loadSupabase()).from("webhook_deliveries").select(DELIVERY_COLUMNS).eq("bot_id", botId);
  if (endpointId) q = q.eq("endpoint_id", endpointId);
  return unwrap(await q.order("created_at", { ascending: false }).limit(50)) ?? [];
}

export function useWebhookDeliveriesQuery(botId: string, endpointId: string | null) {
  return useQuery({
    queryKey: webhookKeys.deliveries(botId, endpointId),
    queryFn: () => fetchWebhookDeliveries(botId, endpointId),
    refetchInterval: (q) => (q.state.data?.some((d) => d.status === "pending") ? 5000 : false),
  });
}
