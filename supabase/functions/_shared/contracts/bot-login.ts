// POST /functions/v1/bot-login: a visitor enters a password-protected bot's chat password.
// 200 BotLoginAnswer (also for a bot that needs no password); 401 incorrect_password;
// 404 bot_not_found; 429 rate_limited.

export const MAX_BOT_PASSWORD_CHARS = 128;

export interface BotLoginRequest {
  bot_id: string;
  /** 1..128 characters. */
  password: string;
}

export interface BotLoginAnswer {
  ok: true;
}
