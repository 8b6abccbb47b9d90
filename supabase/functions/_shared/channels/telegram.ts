// Telegram: the Bot API (base URL PARLEY_TELEGRAM_API_URL, default
// https://api.telegram.org).
//   * connecting reads the bot (getMe) and sets the webhook with a random
//     secret_token; Telegram sends it back in X-Telegram-Bot-Api-Secret-Token on
//     every update, which is checked before anything else;
//   * private chats are answered; in groups, only messages that mention the bot,
//     reply to it or use /ask;
//   * /start greets with the channel's welcome text;
//   * answers are MarkdownV2 (escaped) and split at Telegram's 4096 characters.
import { timingSafeEqual } from "./crypto.ts";
import { splitMessage, toTelegramMarkdown } from "./text.ts";
import { ChannelError, type Parsed, type PlatformClient, PlatformError, platformBaseUrl, platformJson } from "./types.ts";

export const TELEGRAM_TEXT_LIMIT = 4096;

export function telegramClient(f: typeof fetch = fetch): PlatformClient {
  return { baseUrl: platformBaseUrl("PARLEY_TELEGRAM_API_URL", "https://api.telegram.org"), fetch: f };
}

export function verifyTelegramRequest(headers: Headers, webhookSecret: string | undefined): void {
  const given = headers.get("x-telegram-bot-api-secret-token");
  if (!webhookSecret) throw new ChannelError(401, "not_configured", "This Telegram channel is not connected yet");
  if (!given) throw new ChannelError(401, "missing_signature", "X-Telegram-Bot-Api-Secret-Token is required");
  if (!timingSafeEqual(given, webhookSecret)) throw new ChannelError(401, "bad_signature", "The secret token does not match");
}

/** An update as Telegram sends it (every field checked where used). */
export interface TelegramUpdate {
  update_id?: number;
  message?: {
    message_id?: number;
    text?: string;
    from?: { id?: number; is_bot?: boolean; username?: string };
    chat?: { id?: number; type?: string };
    reply_to_message?: { from?: { username?: string } };
  };
}

interface TelegramAnswer {
  ok?: boolean;
  description?: string;
  result?: { id?: number; username?: string };
}

export function parseTelegramUpdate(body: TelegramUpdate, botUsername?: string): Parsed {
  const msg = body.message;
  if (typeof body.update_id !== "number" || !msg || typeof msg.text !== "string" || !msg.chat || msg.from?.is_bot) {
    return { kind: "ignore" };
  }
  const chatType = String(msg.chat.type);
  const me = (botUsername ?? "").toLowerCase();
  let text = msg.text;
  const command = /^\/([a-z_]+)(?:@(\w+))?(?:\s+|$)/i.exec(text);
  // A command addressed to another bot in a group is not ours.
  if (command?.[2] && command[2].toLowerCase() !== me) return { kind: "ignore" };
  let kind: "message" | "start" = "message";
  if (command && command[1]!.toLowerCase() === "start") kind = "start";
  else if (command && command[1]!.toLowerCase() === "ask") text = text.slice(command[0].length);
  else if (chatType !== "private") {
    const mentioned = me && text.toLowerCase().includes(`@${me}`);
    const repliedToMe = me && String(msg.reply_to_message?.from?.username ?? "").toLowerCase() === me;
    if (!mentioned && !repliedToMe) return { kind: "ignore" };
  } else if (command) return { kind: "ignore" }; // other commands in private chats
  if (me) text = text.replace(new RegExp(`@${me.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`, "ig"), "");
  text = text.trim();
  if (kind === "message" && !text) return { kind: "ignore" };
  const chatId = String(msg.chat.id);
  const userId = String(msg.from?.id ?? chatId);
  return {
    kind: "message",
    messages: [{
      deliveryId: String(body.update_id),
      conversationKey: chatType === "private" ? chatId : `${chatId}:${userId}`,
      userId,
      chatId,
      text,
      kind,
      replyTo: { chat_id: chatId, message_id: String(msg.message_id ?? "") },
    }],
    ack: { body: { ok: true } },
  };
}

async function telegramCall(client: PlatformClient, token: string, method: string, payload: Record<string, unknown>) {
  const res = await client.fetch(`${client.baseUrl}/bot${token}/${method}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(payload),
  });
  const data = await platformJson<TelegramAnswer>(res, "telegram");
  if (!data.ok) {
    const code = res.status === 401 || res.status === 404 ? "telegram_invalid_token" : res.status === 429 ? "telegram_rate_limited" : "telegram_error";
    throw new PlatformError(code, `Telegram refused ${method}: ${data.description ?? `HTTP ${res.status}`}`, res.status);
  }
  return data.result;
}

/** getMe, then setWebhook with the secret; returns the settings to keep. */
export async function connectTelegram(client: PlatformClient, botToken: string, webhookUrl: string, webhookSecret: string) {
  const me = await telegramCall(client, botToken, "getMe", {});
  await telegramCall(client, botToken, "setWebhook", {
    url: webhookUrl,
    secret_token: webhookSecret,
    allowed_updates: ["message"],
    drop_pending_updates: true,
  });
  return { bot_username: String(me?.username ?? ""), bot_id: String(me?.id ?? "") };
}

export async function disconnectTelegram(client: PlatformClient, botToken: string) {
  await telegramCall(client, botToken, "deleteWebhook", {});
}

/** Sends the answer as MarkdownV2, in pieces of at most 4096 characters (after escaping). */
export async function sendTelegram(client: PlatformClient, botToken: string, to: { chat_id: string; message_id?: string }, text: string) {
  const parts = splitMessage(text, TELEGRAM_TEXT_LIMIT, toTelegramMarkdown);
  for (const [i, part] of parts.entries()) {
    await telegramCall(client, botToken, "sendMessage", {
      chat_id: to.chat_id,
      text: toTelegramMarkdown(part),
      parse_mode: "MarkdownV2",
      link_preview_options: { is_disabled: true },
      ...(i === 0 && to.message_id ? { reply_parameters: { message_id: Number(to.message_id), allow_sending_without_reply: true } } : {}),
    });
  }
}
