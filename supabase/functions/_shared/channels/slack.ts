// Slack: Events API in, Web API out (plain HTTPS calls, base URL
// PARLEY_SLACK_API_URL, default https://slack.com/api).
//   * every request is signed: X-Slack-Signature = "v0=" + hex HMAC-SHA256 of
//     "v0:<X-Slack-Request-Timestamp>:<raw body>" with the app's signing secret,
//     and the timestamp must be within five minutes (replays are refused);
//   * url_verification answers the challenge;
//   * app mentions and direct messages are answered in the thread, after the
//     acknowledgement (Slack wants a 2xx within 3 seconds and retries otherwise;
//     the receiver deduplicates by event_id).
import { hmacSha256Hex, timingSafeEqual } from "./crypto.ts";
import { splitMessage, toSlackMrkdwn } from "./text.ts";
import { ChannelError, type InboundMessage, type Parsed, type PlatformClient, PlatformError, platformBaseUrl, platformJson } from "./types.ts";

export const SLACK_MAX_SKEW_SECONDS = 300;
const SLACK_TEXT_LIMIT = 3900;

export function slackClient(f: typeof fetch = fetch): PlatformClient {
  return { baseUrl: platformBaseUrl("PARLEY_SLACK_API_URL", "https://slack.com/api"), fetch: f };
}

/** Throws a 401 ChannelError unless the request carries a valid, fresh v0 signature. */
export async function verifySlackRequest(
  headers: Headers,
  rawBody: string,
  signingSecret: string | undefined,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<void> {
  const timestamp = headers.get("x-slack-request-timestamp") ?? "";
  const signature = headers.get("x-slack-signature") ?? "";
  if (!signingSecret) throw new ChannelError(401, "not_configured", "This Slack channel has no signing secret yet");
  if (!timestamp || !signature) throw new ChannelError(401, "missing_signature", "X-Slack-Signature and X-Slack-Request-Timestamp are required");
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > SLACK_MAX_SKEW_SECONDS) {
    throw new ChannelError(401, "stale_request", "The request timestamp is more than five minutes away");
  }
  const expected = "v0=" + (await hmacSha256Hex(signingSecret, `v0:${timestamp}:${rawBody}`));
  if (!timingSafeEqual(expected, signature)) throw new ChannelError(401, "bad_signature", "The Slack signature does not match");
}

/** Signs a body as Slack does (for the fake platform and tests). */
export async function signSlack(signingSecret: string, rawBody: string, timestamp = Math.floor(Date.now() / 1000)) {
  return {
    "x-slack-request-timestamp": String(timestamp),
    "x-slack-signature": "v0=" + (await hmacSha256Hex(signingSecret, `v0:${timestamp}:${rawBody}`)),
  };
}

/** An Events API body as Slack sends it (every field checked where used). */
export interface SlackEnvelope {
  type?: string;
  challenge?: string;
  event_id?: string;
  team_id?: string;
  event?: {
    type?: string; channel_type?: string; bot_id?: string; subtype?: string; user?: string;
    text?: string; channel?: string; ts?: string; thread_ts?: string; team?: string;
  } | null;
}

interface SlackAnswer {
  ok?: boolean;
  error?: string;
  team_id?: string;
  team?: unknown;
  user_id?: string;
  access_token?: string;
  bot_user_id?: string;
}

/** What a verified Events API body asks for. `botUserId` keeps the bot from answering itself. */
export function parseSlackEvent(body: SlackEnvelope, botUserId?: string): Parsed {
  if (body.type === "url_verification" && typeof body.challenge === "string") {
    return { kind: "respond", body: { challenge: body.challenge } };
  }
  if (body.type !== "event_callback" || typeof body.event !== "object" || !body.event) return { kind: "ignore" };
  const ev = body.event;
  const isMention = ev.type === "app_mention";
  const isDm = ev.type === "message" && ev.channel_type === "im";
  // Bots (ourselves included), edits, joins and other subtypes are not questions.
  if ((!isMention && !isDm) || ev.bot_id || ev.subtype || !ev.user || (botUserId && ev.user === botUserId)) return { kind: "ignore" };
  const text = String(ev.text ?? "").replace(/<@[A-Z0-9]+(?:\|[^>]*)?>/g, "").trim();
  if (!text || typeof ev.channel !== "string" || typeof ev.ts !== "string") return { kind: "ignore" };
  const thread = typeof ev.thread_ts === "string" ? ev.thread_ts : ev.ts;
  const team = String(body.team_id ?? ev.team ?? "");
  const message: InboundMessage = {
    deliveryId: String(body.event_id ?? `${ev.channel}:${ev.ts}`),
    conversationKey: `${team}:${ev.channel}:${thread}`,
    userId: String(ev.user),
    chatId: ev.channel,
    threadId: thread,
    text,
    kind: "message",
    replyTo: { channel: ev.channel, thread_ts: thread },
  };
  return { kind: "message", messages: [message], ack: { body: { ok: true } } };
}

async function slackCall(client: PlatformClient, token: string, method: string, payload: Record<string, unknown>) {
  const res = await client.fetch(`${client.baseUrl}/${method}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json; charset=utf-8" },
    body: JSON.stringify(payload),
  });
  if (res.status === 429) throw new PlatformError("slack_rate_limited", "Slack asked us to slow down (HTTP 429)", 429);
  const data = await platformJson<SlackAnswer>(res, "slack");
  if (!data.ok) throw new PlatformError(`slack_${data.error ?? "error"}`, `Slack refused ${method}: ${data.error ?? `HTTP ${res.status}`}`, res.status);
  return data;
}

/** Checks the bot token (auth.test) and returns the settings to keep. */
export async function connectSlack(client: PlatformClient, botToken: string) {
  const who = await slackCall(client, botToken, "auth.test", {});
  return { team_id: String(who.team_id ?? ""), team_name: String(who.team ?? ""), bot_user_id: String(who.user_id ?? "") };
}

/** Posts the answer in the thread, split at Slack's comfortable length. */
export async function sendSlack(client: PlatformClient, botToken: string, to: { channel: string; thread_ts?: string }, text: string) {
  for (const part of splitMessage(text, SLACK_TEXT_LIMIT, toSlackMrkdwn)) {
    await slackCall(client, botToken, "chat.postMessage", {
      channel: to.channel,
      ...(to.thread_ts ? { thread_ts: to.thread_ts } : {}),
      text: toSlackMrkdwn(part),
      unfurl_links: false,
    });
  }
}

// OAuth install (a Slack app of the owner's, client id in settings, client secret in the
// credentials): Slack's authorize page, then oauth.v2.access exchanges the code for the
// bot token. PARLEY_SLACK_OAUTH_URL is the authorize page (default Slack's).
export const SLACK_BOT_SCOPES = ["app_mentions:read", "chat:write", "im:history"];

export function slackAuthorizeUrl(clientId: string, redirectUri: string, state: string): string {
  const base = platformBaseUrl("PARLEY_SLACK_OAUTH_URL", "https://slack.com/oauth/v2/authorize");
  const q = new URLSearchParams({ client_id: clientId, scope: SLACK_BOT_SCOPES.join(","), redirect_uri: redirectUri, state });
  return `${base}?${q}`;
}

/** Exchanges an OAuth code for the bot token and the workspace it was installed in. */
export async function exchangeSlackCode(client: PlatformClient, clientId: string, clientSecret: string, code: string, redirectUri: string) {
  const res = await client.fetch(`${client.baseUrl}/oauth.v2.access`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ client_id: clientId, client_secret: clientSecret, code, redirect_uri: redirectUri }),
  });
  const data = await platformJson<SlackAnswer>(res, "slack");
  if (!data.ok || typeof data.access_token !== "string") {
    throw new PlatformError(`slack_${data.error ?? "oauth_failed"}`, `Slack refused the installation: ${data.error ?? `HTTP ${res.status}`}`, res.status);
  }
  const team = (data.team && typeof data.team === "object" ? data.team : {}) as { id?: string; name?: string };
  return {
    botToken: data.access_token,
    settings: { team_id: String(team.id ?? ""), team_name: String(team.name ?? ""), bot_user_id: String(data.bot_user_id ?? "") },
  };
}
