// The HTTP API and @parley/sdk against the real stack (scripts/with-stack.mjs):
// keys made by create_api_key, answers from the engine as JSON and as the web
// chat's Server-Sent Events, conversations continued by id, the per-key limit,
// the OpenAPI document, and every refusal.
import assert from "node:assert/strict";
import { createClient } from "npm:@supabase/supabase-js@2.119.1";
import { serviceClient, stack } from "../_shared/testing.ts";
import { DEMO, mintToken } from "../channels/test-stack.ts";
import { Parley, ParleyError, type StreamEvent } from "../../../sdk/src/index.ts";

const apiUrl = (path: string) => `${stack.url}/functions/v1/api${path}`;

async function ownerClient() {
  const secret = Deno.env.get("SUPABASE_JWT_SECRET");
  if (!secret) throw new Error("SUPABASE_JWT_SECRET is not set: run through scripts/with-stack.mjs");
  const token = await mintToken(secret, DEMO.owner);
  return createClient(stack.url, stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { headers: { Authorization: `Bearer ${token}` } },
  });
}

async function newKey(name: string, limit = 60): Promise<{ id: string; key: string }> {
  const owner = await ownerClient();
  const { data, error } = await owner.rpc("create_api_key", { bot_id: DEMO.helpCenterBot, name, rate_limit_per_minute: limit });
  if (error) throw error;
  return (data as { id: string; key: string }[])[0]!;
}

function post(body: unknown, key: string | null, headers: Record<string, string> = {}) {
  return fetch(apiUrl("/v1/chat"), {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(key ? { Authorization: `Bearer ${key}` } : {}), ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function errorOf(res: Response): Promise<[number, string]> {
  const body = await res.json();
  return [res.status, body?.error?.code];
}

Deno.test("api: JSON answers from the bot's knowledge, continued by conversation id, stored as api chats", async () => {
  const { id, key } = await newKey("json");
  const first = await post({ message: "Are my notes encrypted?" }, key);
  assert.equal(first.status, 200);
  const a = await first.json();
  assert.match(a.content, /encrypted/);
  assert.ok(a.sources.length >= 1);
  assert.match(a.conversation_id, /^[0-9a-f-]{36}$/);

  const second = await post({ message: "Can I download all my data?", conversation_id: a.conversation_id, bot_id: DEMO.helpCenterBot }, key);
  assert.equal(second.status, 200);
  const b = await second.json();
  assert.equal(b.chat_id, a.chat_id, "the same conversation continues");
  const chat = await serviceClient().from("chats").select("channel, user_id, external_thread_id, message_count").eq("id", a.chat_id).single();
  assert.deepEqual(chat.data, { channel: "api", user_id: null, external_thread_id: `${id}:${a.conversation_id}`, message_count: 4 });
  const used = await serviceClient().from("api_keys").select("last_used_at").eq("id", id).single();
  assert.ok(used.data!.last_used_at, "the key's last use is recorded");

  // Another key of the same bot cannot continue it.
  const other = await newKey("other");
  assert.deepEqual(await errorOf(await post({ message: "hi", conversation_id: a.conversation_id }, other.key)), [404, "conversation_not_found"]);
});

Deno.test("api: Server-Sent Events with the web chat's event names", async () => {
  const { key } = await newKey("sse");
  const res = await post({ message: "Are my notes encrypted?" }, key, { Accept: "text/event-stream" });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /text\/event-stream/);
  // Browsers (the SDK on a customer's site) refuse a doubled "*, *".
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  const text = await res.text();
  const names = [...text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
  assert.equal(names[0], "meta");
  assert.ok(names.includes("token"));
  assert.deepEqual(names.slice(-2), ["sources", "done"]);
  const meta = JSON.parse(/event: meta\ndata: (.*)/.exec(text)![1]!);
  assert.match(meta.conversation_id, /^[0-9a-f-]{36}$/);
  assert.ok(meta.chat_id && meta.message_id);
  const viaFlag = await post({ message: "Can I download all my data?", stream: true }, key);
  assert.match(viaFlag.headers.get("content-type") ?? "", /text\/event-stream/);
  await viaFlag.text();
});

Deno.test("api: refusals — no key, unknown, revoked, wrong bot, bad bodies, disabled channel, per-key limit", async () => {
  assert.deepEqual(await errorOf(await post({ message: "hi" }, null)), [401, "missing_api_key"]);
  assert.deepEqual(await errorOf(await post({ message: "hi" }, "pk_" + "x".repeat(43))), [401, "invalid_api_key"]);
  assert.deepEqual(await errorOf(await post({ message: "hi" }, "not-a-key")), [401, "invalid_api_key"]);
  const { id, key } = await newKey("refusals");
  assert.deepEqual(await errorOf(await post({ message: "hi", bot_id: crypto.randomUUID() }, key)), [403, "wrong_bot"]);
  assert.deepEqual(await errorOf(await post("{nope", key)), [400, "invalid_json"]);
  assert.deepEqual(await errorOf(await post({ message: "" }, key)), [400, "invalid_request"]);
  assert.deepEqual(await errorOf(await post({ message: "hi", extra: 1 }, key)), [400, "invalid_request"]);
  assert.deepEqual(await errorOf(await post({ message: "x".repeat(40 * 1024) }, key)), [413, "body_too_large"]);
  assert.deepEqual(await errorOf(await post({ message: "x".repeat(5000) }, key)), [400, "invalid_request"]);

  // The seeded API channel of the bot turned off: the API refuses, then works again.
  const owner = await ownerClient();
  await owner.from("channels").update({ enabled: false }).eq("bot_id", DEMO.helpCenterBot).eq("type", "api");
  assert.deepEqual(await errorOf(await post({ message: "hi" }, key)), [403, "channel_disabled"]);
  await owner.from("channels").update({ enabled: true }).eq("bot_id", DEMO.helpCenterBot).eq("type", "api");

  await owner.from("api_keys").update({ revoked_at: new Date().toISOString() }).eq("id", id);
  assert.deepEqual(await errorOf(await post({ message: "hi" }, key)), [401, "invalid_api_key"]);

  const limited = await newKey("limited", 1);
  assert.equal((await post({ message: "Are my notes encrypted?" }, limited.key)).status, 200);
  const over = await post({ message: "again" }, limited.key);
  assert.equal(over.status, 429);
  assert.ok(Number(over.headers.get("retry-after")) >= 1);
  assert.equal((await over.json()).error.code, "rate_limited");
});

Deno.test("api: the OpenAPI 3.1 document is served without a key", async () => {
  const res = await fetch(apiUrl("/v1/openapi.json"));
  assert.equal(res.status, 200);
  const doc = await res.json();
  assert.equal(doc.openapi, "3.1.0");
  assert.ok(doc.paths["/v1/chat"].post);
  assert.equal(doc.servers[0].url, `${stack.url}/functions/v1/api`);
  assert.deepEqual(await errorOf(await fetch(apiUrl("/v2/nothing"))), [404, "not_found"]);
});

Deno.test("sdk: send, stream and typed errors through an API key on the real stack", async () => {
  const { key } = await newKey("sdk");
  const parley = new Parley({ apiKey: key, baseUrl: stack.url });
  const answer = await parley.chat.send({ message: "Are my notes encrypted?" });
  assert.match(answer.content, /encrypted/);
  assert.ok(answer.sources[0]!.chunkId && answer.sources[0]!.title);

  const events: StreamEvent[] = [];
  for await (const ev of parley.chat.stream({ message: "Can I download all my data?", conversationId: answer.conversationId })) events.push(ev);
  assert.equal(events[0]!.type, "meta");
  assert.equal((events[0] as { conversationId: string }).conversationId, answer.conversationId);
  const text = events.filter((e) => e.type === "token").map((e) => (e as { text: string }).text).join("");
  assert.match(text, /Export|download/i);
  assert.ok(events.some((e) => e.type === "sources"));
  assert.equal(events.at(-1)!.type, "done");

  const bad = new Parley({ apiKey: "pk_" + "y".repeat(43), baseUrl: `${stack.url}/functions/v1/api` });
  await assert.rejects(() => bad.chat.send({ message: "hi" }), (e: unknown) => e instanceof ParleyError && e.status === 401 && e.code === "invalid_api_key");

  const aborted = new AbortController();
  aborted.abort();
  await assert.rejects(() => parley.chat.send({ message: "hi", signal: aborted.signal }));
  const doc = await parley.openapi();
  assert.equal(doc.openapi, "3.1.0");
});

Deno.test("sdk: retries 429 and 503 with backoff (Retry-After first), not 502; abortable while waiting", async () => {
  const statuses = [503, 429, 200];
  let calls = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, () => {
    const s = statuses[calls++] ?? 200;
    if (s === 200) return Response.json({ conversation_id: "c", chat_id: "h", message_id: "m", content: "ok", sources: [], usage: {} });
    return Response.json({ error: { code: s === 429 ? "rate_limited" : "service_unavailable", message: "wait" } }, { status: s, headers: s === 429 ? { "Retry-After": "1" } : {} });
  });
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    const started = Date.now();
    const parley = new Parley({ apiKey: "pk_test", baseUrl: base, backoffMs: 20 });
    assert.equal((await parley.chat.send({ message: "hi" })).content, "ok");
    assert.equal(calls, 3);
    assert.ok(Date.now() - started >= 1000, "Retry-After was honoured");

    statuses.splice(0, statuses.length, 502);
    calls = 0;
    await assert.rejects(() => parley.chat.send({ message: "hi" }), (e: unknown) => e instanceof ParleyError && e.status === 502);
    assert.equal(calls, 1, "a 502 (stored, the model failed) is not retried");

    statuses.splice(0, statuses.length, 429, 429, 429);
    calls = 0;
    const stop = new AbortController();
    setTimeout(() => stop.abort(new DOMException("stop", "AbortError")), 200);
    await assert.rejects(() => new Parley({ apiKey: "pk_test", baseUrl: base }).chat.send({ message: "hi", signal: stop.signal }), { name: "AbortError" });
    assert.equal(calls, 1, "aborted while waiting to retry");
  } finally {
    await server.shutdown();
  }
});
