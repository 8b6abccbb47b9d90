import { useMutation, useQueryClient } from "@tanstack/react-query";
import { refused, toAppError } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { webhookKeys } from "./keys";

export async function deleteWebhookEndpoint({ id }: { id: string; botId: string }): Promise<void> {
  const { error, count } = await (await loadSupabase()).from("webhook_endpoints").delete({ count: "exact" }).eq("id", id);
  if (error) throw toAppError(error);
  if (count === 0) throw refused("This endpoint no longer exists or you may not delete it.");
}

export function useDeleteWebhookEndpointMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhookEndpoint,
    onSuccess: (_r, v) => {
      void qc.invalidateQueries({ queryKey: webhookKeys.allDeliveries(v.botId) });
      return qc.invalidateQueries({ queryKey: webhookKeys.endpoints(v.botId) });
    },
  });
}
