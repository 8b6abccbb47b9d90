import { useQuery } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { botKeys } from "./keys";
import { fetchPublicBot } from "./public-bot-query";

export interface SiblingBot {
  id: string;
  name: string;
}

/**
 * The bots a signed-in person may start a private chat with from a bot's chat page: this bot,
 * the other bots of its team when the viewer is a member (RLS), and the bots of every team the
 * viewer belongs to (their own bots). This bot first, the others by name.
 */
export async function fetchSiblingBots(botId: string): Promise<SiblingBot[]> {
  const db = await loadSupabase();
  const { data: auth } = await db.auth.getSession();
  const userId = auth.session?.user.id;
  const [bot, memberships] = await Promise.all([
    db.from("bots").select("id, name, team_id").eq("id", botId).maybeSingle().then(unwrap),
    userId ? db.from("team_members").select("team_id").eq("user_id", userId).then(unwrap) : Promise.resolve([]),
  ]);
  const teams = [...new Set([...(bot ? [bot.team_id] : []), ...(memberships ?? []).map((m) => m.team_id)])];
  const rows = teams.length ? unwrap(await db.from("bots").select("id, name").in("team_id", teams).order("name").limit(500)) ?? [] : [];
  // A visitor reads another team's bot only through its public face.
  const publicFace = bot ? null : await fetchPublicBot(botId);
  const current = bot ? { id: bot.id, name: bot.name } : publicFace ? { id: publicFace.id, name: publicFace.name } : null;
  const others = rows.filter((b) => b.id !== botId);
  return current ? [current, ...others] : others;
}

export function useSiblingBotsQuery(botId: string, enabled: boolean) {
  return useQuery({ queryKey: botKeys.siblings(botId), queryFn: () => fetchSiblingBots(botId), enabled });
}
