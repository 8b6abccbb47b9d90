import assert from "node:assert/strict";
import { dbFailure } from "./db.ts";
import { cutText, errorResponse, handler, HttpError, parseJson, readBoundedText, readJson, unstorablePath } from "./http.ts";

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
  assert.deepEqual(await readJson(new Request("http://x/", { method: "POST", body: '\ufeff{"a":1}' })), { a: 1 });
});

Deno.test("parseJson refuses text the database cannot store, wherever it is (400, with its path)", () => {
  for (const text of ['{"a":"x\\u0000"}', '{"a":["ok","\\ud800"]}', '{"a\\u0000":1}', '"\\udc00"', '{"a":{"b":[{"c":"\\ud83d"}]}}']) {
    const err = (() => {
      try {
        parseJson(text);
      } catch (e) {
        return e;
      }
    })() as HttpError;
    assert.deepEqual([err?.status, err?.code], [400, "invalid_request"], text);
  }
  assert.deepEqual(unstorablePath({ a: { b: [{ c: "\ud83d" }] } }), "a.b[0].c");
  // Pairs, escaped or not, are text; so is every other control character.
  assert.deepEqual(parseJson('{"a":"\\ud83d\\ude00 😀 \\u0001"}'), { a: "😀 😀 \u0001" });
  // Deep nesting is a 400 (the parser's limit or the shape), not a stack overflow.
  const deep = "[".repeat(100_000) + "]".repeat(100_000);
  const err = (() => {
    try {
      parseJson(deep);
    } catch (e) {
      return e;
    }
  })();
  assert.ok(err === undefined || (err as HttpError).status === 400);
});

Deno.test("cutText never ends in half of a surrogate pair", () => {
  assert.deepEqual(cutText("ab😀", 3), "ab");
  assert.deepEqual(cutText("ab😀", 4), "ab😀");
  assert.deepEqual(cutText("abc", 10), "abc");
});

Deno.test("dbFailure: a value Postgres refuses is the caller's 400, without the database's words", () => {
  for (const code of ["22P05", "22021", "22P02", "22001", "22003"]) {
    const e = dbFailure({ code, message: "unsupported Unicode escape sequence \\u0000 in column x" }, "insert") as HttpError;
    assert.deepEqual([e.status, e.code], [400, "invalid_request"], code);
    assert.ok(!e.message.includes("column"));
  }
  assert.ok(!(dbFailure({ code: "42P01", message: "relation does not exist" }, "select") instanceof HttpError));
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
