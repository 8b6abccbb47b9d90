import { useQuery } from "@tanstack/react-query";
import { chatKeys } from "./keys";
import { client, dbError } from "./errors";

export interface BotTheme {
  primary?: string;
  background?: string;
  text?: string;
}

export interface PublicBot {
  id: string;
  name: string;
  description: string | null;
  avatar_url: string | null;
  language: string | null;
  visibility: "public" | "password" | "private";
  suggested_questions: string[] | null;
  show_powered_by: boolean;
  theme: BotTheme | null;
}

/** The bot's visitor-facing fields; null when it does not exist or is private. */
export async function fetchPublicBot(botId: string): Promise<PublicBot | null> {
  const { data, error } = await (await client()).rpc("get_public_bot", { bot_id: botId });
  if (error) throw dbError(error);
  const row = Array.isArray(data) ? data[0] : data;
  return (row as PublicBot | undefined) ?? null;
}

export function usePublicBotQuery(botId: string) {
  return useQuery({ queryKey: chatKeys.publicBot(botId), queryFn: () => fetchPublicBot(botId), staleTime: 60_000 });
}
