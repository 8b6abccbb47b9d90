import { useMutation, useQueryClient } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { webhookKeys } from "./keys";

export interface NewEndpoint {
  botId: string;
  url: string;
  events: string[];
  description: string | null;
}

export async function createWebhookEndpoint(e: NewEndpoint): Promise<string> {
  const row = unwrap(await (await loadSupabase()).from("webhook_endpoints")
    .insert({ bot_id: e.botId, url: e.url, events: e.events, description: e.description }).select("id").single());
  return row.id;
}

export function useCreateWebhookEndpointMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: createWebhookEndpoint, onSuccess: (_r, v) => qc.invalidateQueries({ queryKey: webhookKeys.endpoints(v.botId) }) });
}
