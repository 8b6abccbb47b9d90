import { useMutation, useQueryClient } from "@tanstack/react-query";
import { refused, unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { invalidateBot } from "./invalidate";
import { BOT_COLUMNS, toBot, type Bot, type BotInput } from "./types";

export async function updateBot({ botId, patch }: { botId: string; patch: BotInput }): Promise<Bot> {
  const rows = unwrap(await (await loadSupabase()).from("bots").update(patch).eq("id", botId).select(BOT_COLUMNS));
  const row = rows?.[0];
  // RLS hides a row it refuses to change: no row back means not allowed.
  if (!row) throw refused("You may not change this bot");
  return toBot(row);
}

export function useUpdateBotMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: updateBot, onSuccess: (bot) => invalidateBot(qc, bot.team_id) });
}
