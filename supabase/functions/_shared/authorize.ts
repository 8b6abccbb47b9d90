// One way for a function to authorise a write it then does as the service role: ask Postgres,
// as the caller, whether they hold the admin (or owner) role on the bot's team
// (public.can_manage_bot → private.has_bot_role). Never "the caller can read the row": a
// platform administrator reads every team's data but may change none of it.
import { createUserClient } from "./clients.ts";
import { dbFailure, isSessionInvalid, sessionInvalid } from "./db.ts";
import { HttpError } from "./http.ts";

/** Resolves when the caller may manage the bot; 404 otherwise (no hint whether it exists). */
export async function requireBotManager(req: Request, botId: string): Promise<void> {
  const { data, error } = await createUserClient(req).rpc("can_manage_bot", { bot_id: botId });
  if (error) {
    // 42501: a role that may not even ask (anon): nothing of the bot's is theirs.
    if (error.code === "42501") throw new HttpError(404, "not_found", "No such item");
    if (isSessionInvalid(error)) throw sessionInvalid();
    throw dbFailure(error, "can_manage_bot");
  }
  if (data !== true) throw new HttpError(404, "not_found", "No such item");
}
