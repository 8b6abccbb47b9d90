// Discord: an interactions endpoint in, the HTTP API out (base URL
// PARLEY_DISCORD_API_URL, default https://discord.com/api/v10).
//   * every interaction is signed with Ed25519: X-Signature-Ed25519 over
//     X-Signature-Timestamp + raw body, checked against the application's public
//     key (WebCrypto); timestamps older than five minutes are refused;
//   * PING is answered with PONG (Discord checks the endpoint that way);
//   * `/ask question:<text>` is answered with a deferred response at once, then
//     the answer replaces it through the interaction's webhook (follow-ups for
//     what does not fit in 2000 characters).
// Connecting reads the application (id, public key) with the bot token and
// registers the global `/ask` command.
import { verifyEd25519 } from "./crypto.ts";
import { splitMessage } from "./text.ts";
import { ChannelError, type Parsed, type PlatformClient, PlatformError, platformBaseUrl, platformJson } from "./types.ts";

export const DISCORD_MAX_SKEW_SECONDS = 300;
const DISCORD_TEXT_LIMIT = 2000;

export const ASK_COMMAND = {
  name: "ask",
  type: 1,
  description: "Ask the bot a question",
  options: [{ type: 3, name: "question", description: "Your question", required: true, max_length: 2000 }],
};

export function discordClient(f: typeof fetch = fetch): PlatformClient {
  return { baseUrl: platformBaseUrl("PARLEY_DISCORD_API_URL", "https://discord.com/api/v10"), fetch: f };
}

export async function verifyDiscordRequest(
  headers: Headers,
  rawBody: string,
  publicKey: string | undefined,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<void> {
  const signature = headers.get("x-signature-ed25519") ?? "";
  const timestamp = headers.get("x-signature-timestamp") ?? "";
  if (!publicKey) throw new ChannelError(401, "not_configured", "This Discord channel is not connected yet");
  if (!signature || !timestamp) throw new ChannelError(401, "missing_signature", "X-Signature-Ed25519 and X-Signature-Timestamp are required");
  if (!(await verifyEd25519(publicKey, signature, timestamp + rawBody))) {
    throw new ChannelError(401, "bad_signature", "The Discord signature does not match");
  }
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > DISCORD_MAX_SKEW_SECONDS) {
    throw new ChannelError(401, "stale_request", "The interaction timestamp is more than five minutes away");
  }
}

/** An interaction as Discord sends it (every field checked where used). */
export interface DiscordInteraction {
  id?: string;
  type?: number;
  token?: string;
  application_id?: string;
  guild_id?: string;
  channel_id?: string;
  channel?: { id?: string };
  member?: { user?: { id?: string } };
  user?: { id?: string };
  data?: { name?: string; options?: { name?: string; value?: unknown }[] };
}

interface DiscordAnswer {
  id?: string;
  name?: string;
  verify_key?: string;
  message?: string;
}

export function parseDiscordInteraction(body: DiscordInteraction): Parsed {
  if (body.type === 1) return { kind: "respond", body: { type: 1 } };
  if (body.type !== 2 || body.data?.name !== ASK_COMMAND.name) {
    // Anything else we registered nothing for: say so in Discord, privately.
    return { kind: "respond", body: { type: 4, data: { content: "Unknown command.", flags: 64 } } };
  }
  const options = Array.isArray(body.data?.options) ? body.data.options : [];
  const question = String(options.find((o) => o?.name === "question")?.value ?? "").trim();
  const user = body.member?.user ?? body.user ?? {};
  if (!question || typeof body.token !== "string" || typeof body.application_id !== "string") {
    return { kind: "respond", body: { type: 4, data: { content: "Ask a question: /ask question:…", flags: 64 } } };
  }
  const channel = String(body.channel_id ?? body.channel?.id ?? "dm");
  return {
    kind: "message",
    messages: [{
      deliveryId: String(body.id),
      conversationKey: `${body.guild_id ?? "dm"}:${channel}:${user.id ?? "unknown"}`,
      userId: String(user.id ?? "unknown"),
      chatId: channel,
      text: question,
      kind: "message",
      replyTo: { application_id: body.application_id, token: body.token },
    }],
    // DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: "thinking…" until the answer arrives.
    ack: { body: { type: 5 } },
  };
}

async function discordCall(client: PlatformClient, path: string, init: { method: string; token?: string; body?: unknown }) {
  const res = await client.fetch(`${client.baseUrl}${path}`, {
    method: init.method,
    headers: {
      "Content-Type": "application/json",
      ...(init.token ? { Authorization: `Bot ${init.token}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (res.status === 204) return {};
  const data = await platformJson<DiscordAnswer>(res, "discord");
  if (!res.ok) {
    const code = res.status === 401 ? "discord_invalid_token" : res.status === 429 ? "discord_rate_limited" : "discord_error";
    throw new PlatformError(code, `Discord refused ${init.method} ${path.replace(/\/webhooks\/.*/, "/webhooks/…")}: ${data.message ?? `HTTP ${res.status}`}`, res.status);
  }
  return data;
}

/** Reads the application behind the bot token and registers `/ask`; returns the settings to keep. */
export async function connectDiscord(client: PlatformClient, botToken: string) {
  const app = await discordCall(client, "/applications/@me", { method: "GET", token: botToken });
  const applicationId = String(app.id ?? "");
  if (!/^\d{5,25}$/.test(applicationId) || typeof app.verify_key !== "string") {
    throw new PlatformError("discord_bad_response", "Discord did not name the application and its public key");
  }
  await discordCall(client, `/applications/${applicationId}/commands`, { method: "POST", token: botToken, body: ASK_COMMAND });
  return { application_id: applicationId, public_key: app.verify_key, application_name: String(app.name ?? "") };
}

/** Replaces the deferred response with the answer; what does not fit goes in follow-ups. */
export async function sendDiscordFollowUp(client: PlatformClient, to: { application_id: string; token: string }, text: string) {
  const parts = splitMessage(text, DISCORD_TEXT_LIMIT);
  const hook = `/webhooks/${encodeURIComponent(to.application_id)}/${encodeURIComponent(to.token)}`;
  await discordCall(client, `${hook}/messages/@original`, { method: "PATCH", body: { content: parts[0] ?? "…" } });
  for (const part of parts.slice(1)) await discordCall(client, hook, { method: "POST", body: { content: part } });
}

/** A message in a channel with the bot token (the "send a test message" button). */
export async function sendDiscordChannelMessage(client: PlatformClient, botToken: string, channelId: string, text: string) {
  for (const part of splitMessage(text, DISCORD_TEXT_LIMIT)) {
    await discordCall(client, `/channels/${encodeURIComponent(channelId)}/messages`, { method: "POST", token: botToken, body: { content: part } });
  }
}
