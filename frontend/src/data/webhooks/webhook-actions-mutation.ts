// "Send a test event", "redeliver" and "redeliver all failed": RPCs that queue work for the
// deliver worker (Postgres checks the caller's role).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { webhookKeys } from "./keys";

export type WebhookAction = { kind: "test"; endpointId: string } | { kind: "redeliver"; deliveryId: string } | { kind: "redeliver-failed"; endpointId: string };

export async function runWebhookAction(a: WebhookAction & { botId: string }): Promise<void> {
  const db = await loadSupabase();
  if (a.kind === "test") unwrap(await db.rpc("send_test_webhook", { endpoint_id: a.endpointId }));
  else if (a.kind === "redeliver") unwrap(await db.rpc("redeliver_webhook", { delivery_id: a.deliveryId }));
  else unwrap(await db.rpc("redeliver_failed_webhooks", { endpoint_id: a.endpointId }));
}

export function useWebhookActionMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: runWebhookAction, onSuccess: (_r, v) => qc.invalidateQueries({ queryKey: webhookKeys.allDeliveries(v.botId) }) });
}
