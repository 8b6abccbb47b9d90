import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toAppError } from "../teams/errors";
import { botSettingsKeys } from "./keys";
import { BOT_COLUMNS, type Bot } from "./types";

export type BotInput = Partial<Omit<Bot, "id" | "created_at" | "updated_at">>;

export async function createBot(input: BotInput & { team_id: string; name: string }, password?: string): Promise<Bot> {
  const { getSupabase } = await import("../../lib/supabase");
  const client = getSupabase();
  const { data: auth } = await client.auth.getSession();
  // A password bot needs its password first (the database checks), so it starts private.
  const wantsPassword = input.visibility === "password";
  const { data, error } = await client
    .from("bots")
    .insert({ ...input, visibility: wantsPassword ? "private" : input.visibility, created_by: auth.session?.user.id })
    .select(BOT_COLUMNS)
    .single();
  if (error) throw toAppError(error);
  const bot = data as Bot;
  if (wantsPassword && password) {
    // set_bot_password also switches the bot to 'password'.
    await setBotPassword({ botId: bot.id, password });
    return { ...bot, visibility: "password" };
  }
  return bot;
}

export async function updateBot({ botId, patch }: { botId: string; patch: BotInput }): Promise<Bot> {
  const { getSupabase } = await import("../../lib/supabase");
  const { data, error } = await getSupabase().from("bots").update(patch).eq("id", botId).select(BOT_COLUMNS);
  if (error) throw toAppError(error);
  if (!data?.length) throw toAppError({ message: "You may not change this bot", code: "42501" });
  return data[0] as Bot;
}

export async function deleteBot(botId: string): Promise<void> {
  const { getSupabase } = await import("../../lib/supabase");
  const { data, error } = await getSupabase().from("bots").delete().eq("id", botId).select("id");
  if (error) throw toAppError(error);
  if (!data?.length) throw toAppError({ message: "You may not delete this bot", code: "42501" });
}

/** null removes the password (the database then refuses visibility 'password'). */
export async function setBotPassword({ botId, password }: { botId: string; password: string | null }): Promise<void> {
  const { getSupabase } = await import("../../lib/supabase");
  const { error } = await getSupabase().rpc("set_bot_password", { bot_id: botId, password });
  if (error) throw toAppError(error);
}

function useBotMutation<V, R>(fn: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: botSettingsKeys.all }) });
}

export const useCreateBotMutation = () => useBotMutation((v: { input: BotInput & { team_id: string; name: string }; password?: string }) => createBot(v.input, v.password));
export const useUpdateBotMutation = () => useBotMutation(updateBot);
export const useDeleteBotMutation = () => useBotMutation(deleteBot);
export const useSetBotPasswordMutation = () => useBotMutation(setBotPassword);
