import assert from "node:assert/strict";
import { errorResponse, handler, HttpError, readBoundedText, readJson } from "./http.ts";

Deno.test("errorResponse has the one error shape and CORS", async () => {
  const r = errorResponse(400, "invalid_json", "Bad", [{ path: "x" }]);
  assert.deepEqual(r.status, 400);
  assert.deepEqual(r.headers.get("access-control-allow-origin"), "*");
  assert.deepEqual(await r.json(), { error: { code: "invalid_json", message: "Bad", details: [{ path: "x" }] } });
});

Deno.test("readBoundedText refuses bodies over the limit, declared or streamed", async () => {
  const declared = new Request("http://x/", { method: "POST", body: "abc", headers: { "content-length": "999" } });
  await assert.rejects(() => readBoundedText(declared, 10), HttpError);
  const streamed = new Request("http://x/", { method: "POST", body: "x".repeat(100) });
  const err = await readBoundedText(streamed, 10).catch((e) => e);
  assert.deepEqual((err as HttpError).status, 413);
  assert.deepEqual(await readBoundedText(new Request("http://x/", { method: "POST", body: "hello" }), 10), "hello");
});

Deno.test("readJson turns malformed JSON into a 400", async () => {
  const err = await readJson(new Request("http://x/", { method: "POST", body: "{nope" })).catch((e) => e);
  assert.deepEqual((err as HttpError).status, 400);
  assert.deepEqual(await readJson(new Request("http://x/", { method: "POST", body: '{"a":1}' })), { a: 1 });
});

Deno.test("handler answers preflights and hides internal errors", async () => {
  const h = handler("test", () => {
    throw new Error("secret internals");
  });
  const pre = await h(new Request("http://x/", { method: "OPTIONS" }));
  assert.deepEqual(pre.status, 204);
  const r = await h(new Request("http://x/"));
  assert.deepEqual(r.status, 500);
  const body = await r.json();
  assert.deepEqual(body.error.code, "internal_error");
  assert.deepEqual(JSON.stringify(body).includes("secret"), false);
  const mistake = handler("test", () => {
    throw new HttpError(409, "sync_in_progress", "Nope");
  });
  assert.deepEqual((await mistake(new Request("http://x/"))).status, 409);
});

Deno.test("handler: a backend that refuses connections is 503 with Retry-After, not 500", async () => {
  // A port nobody listens on: what supabase-js meets while PostgREST (or auth, storage) is down.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const h = handler("test", async () => {
    await fetch(`http://127.0.0.1:${port}/rest/v1/bots`);
    return new Response("unreachable");
  });
  const r = await h(new Request("http://x/"));
  assert.deepEqual(r.status, 503);
  assert.ok(Number(r.headers.get("retry-after")) >= 1);
  assert.deepEqual((await r.json()).error.code, "service_unavailable");
});
