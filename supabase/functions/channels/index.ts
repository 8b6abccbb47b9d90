// `channels`: the receiver of every messaging platform's deliveries.
//   POST /functions/v1/channels/<channelId>/<slack|discord|telegram|whatsapp>
//   GET  /functions/v1/channels/<channelId>/whatsapp?hub.mode=subscribe&...  (Meta's check)
// No JWT (config.toml: verify_jwt = false): platforms sign their deliveries, and
// the signature (or secret token) is checked before anything is read. Then:
//   unknown channel or platform 404, disabled channel 403, body over 256 KiB 413,
//   bad or missing signature 401, stale timestamp or replayed old message 401,
//   over PARLEY_CHANNELS_IP_LIMIT calls per minute from one address (default 1200)
//   429 — none of them is ever answered.
// A verified message is acknowledged at once (Slack wants 3 s, Discord a deferred
// response) and answered after, through the answering engine as a channel chat.
// A delivery already handled (the platform retrying after a late or lost ack) gets
// the same acknowledgement again and is not answered twice: Slack, Telegram and Meta
// count any other status as a failure and retry, or turn the subscription off.
import { isTypeTurnedOff } from "../_shared/platform-features.ts";
import { createServiceClient } from "../_shared/clients.ts";
import { clientIp, handler, HttpError, httpErrorResponse, json, readBoundedText } from "../_shared/http.ts";
import { enforceRateLimits, ipKey, limitFromEnv } from "../_shared/rate-limit.ts";
import { collectAnswer, startAnswer } from "../_shared/engine/index.ts";
import { isMessagingType, sendReply, verifyAndParse, answerGet } from "../_shared/channels/platforms.ts";
import { timingSafeEqual } from "../_shared/channels/crypto.ts";
import { exchangeSlackCode, slackClient } from "../_shared/channels/slack.ts";
import { env } from "../_shared/env.ts";
import { externalThreadId, firstDelivery, type LoadedChannel, loadChannel, receiverUrl, recordChannelEvent, saveChannel, welcomeText } from "../_shared/channels/store.ts";
import { ChannelError, channelHttpError, type InboundMessage, PlatformError } from "../_shared/channels/types.ts";
import { inBackground, type Logger } from "../_shared/log.ts";

export const MAX_DELIVERY_BYTES = 256 * 1024;


/** The engine's answer to one message (or the greeting), sent back to the platform. */
async function answer(channel: LoadedChannel, msg: InboundMessage, receivedAt: Date, log: Logger): Promise<void> {
  const service = createServiceClient();
  let text: string;
  let stored = 0;
  if (msg.kind === "start") {
    text = welcomeText(channel);
  } else {
    try {
      const started = await startAnswer({
        botId: channel.botId,
        message: msg.text,
        conversation: {
          kind: "channel",
          channel: channel.type as "slack" | "discord" | "telegram" | "whatsapp",
          externalThreadId: await externalThreadId(channel.id, msg.conversationKey),
          externalUserId: msg.userId.slice(0, 200),
        },
        log,
      });
      const whole = await collectAnswer(started);
      stored = 2;
      text = whole.error ? whole.error.message : whole.content || "…";
    } catch (e) {
      // A refused turn (rate limit, a message too long): tell the person, store nothing.
      if (!(e instanceof HttpError) || e.status >= 500) throw e;
      text = e.message;
    }
  }
  try {
    await sendReply(channel, msg, text, receivedAt);
    await recordChannelEvent(service, channel.id, stored);
  } catch (e) {
    if (!(e instanceof PlatformError)) throw e;
    log.warn("channel_reply_refused", { channel_id: channel.id, code: e.code, detail: e.message });
    await recordChannelEvent(service, channel.id, stored, e.message);
  }
}

/**
 * GET <receiver>/oauth?code&state: Slack's return from the app's install page. The state must
 * be the one-time value channels-connect made (10 minutes); the code becomes the bot token.
 * The browser goes back to the channel's settings, with ?installed=slack or ?install_error=<code>.
 */
async function slackOAuthReturn(channel: LoadedChannel, params: URLSearchParams, log: Logger): Promise<Response> {
  const [expected = "", expires = "0"] = (channel.secrets.oauth_state ?? "").split(".");
  const state = params.get("state") ?? "";
  if (!expected || !state || !timingSafeEqual(state, expected) || Date.now() > Number(expires)) {
    throw new ChannelError(400, "invalid_state", "This installation link is not valid (any more). Start again from Parley.");
  }
  const service = createServiceClient();
  const back = (query: string) =>
    new Response(null, { status: 302, headers: { Location: `${env.siteUrl}/app/bots/${channel.botId}/channels/${channel.id}/settings?${query}` } });
  const denied = params.get("error");
  const code = params.get("code");
  if (denied || !code) {
    await saveChannel(service, channel, { removeSecrets: ["oauth_state"] });
    return back(`install_error=${encodeURIComponent(denied ?? "no_code")}`);
  }
  try {
    const done = await exchangeSlackCode(slackClient(), channel.settings.client_id ?? "", channel.secrets.client_secret ?? "", code, `${receiverUrl(channel)}/oauth`);
    await saveChannel(service, channel, {
      secrets: { bot_token: done.botToken },
      removeSecrets: ["oauth_state"],
      settings: done.settings,
      status: channel.secrets.signing_secret ? "connected" : "needs_attention",
      lastError: channel.secrets.signing_secret ? null : "Paste the Slack app's signing secret to receive events",
    });
    return back("installed=slack");
  } catch (e) {
    if (!(e instanceof PlatformError)) throw e;
    log.warn("slack_install_refused", { channel_id: channel.id, code: e.code });
    await saveChannel(service, channel, { removeSecrets: ["oauth_state"], status: "needs_attention", lastError: e.message });
    return back(`install_error=${encodeURIComponent(e.code)}`);
  }
}

Deno.serve(
  handler("channels", async (req, { log }) => {
    const url = new URL(req.url);
    const parts = url.pathname.split("/").filter(Boolean);
    const at = parts.lastIndexOf("channels");
    const [channelId = "", platform = "", ...extra] = at >= 0 ? parts.slice(at + 1) : [];
    const oauth = platform === "slack" && extra.length === 1 && extra[0] === "oauth";
    if ((extra.length && !oauth) || !isMessagingType(platform)) throw channelHttpError(404, "channel_not_found", "No channel here");
    if (req.method !== "POST" && req.method !== "GET") throw new HttpError(405, "method_not_allowed", "Use POST");
    // Anyone can call a receiver: each address is limited before any channel is looked up.
    await enforceRateLimits([{ key: `channels:ip:${ipKey(clientIp(req))}`, max: limitFromEnv("PARLEY_CHANNELS_IP_LIMIT", 1200), windowSeconds: 60 }]);
    const raw = req.method === "POST" ? await readBoundedText(req, MAX_DELIVERY_BYTES) : "";

    const service = createServiceClient();
    const channel = await loadChannel(service, channelId);
    if (!channel || channel.type !== platform) throw channelHttpError(404, "channel_not_found", "No channel here");
    if (!channel.enabled) throw channelHttpError(403, "channel_disabled", "This channel is turned off");
    if (await isTypeTurnedOff(service, "channel", channel.type)) {
      throw channelHttpError(403, "channel_disabled", "This kind of channel is turned off on this platform");
    }

    try {
      if (oauth) {
        if (req.method !== "GET") throw new ChannelError(405, "method_not_allowed", "Slack returns with GET");
        return await slackOAuthReturn(channel, url.searchParams, log);
      }
      if (req.method === "GET") {
        return new Response(answerGet(channel, url.searchParams), { headers: { "Content-Type": "text/plain" } });
      }
      const parsed = await verifyAndParse(channel, req.headers, raw);
      if (parsed.kind === "respond") return json(parsed.status ?? 200, parsed.body);
      if (parsed.kind === "ignore") {
        if (parsed.reason === "stale") throw new ChannelError(401, "stale_request", "The message is too old to answer");
        return json(200, { ok: true });
      }
      const fresh: InboundMessage[] = [];
      for (const msg of parsed.messages) if (await firstDelivery(service, channel.id, msg.deliveryId)) fresh.push(msg);
      if (!fresh.length) {
        log.info("channel_delivery_repeated", { channel_id: channel.id, platform });
        return json(parsed.ack.status ?? 200, parsed.ack.body);
      }
      const receivedAt = new Date();
      inBackground(
        (async () => {
          for (const msg of fresh) await answer(channel, msg, receivedAt, log.with({ channel_id: channel.id, platform }));
        })(),
        log,
        "channel_answer_failed",
      );
      return json(parsed.ack.status ?? 200, parsed.ack.body);
    } catch (e) {
      if (e instanceof ChannelError) {
        if (e.status === 401) log.warn("channel_delivery_refused", { channel_id: channel.id, code: e.code });
        return httpErrorResponse(channelHttpError(e.status, e.code, e.message));
      }
      throw e;
    }
  }),
);
