// The signing secret is never cached: shown on demand (get_webhook_secret) or replaced (rotate).
import { useMutation } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";

export async function revealWebhookSecret({ id, rotate }: { id: string; rotate: boolean }): Promise<string> {
  const db = await loadSupabase();
  return unwrap(rotate ? await db.rpc("rotate_webhook_secret", { endpoint_id: id }) : await db.rpc("get_webhook_secret", { endpoint_id: id }));
}

export function useWebhookSecretMutation() {
  return useMutation({ mutationFn: revealWebhookSecret });
}
