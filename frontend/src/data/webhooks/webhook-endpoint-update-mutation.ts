import { useMutation, useQueryClient } from "@tanstack/react-query";
import { refused, toAppError } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { webhookKeys } from "./keys";

export interface EndpointChange {
  id: string;
  botId: string;
  patch: { url?: string; events?: string[]; enabled?: boolean; description?: string | null };
}

export async function updateWebhookEndpoint({ id, patch }: EndpointChange): Promise<void> {
  const { error, count } = await (await loadSupabase()).from("webhook_endpoints").update(patch, { count: "exact" }).eq("id", id);
  if (error) throw toAppError(error);
  if (count === 0) throw refused("This endpoint no longer exists or you may not change it.");
}

export function useUpdateWebhookEndpointMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: updateWebhookEndpoint, onSuccess: (_r, v) => qc.invalidateQueries({ queryKey: webhookKeys.endpoints(v.botId) }) });
}
