// @parley/sdk in Node (20+): the same client against a local server speaking the API's
// wire format (JSON answers, Server-Sent Events split across chunks, errors, retries).
// The real-stack tests are in supabase/functions/api/api.test.ts (Deno).
//   node --import tsx --test sdk/test/node.test.ts
import assert from "node:assert/strict";
import http from "node:http";
import { test } from "node:test";
import { Parley, ParleyError, type StreamEvent } from "../src/index.ts";

function serve(handler: http.RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(handler);
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) });
    }),
  );
}

test("streams tokens and sources from SSE frames split at odd places", async () => {
  const frames =
    'event: meta\ndata: {"conversation_id":"c1","chat_id":"h1","message_id":"m1","user_message_id":"u1"}\n\n' +
    'event: token\ndata: {"text":"Hel"}\n\nevent: token\ndata: {"text":"lo"}\n\n' +
    'event: sources\ndata: [{"chunk_id":"k","document_id":"d","title":"T","url":null,"excerpt":"E"}]\n\n' +
    'event: done\ndata: {"message_id":"m1","usage":{"prompt_tokens":1,"completion_tokens":2},"latency_ms":5,"first_token_ms":3}\n\n';
  let seen: { path?: string; auth?: string; body?: string } = {};
  const srv = await serve((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", async () => {
      seen = { path: req.url, auth: req.headers.authorization, body };
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      for (let i = 0; i < frames.length; i += 7) {
        res.write(frames.slice(i, i + 7));
        await new Promise((r) => setTimeout(r, 1));
      }
      res.end();
    });
  });
  try {
    const parley = new Parley({ apiKey: "pk_node", baseUrl: srv.url });
    const events: StreamEvent[] = [];
    for await (const ev of parley.chat.stream({ message: "hi", conversationId: "c1" })) events.push(ev);
    assert.equal(seen.path, "/functions/v1/api/v1/chat");
    assert.equal(seen.auth, "Bearer pk_node");
    assert.deepEqual(JSON.parse(seen.body!), { message: "hi", conversation_id: "c1" });
    assert.deepEqual(events.map((e) => e.type), ["meta", "token", "token", "sources", "done"]);
    assert.equal(events.filter((e) => e.type === "token").map((e) => (e as { text: string }).text).join(""), "Hello");
    assert.deepEqual((events[3] as { sources: unknown[] }).sources[0], { chunkId: "k", documentId: "d", title: "T", url: null, excerpt: "E" });
  } finally {
    await srv.close();
  }
});

test("an error event and an error answer become ParleyError with status and code", async () => {
  let mode = "event";
  const srv = await serve((_req, res) => {
    if (mode === "event") {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      res.end('event: meta\ndata: {"conversation_id":"c"}\n\nevent: error\ndata: {"code":"provider_timeout","message":"Too slow"}\n\n');
    } else {
      res.writeHead(403, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ error: { code: "wrong_bot", message: "This API key belongs to another bot" } }));
    }
  });
  try {
    const parley = new Parley({ apiKey: "pk_node", baseUrl: `${srv.url}/functions/v1/api` });
    await assert.rejects(async () => {
      for await (const _ of parley.chat.stream({ message: "hi" })) void _;
    }, (e: unknown) => e instanceof ParleyError && e.code === "provider_timeout");
    mode = "json";
    await assert.rejects(() => parley.chat.send({ message: "hi" }), (e: unknown) => e instanceof ParleyError && e.status === 403 && e.code === "wrong_bot");
  } finally {
    await srv.close();
  }
});

test("retries a 503 then answers; gives up after maxRetries", async () => {
  let calls = 0;
  const srv = await serve((_req, res) => {
    calls++;
    if (calls < 3) {
      res.writeHead(503, { "Content-Type": "application/json" });
      return res.end(JSON.stringify({ error: { code: "service_unavailable", message: "wait" } }));
    }
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ conversation_id: "c", chat_id: "h", message_id: "m", content: "ok", sources: [] }));
  });
  try {
    assert.equal((await new Parley({ apiKey: "pk", baseUrl: srv.url, backoffMs: 5 }).chat.send({ message: "hi" })).content, "ok");
    calls = 0;
    await assert.rejects(() => new Parley({ apiKey: "pk", baseUrl: srv.url, backoffMs: 5, maxRetries: 1 }).chat.send({ message: "hi" }),
      (e: unknown) => e instanceof ParleyError && e.status === 503);
    assert.equal(calls, 2);
  } finally {
    await srv.close();
  }
});
