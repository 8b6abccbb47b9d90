// What the route guards and the app header ask Postgres before showing a screen. Each takes
// the client (the guards' tests hand in a fake one); Postgres decides, never this code.
import { toAppError } from "../../lib/errors";
import type { AppSupabaseClient } from "../../lib/supabase";

/** is_platform_admin(); any error (a database not migrated yet) counts as "no". */
export async function isPlatformAdmin(client: AppSupabaseClient): Promise<boolean> {
  const { data, error } = await client.rpc("is_platform_admin");
  return !error && data === true;
}

/**
 * The bot's visibility as get_public_bot shows it to anyone (public and password bots); null
 * for a private or unknown bot; undefined when the answer cannot be judged (not a set).
 */
export async function publicBotVisibility(client: AppSupabaseClient, botId: string): Promise<string | null | undefined> {
  const { data: rows, error } = await client.rpc("get_public_bot", { bot_id: botId });
  if (error) throw toAppError(error, "bot_lookup_failed");
  if (!Array.isArray(rows)) return undefined;
  return rows[0]?.visibility ?? null;
}

/** Members of the bot's team can read its row (RLS); nobody else can. */
export async function canReadBotRow(client: AppSupabaseClient, botId: string): Promise<boolean> {
  const { data } = await client.from("bots").select("id").eq("id", botId).maybeSingle();
  return !!data;
}

/** A password bot's access grant of this visitor (written when the password was accepted). */
export async function hasBotGrantRow(client: AppSupabaseClient, botId: string): Promise<boolean> {
  const { data } = await client.from("bot_access_grants").select("bot_id").eq("bot_id", botId).maybeSingle();
  return !!data;
}
