// One entry point per step for every messaging platform, so the receiver and the
// connect action do not branch on the platform themselves: verify + parse a
// delivery, send an answer, connect, disconnect, send a test message.
import { randomSecret } from "./crypto.ts";
import { connectDiscord, type DiscordInteraction, discordClient, parseDiscordInteraction, sendDiscordChannelMessage, sendDiscordFollowUp, verifyDiscordRequest } from "./discord.ts";
import { connectSlack, parseSlackEvent, type SlackEnvelope, sendSlack, slackClient, verifySlackRequest } from "./slack.ts";
import type { LoadedChannel } from "./store.ts";
import { connectTelegram, disconnectTelegram, parseTelegramUpdate, type TelegramUpdate, sendTelegram, telegramClient, verifyTelegramRequest } from "./telegram.ts";
import { ChannelError, type InboundMessage, type Parsed, PlatformError } from "./types.ts";
import { connectWhatsApp, parseWhatsAppWebhook, type WhatsAppWebhook, sendWhatsApp, verifyWhatsAppRequest, whatsappChallenge, whatsappClient } from "./whatsapp.ts";

export const CHANNEL_TYPES = ["web", "api", "slack", "discord", "telegram", "whatsapp"] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];
export const MESSAGING_TYPES = ["slack", "discord", "telegram", "whatsapp"] as const;
export type MessagingType = (typeof MESSAGING_TYPES)[number];
export const isMessagingType = (t: string): t is MessagingType => (MESSAGING_TYPES as readonly string[]).includes(t);

/** A GET to a receiver: only WhatsApp's subscription check. */
export function answerGet(channel: LoadedChannel, params: URLSearchParams): string {
  if (channel.type !== "whatsapp") throw new ChannelError(405, "method_not_allowed", "Deliveries are POSTed");
  return whatsappChallenge(params, channel.secrets.verify_token);
}

/** A delivery's JSON object, as the platform's wire type `T` (its fields are checked where used). */
function parseBody<T extends object>(raw: string): T {
  try {
    const body = JSON.parse(raw);
    if (body && typeof body === "object" && !Array.isArray(body)) return body as T;
  } catch {
    // fall through
  }
  throw new ChannelError(400, "invalid_json", "The body must be a JSON object");
}

/** Checks the platform's signature or secret first, then reads what the delivery asks. */
export async function verifyAndParse(channel: LoadedChannel, headers: Headers, raw: string): Promise<Parsed> {
  const { settings, secrets } = channel;
  switch (channel.type) {
    case "slack":
      await verifySlackRequest(headers, raw, secrets.signing_secret);
      return parseSlackEvent(parseBody<SlackEnvelope>(raw), settings.bot_user_id);
    case "discord":
      await verifyDiscordRequest(headers, raw, settings.public_key);
      return parseDiscordInteraction(parseBody<DiscordInteraction>(raw));
    case "telegram":
      verifyTelegramRequest(headers, secrets.webhook_secret);
      return parseTelegramUpdate(parseBody<TelegramUpdate>(raw), settings.bot_username);
    case "whatsapp":
      await verifyWhatsAppRequest(headers, raw, secrets.app_secret);
      return parseWhatsAppWebhook(parseBody<WhatsAppWebhook>(raw), settings.phone_number_id);
    default:
      throw new ChannelError(404, "channel_not_found", "No messaging channel here");
  }
}

function need(value: string | undefined, name: string, type: string): string {
  if (!value) throw new PlatformError("missing_credentials", `Set the ${type} channel's ${name.replace(/_/g, " ")} first`);
  return value;
}

/** Sends an answer (or a greeting) back where the message came from. */
export async function sendReply(channel: LoadedChannel, msg: InboundMessage, text: string, receivedAt = new Date()): Promise<void> {
  const { secrets } = channel;
  switch (channel.type) {
    case "slack":
      return await sendSlack(slackClient(), need(secrets.bot_token, "bot_token", "Slack"), { channel: msg.replyTo.channel!, thread_ts: msg.replyTo.thread_ts }, text);
    case "discord":
      return await sendDiscordFollowUp(discordClient(), { application_id: msg.replyTo.application_id!, token: msg.replyTo.token! }, text);
    case "telegram":
      return await sendTelegram(telegramClient(), need(secrets.bot_token, "bot_token", "Telegram"), { chat_id: msg.replyTo.chat_id!, message_id: msg.replyTo.message_id }, text);
    case "whatsapp":
      return await sendWhatsApp(
        whatsappClient(),
        need(secrets.access_token, "access_token", "WhatsApp"),
        { to: msg.replyTo.to!, phone_number_id: msg.replyTo.phone_number_id!, message_id: msg.replyTo.message_id },
        text,
        receivedAt,
      );
    default:
      throw new PlatformError("not_a_messaging_channel", "This channel does not send messages");
  }
}

/** What connecting did: settings to keep, secrets Parley generated, and the one value to show once. */
export interface Connected {
  settings: Record<string, string>;
  secrets: Record<string, string>;
  showOnce?: Record<string, string>;
}

export async function connectPlatform(channel: LoadedChannel, webhookUrl: string): Promise<Connected> {
  const { secrets, settings } = channel;
  switch (channel.type) {
    case "slack":
      need(secrets.signing_secret, "signing_secret", "Slack");
      return { settings: await connectSlack(slackClient(), need(secrets.bot_token, "bot_token", "Slack")), secrets: {} };
    case "discord":
      return { settings: await connectDiscord(discordClient(), need(secrets.bot_token, "bot_token", "Discord")), secrets: {} };
    case "telegram": {
      const webhookSecret = secrets.webhook_secret || randomSecret(32);
      const learned = await connectTelegram(telegramClient(), need(secrets.bot_token, "bot_token", "Telegram"), webhookUrl, webhookSecret);
      return { settings: learned, secrets: { webhook_secret: webhookSecret } };
    }
    case "whatsapp": {
      need(secrets.app_secret, "app_secret", "WhatsApp");
      const learned = await connectWhatsApp(whatsappClient(), need(secrets.access_token, "access_token", "WhatsApp"), need(settings.phone_number_id, "phone_number_id", "WhatsApp"));
      // Meta asks for a verify token when the callback URL is set: Parley makes one unless the owner chose it.
      if (secrets.verify_token) return { settings: learned, secrets: {} };
      const verifyToken = randomSecret(24);
      return { settings: learned, secrets: { verify_token: verifyToken }, showOnce: { verify_token: verifyToken } };
    }
    default:
      return { settings: {}, secrets: {} };
  }
}

export async function disconnectPlatform(channel: LoadedChannel): Promise<void> {
  if (channel.type === "telegram" && channel.secrets.bot_token) await disconnectTelegram(telegramClient(), channel.secrets.bot_token);
}

/**
 * A message nobody asked for (a test message, an ask task's answer). It goes to the recipient
 * given (`to.recipient`, e.g. a task's), else the one the owner named for tests
 * (settings.test_recipient): a Slack or Discord channel id, a Telegram chat id, a WhatsApp
 * number; else the conversation of the latest chat (its platform conversation key).
 */
export async function sendChannelMessage(
  channel: LoadedChannel,
  text: string,
  to: { recipient?: string | null; conversationKey: string | null; lastInboundAt: Date | null },
) {
  const { secrets, settings } = channel;
  const { conversationKey, lastInboundAt } = to;
  const explicit = (to.recipient?.trim() || settings.test_recipient)?.trim();
  const parts = (conversationKey ?? "").split(":");
  switch (channel.type) {
    case "slack": {
      // key: team:channel:thread
      const target = explicit || parts[1];
      if (!target) throw new PlatformError("no_recipient", "Mention the bot in Slack once, or set a test recipient (a channel id)");
      return await sendSlack(slackClient(), need(secrets.bot_token, "bot_token", "Slack"), { channel: target, thread_ts: explicit ? undefined : parts[2] }, text);
    }
    case "discord": {
      // key: guild:channel:user
      const target = explicit || parts[1];
      if (!target || target === "dm") throw new PlatformError("no_recipient", "Use /ask in a Discord channel once, or set a test recipient (a channel id)");
      return await sendDiscordChannelMessage(discordClient(), need(secrets.bot_token, "bot_token", "Discord"), target, text);
    }
    case "telegram": {
      // key: chat or chat:user
      const target = explicit || parts[0];
      if (!target) throw new PlatformError("no_recipient", "Send the bot a message in Telegram once, or set a test recipient (a chat id)");
      return await sendTelegram(telegramClient(), need(secrets.bot_token, "bot_token", "Telegram"), { chat_id: target }, text);
    }
    case "whatsapp": {
      // key: phone_number_id:from. A business-initiated text needs an open 24-hour window.
      const to = explicit || parts[1];
      if (!to) throw new PlatformError("no_recipient", "Send the number a WhatsApp message first: replies are allowed for 24 hours after it");
      return await sendWhatsApp(
        whatsappClient(),
        need(secrets.access_token, "access_token", "WhatsApp"),
        { to, phone_number_id: need(settings.phone_number_id, "phone_number_id", "WhatsApp") },
        text,
        lastInboundAt,
      );
    }
    default:
      throw new PlatformError("not_a_messaging_channel", "This channel does not send messages");
  }
}
