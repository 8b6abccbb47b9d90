// `chat`: answers a visitor's message with the bot's knowledge.
//   POST /functions/v1/chat  {bot_id, chat_id?, message, images?: [{path}], channel?}
// as the caller (a signed-in or anonymous user). Every read and write the caller
// may do goes through the caller's client so RLS decides access: creating the
// chat, storing the user's turn, retrieval (match_chunks). The service role is
// used only for what no caller may do: reading the bot's model settings and the
// team's provider key, rate-limit counters, and writing the assistant's turn.
// Streams Server-Sent Events (meta, token, sources, done | error), or with
// `Accept: application/json` answers once with the whole message.
import { createServiceClient, createUserClient } from "../_shared/clients.ts";
import { corsHeaders } from "../_shared/cors.ts";
import { handler, HttpError, json, readJson } from "../_shared/http.ts";
import { checkRateLimits, limitFromEnv } from "../_shared/rate-limit.ts";
import { extractiveSelection, generateExtractive, type Passage } from "../_shared/providers/extractive.ts";
import {
  createProvider,
  DEFAULT_MODELS,
  envBaseUrl,
  type GenerateEvent,
  PROVIDERS,
  ProviderError,
  type ProviderName,
  type Turn,
  type Usage,
} from "../_shared/providers/index.ts";
import { toProviderError } from "../_shared/providers/retry.ts";
import { checkedBaseUrl, guardedFetch } from "../_shared/providers/guard.ts";
import { loadImages } from "./images.ts";
import { retrieve } from "./retrieve.ts";
import { systemPrompt, toSource, type Source } from "./prompt.ts";
import { chatRequestSchema } from "./schema.ts";
import { callerId } from "./caller.ts";

const HISTORY_MESSAGES = 20; // ~10 turns
const MATCH_COUNT = 8;

/** The database's own per-user insert limit (migration 20261121030100) answered PT429. */
function tooManyInserts(): HttpError {
  return new HttpError(429, "rate_limited", "Too many messages; try again in a minute", { retry_after: 60 });
}
const exposeHeaders = { "Access-Control-Expose-Headers": "Retry-After" };

interface BotRow {
  id: string;
  team_id: string;
  language: string;
  instructions: string;
  model_provider: string;
  model: string | null;
  temperature: number | string;
}

/** Why the caller may not use the bot: 403 password_required for a password bot, 404 otherwise. */
async function accessError(user: ReturnType<typeof createUserClient>, botId: string): Promise<HttpError> {
  const { data } = await user.rpc("get_public_bot", { bot_id: botId });
  const face = (Array.isArray(data) ? data[0] : data) as { visibility?: string } | undefined;
  if (face?.visibility === "password") {
    return new HttpError(403, "password_required", "This bot is password-protected. Enter its password first.");
  }
  return new HttpError(404, "bot_not_found", "Bot not found");
}

type Send = (event: "meta" | "token" | "sources" | "done" | "error", data: unknown) => void;

Deno.serve(
  handler(async (req) => {
    const started = performance.now();
    if (req.method !== "POST") throw new HttpError(405, "method_not_allowed", "Use POST");
    const userId = callerId(req);
    const parsed = chatRequestSchema.safeParse(await readJson(req, 32 * 1024));
    if (!parsed.success) {
      throw new HttpError(
        400,
        "invalid_request",
        parsed.error.issues[0]?.message ?? "Invalid request",
        parsed.error.issues,
      );
    }
    const body = parsed.data;
    const service = createServiceClient();
    const user = createUserClient(req);

    const [limited, botRes] = await Promise.all([
      checkRateLimits([
        { key: `chat:user:${userId}`, max: limitFromEnv("PARLEY_CHAT_USER_LIMIT", 20), windowSeconds: 60 },
        { key: `chat:bot:${body.bot_id}`, max: limitFromEnv("PARLEY_CHAT_BOT_LIMIT", 600), windowSeconds: 60 },
      ]),
      service
        .from("bots")
        .select("id, team_id, language, instructions, model_provider, model, temperature")
        .eq("id", body.bot_id)
        .maybeSingle(),
    ]);
    if (limited)
      return new Response(limited.body, {
        status: 429,
        headers: { ...Object.fromEntries(limited.headers), ...exposeHeaders },
      });
    if (botRes.error) throw new Error(`bot lookup: ${botRes.error.message}`);
    const bot = botRes.data as BotRow | null;
    if (!bot) throw new HttpError(404, "bot_not_found", "Bot not found");

    const images = body.images?.length
      ? await loadImages(
          user,
          userId,
          body.images.map((i) => i.path),
        )
      : [];

    // The chat: the caller's own (RLS), or a new one (RLS decides whether they may chat with the bot).
    let chatId = body.chat_id;
    let isNewChat = false;
    if (chatId) {
      const { data, error } = await user
        .from("chats")
        .select("id, bot_id")
        .eq("id", chatId)
        .eq("user_id", userId)
        .maybeSingle();
      if (error) throw new Error(`chat lookup: ${error.message}`);
      if (!data || data.bot_id !== bot.id) throw new HttpError(404, "chat_not_found", "Chat not found");
    } else {
      chatId = crypto.randomUUID();
      isNewChat = true;
      const { error } = await user.from("chats").insert({ id: chatId, bot_id: bot.id, channel: body.channel ?? "web" });
      if (error) {
        if (error.code === "42501") throw await accessError(user, bot.id);
        if (error.code === "PT429") throw tooManyInserts();
        throw new Error(`chat insert: ${error.message}`);
      }
    }

    const userMessageId = crypto.randomUUID();
    const insertUser = await user.from("messages").insert({
      id: userMessageId,
      chat_id: chatId,
      role: "user",
      content: body.message,
      images: images.map(({ path, mime, size }) => ({ path, mime, size })),
    });
    if (insertUser.error) {
      if (insertUser.error.code === "42501") throw await accessError(user, bot.id);
      if (insertUser.error.code === "PT429") throw tooManyInserts();
      throw new Error(`message insert: ${insertUser.error.message}`);
    }

    const assistantId = crypto.randomUUID();
    const abort = new AbortController();

    async function answer(send: Send): Promise<void> {
      send("meta", { chat_id: chatId, message_id: assistantId, user_message_id: userMessageId });
      const provider = bot!.model_provider as ProviderName | "extractive";
      const [history, passagesRes, keyRes] = await Promise.all([
        isNewChat
          ? Promise.resolve({ data: [] as Array<{ role: "user" | "assistant"; content: string }>, error: null })
          : user
              .from("messages")
              .select("role, content, error")
              .eq("chat_id", chatId!)
              .neq("id", userMessageId)
              .order("created_at", { ascending: false })
              .limit(HISTORY_MESSAGES),
        retrieve(service, user, bot!, body.message, MATCH_COUNT),
        provider === "extractive" || !PROVIDERS.includes(provider)
          ? Promise.resolve({ data: null, error: null })
          : service
              .from("team_provider_keys")
              .select("api_key, base_url")
              .eq("team_id", bot!.team_id)
              .eq("provider", provider)
              .maybeSingle(),
      ]);
      if (passagesRes.error) {
        // Retrieval failed (e.g. a statement timeout): say so rather than pretend nothing matched.
        console.error(
          JSON.stringify({
            level: "error",
            msg: "retrieval_failed",
            code: passagesRes.error.code,
            error: passagesRes.error.message,
          }),
        );
        send("error", {
          code: "retrieval_failed",
          message: "I couldn't search my knowledge right now. Please try again in a moment.",
        });
        return;
      }
      if (history.error) throw new Error(`history: ${history.error.message}`);
      if (keyRes.error) throw new Error(`provider key: ${keyRes.error.message}`);
      const passages = (passagesRes.data ?? []) as Passage[];

      // No provider configured (no team key, no platform key or base URL): the extractive default.
      const key = keyRes.data as { api_key: string | null; base_url: string | null } | null;
      const named = provider !== "extractive" && PROVIDERS.includes(provider) ? provider : null;
      const platformKey = named ? Deno.env.get(`PARLEY_${named.toUpperCase()}_API_KEY`) : undefined;
      const usable = named && (key || platformKey || (named === "openai_compatible" && envBaseUrl(named)));

      let events: AsyncIterable<GenerateEvent>;
      let sources: Source[];
      let model: string | null = null;
      let usedProvider = "extractive";
      if (usable) {
        usedProvider = named;
        const modelName = bot!.model || DEFAULT_MODELS[named];
        model = modelName;
        sources = passages.map(toSource);
        const turns: Turn[] = [
          // Failed or empty answers are not part of the conversation a model should see.
          ...((history.data ?? []) as Array<Turn & { error: string | null }>)
            .reverse()
            .filter((t) => !t.error && t.content.trim())
            .map((t) => ({ role: t.role, content: t.content })),
          { role: "user", content: body.message, images: images.map(({ mime, data }) => ({ mime, data })) },
        ];
        // A team's provider row is used whole, its key with its base URL; the platform's key
        // (PARLEY_<PROVIDER>_API_KEY) only ever goes to the platform's or the vendor's URL,
        // never to one a team chose. A team's base URL is fetched like any user-given address.
        const teamBaseUrl = key?.base_url ?? null;
        const generate = () =>
          createProvider({
            provider: named,
            apiKey: key ? key.api_key : platformKey,
            baseUrl: teamBaseUrl,
            fetch: teamBaseUrl ? guardedFetch : undefined,
            timeoutMs: limitFromEnv("PARLEY_PROVIDER_TIMEOUT_MS", 60_000),
            backoffMs: limitFromEnv("PARLEY_PROVIDER_BACKOFF_MS", 500),
          }).generate({
            system: systemPrompt(bot!.instructions, bot!.language, passages),
            messages: turns,
            temperature: Number(bot!.temperature),
            model: modelName,
            signal: abort.signal,
          });
        events = teamBaseUrl ? checkedBaseUrl(teamBaseUrl, named, generate) : generate();
      } else {
        sources = extractiveSelection(passages).map(toSource);
        events = generateExtractive(body.message, passages, bot!.language);
      }

      let content = "";
      let usage: Usage = { prompt_tokens: 0, completion_tokens: 0 };
      let firstTokenMs: number | null = null;
      let failure: ProviderError | null = null;
      try {
        for await (const ev of events) {
          if (ev.type === "token") {
            firstTokenMs ??= Math.round(performance.now() - started);
            content += ev.text;
            send("token", { text: ev.text });
          } else usage = ev.usage;
        }
      } catch (err) {
        failure = err instanceof ProviderError ? err : toProviderError(usedProvider, err, abort.signal);
        console.error(
          JSON.stringify({
            level: "warn",
            msg: "provider_failed",
            provider: usedProvider,
            code: failure.code,
            detail: failure.message,
          }),
        );
      }
      if (!failure) send("sources", sources);
      const latencyMs = Math.round(performance.now() - started);
      const stored = await service.from("messages").insert({
        id: assistantId,
        chat_id: chatId,
        bot_id: bot!.id,
        role: "assistant",
        content,
        sources: failure ? [] : sources,
        prompt_tokens: usage.prompt_tokens,
        completion_tokens: usage.completion_tokens,
        latency_ms: latencyMs,
        first_token_ms: firstTokenMs,
        model,
        provider: usedProvider,
        error: failure ? `${failure.code}: ${failure.message}`.slice(0, 2000) : null,
      });
      if (stored.error) throw new Error(`answer insert: ${stored.error.message}`);
      if (failure) send("error", { code: failure.code, message: failure.visitorMessage });
      else send("done", { message_id: assistantId, usage, latency_ms: latencyMs, first_token_ms: firstTokenMs });
    }

    const wantsJson =
      /application\/json/i.test(req.headers.get("accept") ?? "") &&
      !/text\/event-stream/i.test(req.headers.get("accept") ?? "");
    if (wantsJson) {
      let text = "";
      let result: Record<string, unknown> = {};
      let error: { code: string; message: string } | null = null;
      await answer((event, data) => {
        if (event === "token") text += (data as { text: string }).text;
        else if (event === "sources") result.sources = data;
        else if (event === "done") result = { ...result, ...(data as object) };
        else if (event === "meta") result = { ...result, ...(data as object) };
        else if (event === "error") error = data as { code: string; message: string };
      });
      if (error) return json(502, { error, chat_id: chatId, message_id: assistantId });
      return json(200, { ...result, content: text });
    }

    const encoder = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        let open = true;
        const send: Send = (event, data) => {
          if (!open) return;
          try {
            controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
          } catch {
            open = false;
          }
        };
        try {
          await answer(send);
        } catch (e) {
          console.error(
            JSON.stringify({ level: "error", msg: "chat_failed", error: String((e as Error)?.stack ?? e) }),
          );
          send("error", { code: "internal_error", message: "Something went wrong on our side. Please try again." });
        } finally {
          if (open) {
            open = false;
            controller.close();
          }
        }
      },
      cancel() {
        abort.abort(new DOMException("The visitor left", "AbortError"));
      },
    });
    return new Response(stream, {
      headers: {
        ...corsHeaders,
        "Content-Type": "text/event-stream; charset=utf-8",
        "Cache-Control": "no-cache, no-transform",
        "X-Accel-Buffering": "no",
      },
    });
  }),
);
