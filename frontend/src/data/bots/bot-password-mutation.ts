import { useMutation, useQueryClient } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { invalidateBot } from "./invalidate";

/** null removes the password (the database then refuses visibility 'password'). */
export async function setBotPassword({ botId, password }: { botId: string; password: string | null }): Promise<void> {
  // The generated Args say `string`; the SQL function takes null to remove the password.
  const args: { bot_id: string; password: string } = { bot_id: botId, password: password as string };
  unwrap(await (await loadSupabase()).rpc("set_bot_password", args));
}

export function useSetBotPasswordMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: setBotPassword, onSuccess: () => invalidateBot(qc) });
}
