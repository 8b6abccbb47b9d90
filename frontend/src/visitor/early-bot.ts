// The bot's public face as visitor.html's head script asked for it (vite.config.ts visitorHead):
// the request starts with the HTML, in parallel with the entry's download, not after it runs.
import type { RpcRow } from "../lib/database";
import { fetchPublicBot, toPublicBot, type PublicBot } from "../data/bots/public-bot-query";

declare global {
  interface Window {
    __PARLEY_EARLY_BOT__?: { id: string; rows: Promise<unknown> };
  }
}

/** The early answer for this bot once (a failed or missing one: the lean client asks). */
export async function publicBotEarly(botId: string): Promise<PublicBot | null> {
  const early = window.__PARLEY_EARLY_BOT__;
  delete window.__PARLEY_EARLY_BOT__;
  const rows = early?.id.toLowerCase() === botId.toLowerCase() ? await early.rows : null;
  if (!Array.isArray(rows)) return fetchPublicBot(botId);
  const row = rows[0] as RpcRow<"get_public_bot"> | undefined;
  return row ? toPublicBot(row) : null;
}
