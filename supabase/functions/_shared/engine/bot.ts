// The bot's answering settings (the engine reads them with its limits: limits.ts; the test
// runner with loadBot), read with the service role (model and provider settings are
// not readable by visitors). Whether the caller may use the bot is decided later, by RLS.
import type { Db } from "../clients.ts";
import type { Tables } from "../database.types.ts";
import { must } from "../db.ts";
import { HttpError } from "../http.ts";

export type EngineBot = Pick<
  Tables<"bots">,
  "id" | "team_id" | "language" | "instructions" | "model_provider" | "model" | "temperature" | "suggested_questions"
> & {
  /** The bot's web channel (hosted page and widget) is switched on (every bot has one). */
  webEnabled: boolean;
};

export async function loadBot(service: Db, botId: string): Promise<EngineBot> {
  const bot = must(
    await service
      .from("bots")
      .select("id, team_id, language, instructions, model_provider, model, temperature, suggested_questions, web:channels(enabled)")
      .eq("id", botId)
      .eq("web.type", "web")
      .maybeSingle(),
    "bot lookup",
  );
  if (!bot) throw new HttpError(404, "bot_not_found", "Bot not found");
  const { web, ...settings } = bot;
  return { ...settings, webEnabled: web.every((c) => c.enabled) };
}
