// Local servers on 127.0.0.1 that speak each vendor's real streaming wire
// format, for tests and the chat benchmark. Each answers the scripted replies in
// order (the last one repeats) and records what it received.
export type Vendor = "openai" | "anthropic" | "google" | "mistral" | "groq";

/** Every provider adapter and the vendor whose wire format its fake server speaks. */
export const PROVIDER_VENDORS = [
  { provider: "openai", vendor: "openai" },
  { provider: "openai_compatible", vendor: "openai" },
  { provider: "anthropic", vendor: "anthropic" },
  { provider: "google", vendor: "google" },
  { provider: "mistral", vendor: "mistral" },
  { provider: "groq", vendor: "groq" },
] as const satisfies ReadonlyArray<{ provider: string; vendor: Vendor }>;

export interface FakeToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

export type Reply =
  | { kind: "stream"; tokens: string[]; usage?: { prompt: number; completion: number } }
  /** The model calls tools (after optional text), streamed in the vendor's real tool-call format. */
  | { kind: "tools"; calls: FakeToolCall[]; tokens?: string[]; usage?: { prompt: number; completion: number } }
  | { kind: "error"; status: number; message?: string; headers?: Record<string, string> };

export interface Received {
  path: string;
  headers: Headers;
  body: Record<string, any>;
}

export interface FakeServer {
  url: string;
  /** The base URL to configure for the vendor's SDK. */
  baseUrl: string;
  received: Received[];
  close(): Promise<void>;
}

const sse = (data: unknown, event?: string) => `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`;

/** Argument JSON cut in pieces, as vendors stream it. */
function pieces(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += 7) out.push(text.slice(i, i + 7));
  return out.length ? out : [""];
}

function openAiToolDeltas(vendor: Vendor, calls: FakeToolCall[], base: Record<string, unknown>): string[] {
  const out: string[] = [];
  calls.forEach((c, index) => {
    const id = `call_fake_${index}`;
    const args = JSON.stringify(c.arguments);
    if (vendor === "mistral") {
      // Mistral sends each call whole in one chunk.
      out.push(sse({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ id, type: "function", index, function: { name: c.name, arguments: args } }] }, finish_reason: null }] }));
      return;
    }
    out.push(sse({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, id, type: "function", function: { name: c.name, arguments: "" } }] }, finish_reason: null }] }));
    for (const p of pieces(args)) {
      out.push(sse({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: p } }] }, finish_reason: null }] }));
    }
  });
  return out;
}

function openAiStyle(
  vendor: Vendor,
  tokens: string[],
  usage: { prompt: number; completion: number },
  calls: FakeToolCall[] = [],
): string[] {
  const id = "chatcmpl-fake";
  const created = Math.floor(Date.now() / 1000);
  const base = { id, object: "chat.completion.chunk", created, model: "fake-model" };
  const out = [
    sse({ ...base, choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] }),
  ];
  for (const t of tokens)
    out.push(sse({ ...base, choices: [{ index: 0, delta: { content: t }, finish_reason: null }] }));
  out.push(...openAiToolDeltas(vendor, calls, base));
  const finish = calls.length ? "tool_calls" : "stop";
  const u = {
    prompt_tokens: usage.prompt,
    completion_tokens: usage.completion,
    total_tokens: usage.prompt + usage.completion,
  };
  if (vendor === "groq") {
    out.push(
      sse({ ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }], x_groq: { id: "req_fake", usage: u } }),
    );
  } else if (vendor === "mistral") {
    out.push(sse({ ...base, choices: [{ index: 0, delta: { content: "" }, finish_reason: finish }], usage: u }));
  } else {
    out.push(sse({ ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }] }));
    out.push(sse({ ...base, choices: [], usage: u }));
  }
  out.push("data: [DONE]\n\n");
  return out;
}

function anthropicEvents(
  tokens: string[],
  usage: { prompt: number; completion: number },
  calls: FakeToolCall[] = [],
): string[] {
  const out = [
    sse(
      {
        type: "message_start",
        message: {
          id: "msg_fake",
          type: "message",
          role: "assistant",
          model: "fake-model",
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: usage.prompt, output_tokens: 1 },
        },
      },
      "message_start",
    ),
    sse({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }, "content_block_start"),
    sse({ type: "ping" }, "ping"),
  ];
  for (const t of tokens)
    out.push(
      sse({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: t } }, "content_block_delta"),
    );
  out.push(sse({ type: "content_block_stop", index: 0 }, "content_block_stop"));
  calls.forEach((c, i) => {
    const index = i + 1;
    out.push(sse({ type: "content_block_start", index, content_block: { type: "tool_use", id: `toolu_fake_${i}`, name: c.name, input: {} } }, "content_block_start"));
    for (const p of pieces(JSON.stringify(c.arguments))) {
      out.push(sse({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: p } }, "content_block_delta"));
    }
    out.push(sse({ type: "content_block_stop", index }, "content_block_stop"));
  });
  out.push(
    sse(
      {
        type: "message_delta",
        delta: { stop_reason: calls.length ? "tool_use" : "end_turn", stop_sequence: null },
        usage: { output_tokens: usage.completion },
      },
      "message_delta",
    ),
  );
  out.push(sse({ type: "message_stop" }, "message_stop"));
  return out;
}

function geminiEvents(
  tokens: string[],
  usage: { prompt: number; completion: number },
  calls: FakeToolCall[] = [],
): string[] {
  const text = tokens.map((t, i) =>
    sse({
      candidates: [
        {
          content: { parts: [{ text: t }], role: "model" },
          index: 0,
          ...(i === tokens.length - 1 ? { finishReason: "STOP" } : {}),
        },
      ],
      usageMetadata: {
        promptTokenCount: usage.prompt,
        candidatesTokenCount: i === tokens.length - 1 ? usage.completion : i + 1,
        totalTokenCount: usage.prompt + i + 1,
      },
      modelVersion: "fake-model",
    }),
  );
  if (!calls.length) return text;
  return [
    ...text,
    sse({
      candidates: [{ content: { parts: calls.map((c) => ({ functionCall: { name: c.name, args: c.arguments } })), role: "model" }, index: 0, finishReason: "STOP" }],
      usageMetadata: { promptTokenCount: usage.prompt, candidatesTokenCount: usage.completion, totalTokenCount: usage.prompt + usage.completion },
      modelVersion: "fake-model",
    }),
  ];
}

function errorBody(vendor: Vendor, status: number, message: string): unknown {
  switch (vendor) {
    case "anthropic":
      return {
        type: "error",
        error: {
          type: status === 429 ? "rate_limit_error" : status === 401 ? "authentication_error" : "api_error",
          message,
        },
      };
    case "google":
      return {
        error: {
          code: status,
          message,
          status: status === 429 ? "RESOURCE_EXHAUSTED" : status === 401 ? "UNAUTHENTICATED" : "INTERNAL",
        },
      };
    case "mistral":
      return { object: "error", message, type: "error", param: null, code: String(status) };
    default:
      return {
        error: { message, type: status === 429 ? "rate_limit_exceeded" : "server_error", param: null, code: null },
      };
  }
}

function pathFor(vendor: Vendor, path: string): boolean {
  switch (vendor) {
    case "openai":
      return path === "/v1/chat/completions";
    case "groq":
      return path === "/openai/v1/chat/completions";
    case "mistral":
      return path === "/v1/chat/completions";
    case "anthropic":
      return path === "/v1/messages";
    case "google":
      return /^\/v1(beta)?\/models\/[^/:]+:streamGenerateContent$/.test(path);
  }
}

export interface FakeProviderOptions {
  tokenDelayMs?: number;
  /** Awaited before answering the n-th request (0-based): a test holds a reply until it saw something. */
  beforeReply?: (index: number) => Promise<void>;
}

/**
 * The fake as a web-standard handler (Request → Response), so the Deno tests (startFakeProvider)
 * and the Node browser tests and benchmarks (e2e/lib/fakes/serve.ts) serve the same fake.
 */
export function fakeProviderHandler(vendor: Vendor, replies: Reply[], opts: FakeProviderOptions = {}): { handle: (req: Request) => Promise<Response>; received: Received[] } {
  const received: Received[] = [];
  const handle = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    const text = await req.text();
    if (
      req.method !== "POST" ||
      !pathFor(vendor, url.pathname) ||
      (vendor === "google" && url.searchParams.get("alt") !== "sse")
    ) {
      return new Response(JSON.stringify(errorBody(vendor, 404, `no route ${req.method} ${url.pathname}`)), {
        status: 404,
      });
    }
    let body: Record<string, any> = {};
    try {
      body = JSON.parse(text);
    } catch {
      /* recorded as {} */
    }
    received.push({ path: url.pathname + url.search, headers: req.headers, body });
    const index = received.length - 1;
    await opts.beforeReply?.(index);
    const reply = replies[Math.min(index, replies.length - 1)];
    if (reply.kind === "error") {
      return new Response(JSON.stringify(errorBody(vendor, reply.status, reply.message ?? `fake ${reply.status}`)), {
        status: reply.status,
        headers: { "content-type": "application/json", ...reply.headers },
      });
    }
    const tokens = reply.tokens ?? [];
    const calls = reply.kind === "tools" ? reply.calls : [];
    const usage = reply.usage ?? { prompt: 11, completion: tokens.length + calls.length };
    const frames =
      vendor === "anthropic"
        ? anthropicEvents(tokens, usage, calls)
        : vendor === "google"
          ? geminiEvents(tokens, usage, calls)
          : openAiStyle(vendor, tokens, usage, calls);
    const enc = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const f = frames.shift();
        if (f === undefined) return controller.close();
        if (opts.tokenDelayMs) await new Promise((r) => setTimeout(r, opts.tokenDelayMs));
        controller.enqueue(enc.encode(f));
      },
    });
    return new Response(stream, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
  };
  return { handle, received };
}

/** The base URL a vendor's SDK is configured with, for a fake served at `url`. */
export const fakeBaseUrl = (vendor: Vendor, url: string) => (vendor === "openai" ? `${url}/v1` : url);

export function startFakeProvider(vendor: Vendor, replies: Reply[], opts: FakeProviderOptions = {}): FakeServer {
  const { handle, received } = fakeProviderHandler(vendor, replies, opts);
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, handle);
  const url = `http://127.0.0.1:${server.addr.port}`;
  return { url, baseUrl: fakeBaseUrl(vendor, url), received, close: () => server.shutdown() };
}

/**
 * One fake vendor server in front of two scripted ones: requests `isSecond(body)` picks go to
 * the second (e.g. the test runner's judge, told apart by its system prompt), the rest to the
 * first. Both record what they received.
 */
export function startRoutedFakeProvider(
  vendor: Vendor,
  first: Reply[],
  second: Reply[],
  isSecond: (body: Record<string, any>) => boolean,
): FakeServer & { first: FakeServer; second: FakeServer } {
  const a = startFakeProvider(vendor, first);
  const b = startFakeProvider(vendor, second);
  const received: Received[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const text = await req.text();
    let body: Record<string, any> = {};
    try {
      body = JSON.parse(text);
    } catch {
      /* routed to the first */
    }
    received.push({ path: url.pathname + url.search, headers: req.headers, body });
    const target = isSecond(body) ? b : a;
    return fetch(target.url + url.pathname + url.search, { method: req.method, headers: req.headers, body: text });
  });
  const url = `http://127.0.0.1:${server.addr.port}`;
  return {
    url,
    baseUrl: vendor === "openai" ? `${url}/v1` : url,
    received,
    first: a,
    second: b,
    close: async () => {
      await server.shutdown();
      await a.close();
      await b.close();
    },
  };
}
