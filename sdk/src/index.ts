// @parley/sdk: a typed client of Parley's HTTP API (the "API" channel of a bot).
// No dependencies: it uses the platform's fetch, AbortController and streams, so it
// runs in Node 20+, Deno and browsers alike.
//
//   const parley = new Parley({ apiKey: "pk_...", baseUrl: "https://<project>.supabase.co" });
//   const answer = await parley.chat.send({ message: "How do I export my notes?" });
//   for await (const ev of parley.chat.stream({ message: "And import?", conversationId: answer.conversationId })) {
//     if (ev.type === "token") process.stdout.write(ev.text);
//   }

/** A passage of the bot's knowledge the answer cites as [n]. */
export interface Source {
  chunkId: string;
  documentId: string;
  title: string;
  url: string | null;
  excerpt: string;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
}

export interface SendOptions {
  /** The message, 1..4000 characters. */
  message: string;
  /** Optional: checked against the key's bot (a key belongs to one bot). */
  botId?: string;
  /** Continue a conversation this key started (from an earlier answer). */
  conversationId?: string;
  /** Aborts the request (and the retries). */
  signal?: AbortSignal;
}

export interface ChatAnswer {
  conversationId: string;
  chatId: string | null;
  messageId: string;
  content: string;
  sources: Source[];
  usage: Usage;
  latencyMs: number | null;
  firstTokenMs: number | null;
}

/** What `chat.stream` yields, in order: meta, token*, sources, done. A failure is thrown as ParleyError. */
export type StreamEvent =
  | { type: "meta"; conversationId: string; chatId: string | null; messageId: string }
  | { type: "token"; text: string }
  | { type: "sources"; sources: Source[] }
  | { type: "done"; messageId: string; usage: Usage; latencyMs: number | null; firstTokenMs: number | null };

export interface ParleyOptions {
  /** A bot's API key (pk_...), from Bot > Channels > HTTP API. */
  apiKey: string;
  /**
   * Where Parley runs: the project URL (https://<project>.supabase.co, or http://127.0.0.1:54321
   * locally) or the API's own URL (…/functions/v1/api).
   */
  baseUrl: string;
  /** Retries after 429 and 5xx answers (not 502: the message was stored). Default 2. */
  maxRetries?: number;
  /** First backoff in ms, doubled per retry (Retry-After wins when sent). Default 500. */
  backoffMs?: number;
  /** A fetch to use instead of the global one. */
  fetch?: typeof fetch;
}

/** Any failure: the HTTP status (0 for network failures), Parley's error code and message. */
export class ParleyError extends Error {
  override readonly name = "ParleyError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    /** Seconds to wait, from Retry-After (429). */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

const RETRYABLE = new Set([429, 500, 503, 504]);

function apiUrl(baseUrl: string): string {
  const u = new URL(baseUrl);
  const path = u.pathname.replace(/\/+$/, "");
  u.pathname = /\/functions\/v1\/api$/.test(path) ? path : `${path}/functions/v1/api`;
  return u.toString().replace(/\/+$/, "");
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

const toSource = (s: any): Source => ({
  chunkId: s.chunk_id,
  documentId: s.document_id,
  title: s.title,
  url: s.url ?? null,
  excerpt: s.excerpt,
});
const toUsage = (u: any): Usage => ({ promptTokens: u?.prompt_tokens ?? 0, completionTokens: u?.completion_tokens ?? 0 });

async function errorFrom(res: Response): Promise<ParleyError> {
  let body: any = null;
  try {
    body = await res.json();
  } catch {
    // not JSON (a proxy's page): the status says enough
  }
  const retryAfter = Number(res.headers.get("retry-after")) || body?.error?.details?.retry_after || undefined;
  return new ParleyError(
    res.status,
    body?.error?.code ?? `http_${res.status}`,
    body?.error?.message ?? `Parley answered HTTP ${res.status}`,
    body?.error?.details,
    retryAfter,
  );
}

/** Splits SSE text into frames; returns the complete ones and the rest. */
function sseFrames(buffer: string): { frames: { event: string; data: string }[]; rest: string } {
  const parts = buffer.replace(/\r\n?/g, "\n").split("\n\n");
  const rest = parts.pop() ?? "";
  const frames = parts.map((frame) => {
    let event = "message";
    const data: string[] = [];
    for (const line of frame.split("\n")) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    return { event, data: data.join("\n") };
  });
  return { frames, rest };
}

export class Parley {
  readonly chat: {
    /** Sends a message and resolves with the whole answer. */
    send(options: SendOptions): Promise<ChatAnswer>;
    /** Sends a message and yields the answer as it is written: meta, tokens, sources, done. */
    stream(options: SendOptions): AsyncIterable<StreamEvent>;
  };
  private readonly url: string;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: ParleyOptions) {
    if (!options?.apiKey) throw new ParleyError(0, "missing_api_key", "new Parley({ apiKey }) needs a bot's API key (pk_...)");
    if (!options.baseUrl) throw new ParleyError(0, "missing_base_url", "new Parley({ baseUrl }) needs your Parley project's URL");
    this.url = apiUrl(options.baseUrl);
    this.fetchImpl = options.fetch ?? ((...args) => fetch(...args));
    this.chat = {
      send: (o) => this.send(o),
      stream: (o) => this.stream(o),
    };
  }

  /** The API's OpenAPI 3.1 document. */
  async openapi(signal?: AbortSignal): Promise<Record<string, unknown>> {
    const res = await this.request("GET", "/v1/openapi.json", undefined, "application/json", signal);
    return (await res.json()) as Record<string, unknown>;
  }

  private body(o: SendOptions): string {
    return JSON.stringify({
      message: o.message,
      ...(o.botId ? { bot_id: o.botId } : {}),
      ...(o.conversationId ? { conversation_id: o.conversationId } : {}),
    });
  }

  /** One call with retries on 429/5xx (except 502) and network failures, honouring Retry-After. */
  private async request(method: string, path: string, body: string | undefined, accept: string, signal?: AbortSignal): Promise<Response> {
    const maxRetries = this.options.maxRetries ?? 2;
    const backoff = this.options.backoffMs ?? 500;
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await this.fetchImpl(`${this.url}${path}`, {
          method,
          headers: {
            Authorization: `Bearer ${this.options.apiKey}`,
            Accept: accept,
            ...(body ? { "Content-Type": "application/json" } : {}),
          },
          body,
          signal,
        });
      } catch (e) {
        if (signal?.aborted) throw e;
        if (attempt >= maxRetries) throw new ParleyError(0, "network_error", `Could not reach Parley: ${(e as Error)?.message ?? e}`);
        await sleep(backoff * 2 ** attempt, signal);
        continue;
      }
      if (res.ok) return res;
      const error = await errorFrom(res);
      if (!RETRYABLE.has(res.status) || attempt >= maxRetries) throw error;
      const wait = error.retryAfter ? error.retryAfter * 1000 : backoff * 2 ** attempt * (0.75 + Math.random() / 2);
      await sleep(Math.min(wait, 60_000), signal);
    }
  }

  private async send(o: SendOptions): Promise<ChatAnswer> {
    const res = await this.request("POST", "/v1/chat", this.body(o), "application/json", o.signal);
    const a: any = await res.json();
    return {
      conversationId: a.conversation_id,
      chatId: a.chat_id ?? null,
      messageId: a.message_id,
      content: a.content ?? "",
      sources: (a.sources ?? []).map(toSource),
      usage: toUsage(a.usage),
      latencyMs: a.latency_ms ?? null,
      firstTokenMs: a.first_token_ms ?? null,
    };
  }

  private async *stream(o: SendOptions): AsyncGenerator<StreamEvent> {
    const res = await this.request("POST", "/v1/chat", this.body(o), "text/event-stream", o.signal);
    if (!res.body) throw new ParleyError(res.status, "no_stream", "Parley answered without a stream");
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for (;;) {
        const { done, value } = await reader.read();
        buffer += decoder.decode(value ?? new Uint8Array(), { stream: !done });
        const { frames, rest } = sseFrames(done ? buffer + "\n\n" : buffer);
        buffer = rest;
        for (const f of frames) {
          let data: any;
          try {
            data = JSON.parse(f.data);
          } catch {
            continue;
          }
          if (f.event === "meta") yield { type: "meta", conversationId: data.conversation_id, chatId: data.chat_id ?? null, messageId: data.message_id };
          else if (f.event === "token") yield { type: "token", text: data.text };
          else if (f.event === "sources") yield { type: "sources", sources: (data ?? []).map(toSource) };
          else if (f.event === "done") {
            yield { type: "done", messageId: data.message_id, usage: toUsage(data.usage), latencyMs: data.latency_ms ?? null, firstTokenMs: data.first_token_ms ?? null };
            return;
          } else if (f.event === "error") throw new ParleyError(502, data.code ?? "answer_failed", data.message ?? "The answer failed");
        }
        if (done) throw new ParleyError(0, "stream_ended", "The stream ended before the answer was complete");
      }
    } finally {
      // Leaving early (break, abort, error) closes the connection.
      await reader.cancel().catch(() => {});
    }
  }
}

export default Parley;
