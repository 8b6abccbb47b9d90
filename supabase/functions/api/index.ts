// `api`: the HTTP API channel, for a bot's API keys.
//   POST /functions/v1/api/v1/chat           {message, conversation_id?, bot_id?, stream?}
//   GET  /functions/v1/api/v1/openapi.json   the OpenAPI 3.1 document (no key needed)
// `Authorization: Bearer pk_...` (config.toml: verify_jwt = false; the key is not a JWT).
// The key's sha256 finds its bot; a revoked or unknown key is 401. Each key has its own
// per-minute limit (api_keys.rate_limit_per_minute), each address a limit on all calls.
// The message goes through the answering engine as an "api" channel chat: its thread is
// `<key id>:<conversation id>`, so a conversation continues by id only with the key that
// started it. JSON by default; Server-Sent Events (meta, token, sources, done | error,
// the web chat's events) with `Accept: text/event-stream` or `stream: true`.
import { isTypeTurnedOff } from "../_shared/platform-features.ts";
import { createServiceClient } from "../_shared/clients.ts";
import { dbFailure } from "../_shared/db.ts";
import { clientIp, handler, HttpError, json, readJson } from "../_shared/http.ts";
import { enforceRateLimits, ipKey, limitFromEnv } from "../_shared/rate-limit.ts";
import { collectAnswer, sseAnswer, startAnswer } from "../_shared/engine/index.ts";
import { sha256Hex } from "../_shared/channels/crypto.ts";
import { isUuid, recordChannelEvent } from "../_shared/channels/store.ts";
import { channelHttpError } from "../_shared/channels/types.ts";
import { openApiDocument } from "./openapi.ts";

interface KeyRow {
  id: string;
  bot_id: string;
  rate_limit_per_minute: number;
}

function bearer(req: Request): string | null {
  return /^Bearer\s+(\S+)\s*$/i.exec(req.headers.get("authorization") ?? "")?.[1] ?? null;
}

/** The key's row, or 401. Only well-formed keys are looked up. */
async function authenticate(req: Request): Promise<KeyRow> {
  const key = bearer(req) ?? req.headers.get("x-api-key");
  if (!key) throw channelHttpError(401, "missing_api_key", "Send your API key as Authorization: Bearer pk_...");
  if (!/^pk_[A-Za-z0-9_-]{20,100}$/.test(key)) throw channelHttpError(401, "invalid_api_key", "This API key is not valid");
  const { data, error } = await createServiceClient()
    .from("api_keys")
    .select("id, bot_id, rate_limit_per_minute")
    .eq("key_hash", await sha256Hex(key))
    .is("revoked_at", null)
    .maybeSingle();
  if (error) throw dbFailure(error, "api key lookup");
  if (!data) throw channelHttpError(401, "invalid_api_key", "This API key is not valid or was revoked");
  return data as KeyRow;
}

interface ChatBody {
  message: string;
  conversationId: string | null;
  botId: string | null;
  stream: boolean;
}

function parseBody(body: unknown): ChatBody {
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new HttpError(400, "invalid_request", "The body is a JSON object");
  const b = body as Record<string, unknown>;
  const unknown = Object.keys(b).filter((k) => !["message", "conversation_id", "bot_id", "stream"].includes(k));
  if (unknown.length) throw new HttpError(400, "invalid_request", `Unknown field: ${unknown[0]}`);
  if (typeof b.message !== "string" || !b.message.trim()) throw new HttpError(400, "invalid_request", "message is a non-empty text");
  for (const f of ["conversation_id", "bot_id"] as const) {
    if (b[f] !== undefined && b[f] !== null && (typeof b[f] !== "string" || !isUuid(b[f] as string))) {
      throw new HttpError(400, "invalid_request", `${f} is a uuid`);
    }
  }
  if (b.stream !== undefined && typeof b.stream !== "boolean") throw new HttpError(400, "invalid_request", "stream is true or false");
  return {
    message: b.message,
    conversationId: (b.conversation_id as string | undefined) ?? null,
    botId: (b.bot_id as string | undefined) ?? null,
    stream: b.stream === true,
  };
}

Deno.serve(
  handler("api", async (req, { log }) => {
    const url = new URL(req.url);
    const route = url.pathname.replace(/^.*?\/api(?=\/|$)/, "").replace(/\/+$/, "") || "/";
    if (route === "/v1/openapi.json" || route === "/openapi.json") {
      if (req.method !== "GET") throw new HttpError(405, "method_not_allowed", "Use GET");
      const base = `${(Deno.env.get("PARLEY_FUNCTIONS_URL") || `${Deno.env.get("SUPABASE_URL") ?? ""}/functions/v1`).replace(/\/+$/, "")}/api`;
      return json(200, openApiDocument(base), { "Cache-Control": "public, max-age=300" });
    }
    if (route !== "/v1/chat") throw new HttpError(404, "not_found", "No such endpoint; see /v1/openapi.json");
    if (req.method !== "POST") throw new HttpError(405, "method_not_allowed", "Use POST");

    // Strangers are limited by address before any key is looked up.
    await enforceRateLimits([{ key: `api:ip:${ipKey(clientIp(req))}`, max: limitFromEnv("PARLEY_API_IP_LIMIT", 300), windowSeconds: 60 }]);
    const key = await authenticate(req);
    const body = parseBody(await readJson(req, 32 * 1024));
    if (body.botId && body.botId !== key.bot_id) throw channelHttpError(403, "wrong_bot", "This API key belongs to another bot");
    await enforceRateLimits([{ key: `api:key:${key.id}`, max: key.rate_limit_per_minute, windowSeconds: 60 }]);

    const service = createServiceClient();
    // The bot's API channel, when it has one, can be turned off (and counts the traffic).
    const channels = await service.from("channels").select("id, enabled").eq("bot_id", key.bot_id).eq("type", "api");
    if (channels.error) throw dbFailure(channels.error, "api channel");
    if (channels.data.length && !channels.data.some((c) => c.enabled)) {
      throw channelHttpError(403, "channel_disabled", "The bot's HTTP API is turned off");
    }
    if (await isTypeTurnedOff(service, "channel", "api")) {
      throw channelHttpError(403, "channel_disabled", "The HTTP API is turned off on this platform");
    }
    const apiChannel = channels.data.find((c) => c.enabled) ?? null;

    const conversationId = body.conversationId ?? crypto.randomUUID();
    const thread = `${key.id}:${conversationId}`;
    if (body.conversationId) {
      const found = await service.from("chats").select("id").eq("bot_id", key.bot_id).eq("channel", "api")
        .eq("external_thread_id", thread).maybeSingle();
      if (found.error) throw dbFailure(found.error, "conversation lookup");
      if (!found.data) throw channelHttpError(404, "conversation_not_found", "No such conversation for this API key");
    }
    void service.from("api_keys").update({ last_used_at: new Date().toISOString() }).eq("id", key.id).then(({ error }) => {
      if (error) log.warn("api_key_touch_failed", { error: error.message });
    });

    const abort = new AbortController();
    const answer = await startAnswer({
      botId: key.bot_id,
      message: body.message,
      conversation: { kind: "channel", channel: "api", externalThreadId: thread, externalUserId: key.id },
      signal: abort.signal,
      log,
    });
    if (apiChannel) {
      recordChannelEvent(service, apiChannel.id, 2).catch((e) => log.warn("api_channel_record_failed", { error: String(e) }));
    }
    const ids = { conversation_id: conversationId, chat_id: answer.meta?.chat_id ?? null, message_id: answer.messageId, user_message_id: answer.meta?.user_message_id ?? null };

    const wantsStream = body.stream || /text\/event-stream/i.test(req.headers.get("accept") ?? "");
    if (wantsStream) {
      // sseAnswer's response carries the CORS headers already (adding them again under other
      // letter cases doubled them, "*, *", which browsers refuse).
      return sseAnswer({ ...answer, meta: ids as never }, () => abort.abort(new DOMException("The client left", "AbortError")));
    }
    const whole = await collectAnswer(answer);
    if (whole.error) return json(502, { error: whole.error, ...ids });
    return json(200, {
      ...ids,
      content: whole.content,
      sources: whole.sources,
      usage: whole.usage,
      latency_ms: whole.latencyMs,
      first_token_ms: whole.firstTokenMs,
    });
  }),
);
