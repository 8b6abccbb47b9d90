import { useMutation, useQueryClient } from "@tanstack/react-query";
import { refused, unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { invalidateBot } from "./invalidate";

/** Deletes the bot; resolves with its team (whose list then refreshes). */
export async function deleteBot(botId: string): Promise<{ teamId: string }> {
  const rows = unwrap(await (await loadSupabase()).from("bots").delete().eq("id", botId).select("id, team_id"));
  const row = rows?.[0];
  if (!row) throw refused("You may not delete this bot");
  return { teamId: row.team_id };
}

export function useDeleteBotMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: deleteBot, onSuccess: ({ teamId }) => invalidateBot(qc, teamId) });
}
