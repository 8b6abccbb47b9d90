import { useMutation, useQueryClient } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { setBotPassword } from "./bot-password-mutation";
import { invalidateBot } from "./invalidate";
import { BOT_COLUMNS, toBot, type Bot, type BotInput } from "./types";

export interface BotCreateVariables {
  input: BotInput & { team_id: string; name: string };
  password?: string;
}

export async function createBot({ input, password }: BotCreateVariables): Promise<Bot> {
  const client = await loadSupabase();
  const { data: auth } = await client.auth.getSession();
  // A password bot needs its password first (the database checks), so it starts private.
  const wantsPassword = input.visibility === "password";
  const row = unwrap(
    await client
      .from("bots")
      .insert({ ...input, visibility: wantsPassword ? "private" : input.visibility, created_by: auth.session?.user.id })
      .select(BOT_COLUMNS)
      .single(),
  );
  const bot = toBot(row);
  if (wantsPassword && password) {
    // set_bot_password also switches the bot to 'password'.
    await setBotPassword({ botId: bot.id, password });
    return { ...bot, visibility: "password" };
  }
  return bot;
}

export function useCreateBotMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: createBot, onSuccess: (bot) => invalidateBot(qc, bot.team_id) });
}
