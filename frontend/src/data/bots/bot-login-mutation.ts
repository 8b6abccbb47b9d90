// The bot-login function: a visitor's chat password, checked server-side; a grant row follows.
import type { BotLoginAnswer, BotLoginRequest } from "@shared/contracts/bot-login.ts";
import { callFunction } from "../../lib/functions";

export function botLogin(botId: string, password: string): Promise<BotLoginAnswer> {
  const body: BotLoginRequest = { bot_id: botId, password };
  return callFunction<BotLoginAnswer>("bot-login", body);
}
