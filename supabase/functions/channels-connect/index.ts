// `channels-connect`: what the channel settings screen asks of a platform.
//   POST /functions/v1/channels-connect  {channel_id, action: "connect" | "test" | "disconnect"}
// as a signed-in admin or owner of the channel's bot (public.can_manage_bot, as the caller).
//   connect     checks the credentials with the platform and registers Parley there:
//               Slack auth.test, Discord's application and the /ask command, Telegram
//               getMe + setWebhook with a fresh secret_token, WhatsApp's phone number
//               (and a verify token for Meta's callback check, shown once). Web and API
//               channels simply become connected.
//   test        sends a test message to settings.test_recipient or the latest conversation.
//   disconnect  removes Parley's webhook where the platform has one (Telegram) and
//               marks the channel not connected.
//   install     Slack with the owner's own app (settings.client_id, secret client_secret):
//               the authorize URL to send the browser to, with a one-time state (10 minutes);
//               Slack returns to the `channels` receiver's /oauth path, which stores the token.
// Answers {channel: {id, status, last_error, settings}, webhook_url, show_once?}; a
// platform's refusal is 422 with its code (the channel then needs attention).
import { createServiceClient, createUserClient } from "../_shared/clients.ts";
import { requireVerifiedCaller } from "../_shared/caller.ts";
import { dbFailure } from "../_shared/db.ts";
import { handler, HttpError, json, readJson } from "../_shared/http.ts";
import { enforceRateLimits } from "../_shared/rate-limit.ts";
import { connectPlatform, disconnectPlatform, isMessagingType, sendChannelMessage } from "../_shared/channels/platforms.ts";
import { isUuid, latestConversation, loadChannel, receiverUrl, recordChannelEvent, saveChannel, welcomeText } from "../_shared/channels/store.ts";
import { randomSecret } from "../_shared/channels/crypto.ts";
import { slackAuthorizeUrl } from "../_shared/channels/slack.ts";
import { channelHttpError, PlatformError } from "../_shared/channels/types.ts";
import { CHANNEL_ERROR_CODES, type ChannelErrorCode } from "../_shared/contracts/channels.ts";

const ACTIONS = ["connect", "test", "disconnect", "install"] as const;
type Action = (typeof ACTIONS)[number];

Deno.serve(
  handler("channels-connect", async (req, { log }) => {
    if (req.method !== "POST") throw new HttpError(405, "method_not_allowed", "Use POST");
    const body = (await readJson(req, 4 * 1024)) as { channel_id?: unknown; action?: unknown } | null;
    if (!body || typeof body !== "object" || Array.isArray(body)) throw new HttpError(400, "invalid_request", "The body is a JSON object");
    const unknown = Object.keys(body).find((k) => k !== "channel_id" && k !== "action");
    if (unknown !== undefined) throw new HttpError(400, "invalid_request", `Unknown field: ${unknown.slice(0, 100)}`);
    const channelId = typeof body?.channel_id === "string" ? body.channel_id : "";
    const action = body?.action as Action;
    if (!isUuid(channelId)) throw new HttpError(400, "invalid_request", "channel_id must be a channel's id");
    if (!ACTIONS.includes(action)) throw new HttpError(400, "invalid_request", `action is one of ${ACTIONS.join(", ")}`);

    // The caller's own view first (RLS), then the one write check.
    const user = createUserClient(req);
    const seen = await user.from("channels").select("id, bot_id").eq("id", channelId).maybeSingle();
    if (seen.error) throw dbFailure(seen.error, "channel lookup");
    if (!seen.data) throw channelHttpError(404, "channel_not_found", "Channel not found");
    const may = await user.rpc("can_manage_bot", { bot_id: seen.data.bot_id });
    if (may.error) throw dbFailure(may.error, "can_manage_bot");
    if (may.data !== true) throw new HttpError(403, "forbidden", "Only the team's admins and owners manage channels");
    await enforceRateLimits([{ key: `channels-connect:${channelId}`, max: 20, windowSeconds: 60 }]);

    const service = createServiceClient();
    const channel = (await loadChannel(service, channelId))!;
    const webhookUrl = isMessagingType(channel.type) ? receiverUrl(channel) : null;
    let showOnce: Record<string, string> | undefined;
    let authorizeUrl: string | undefined;
    try {
      if (action === "install") {
        if (channel.type !== "slack") throw new HttpError(400, "invalid_request", "Installing through OAuth is for Slack channels");
        const clientId = channel.settings.client_id?.trim();
        if (!clientId || !channel.secrets.client_secret) {
          throw new PlatformError("missing_credentials", "Set the Slack app's client id (settings) and client secret first");
        }
        const state = randomSecret(24);
        await saveChannel(service, channel, { secrets: { oauth_state: `${state}.${Date.now() + 10 * 60_000}` } });
        authorizeUrl = slackAuthorizeUrl(clientId, `${webhookUrl}/oauth`, state);
      } else if (action === "connect") {
        const done = await connectPlatform(channel, webhookUrl ?? "");
        showOnce = done.showOnce;
        await saveChannel(service, channel, { settings: done.settings, secrets: done.secrets, status: "connected", lastError: null });
      } else if (action === "disconnect") {
        await disconnectPlatform(channel);
        await saveChannel(service, channel, { status: "not_connected", lastError: null });
      } else {
        if (!isMessagingType(channel.type)) throw new HttpError(400, "invalid_request", "Test messages are for messaging channels");
        const { conversationKey, lastInboundAt } = await latestConversation(service, channel);
        await sendChannelMessage(channel, `✅ Parley test message for "${channel.name}". ${welcomeText(channel)}`, { conversationKey, lastInboundAt });
        await recordChannelEvent(service, channel.id, 0);
      }
    } catch (e) {
      if (!(e instanceof PlatformError)) throw e;
      log.warn("channel_platform_refused", { channel_id: channel.id, action, code: e.code });
      await saveChannel(service, channel, { status: "needs_attention", lastError: e.message });
      const known = (CHANNEL_ERROR_CODES as readonly string[]).includes(e.code);
      const error = channelHttpError(422, known ? (e.code as ChannelErrorCode) : "platform_error", e.message);
      throw known ? error : new HttpError(422, error.code, e.message, { platform_code: e.code });
    }
    const fresh = await service.from("channels").select("id, status, last_error, settings, last_event_at").eq("id", channel.id).single();
    if (fresh.error) throw dbFailure(fresh.error, "channel reread");
    return json(200, {
      channel: fresh.data,
      webhook_url: webhookUrl,
      ...(showOnce ? { show_once: showOnce } : {}),
      ...(authorizeUrl ? { authorize_url: authorizeUrl } : {}),
    });
  }, { verifyCaller: requireVerifiedCaller }),
);
