import { useQuery } from "@tanstack/react-query";
import type { RpcRow } from "../../lib/database";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { botKeys } from "./keys";
import { readTheme, type BotTheme } from "./types";

type PublicBotRow = RpcRow<"get_public_bot">;

/** A bot's visitor-facing face (get_public_bot). The CLI cannot tell an RPC's nullable columns. */
export type PublicBot = Omit<PublicBotRow, "description" | "avatar_url" | "language" | "suggested_questions" | "theme"> & {
  description: string | null;
  avatar_url: string | null;
  language: string | null;
  suggested_questions: string[] | null;
  theme: BotTheme;
};

export function toPublicBot(row: PublicBotRow): PublicBot {
  return { ...row, language: typeof row.language === "string" ? row.language : null, theme: readTheme(row.theme) };
}

/** The bot's visitor-facing fields; null when it does not exist or is private. */
export async function fetchPublicBot(botId: string): Promise<PublicBot | null> {
  const rows = unwrap(await (await loadSupabase()).rpc("get_public_bot", { bot_id: botId }));
  const row = rows?.[0];
  return row ? toPublicBot(row) : null;
}

export function usePublicBotQuery(botId: string) {
  return useQuery({ queryKey: botKeys.public(botId), queryFn: () => fetchPublicBot(botId), staleTime: 60_000 });
}
