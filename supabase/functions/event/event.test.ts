import assert from "node:assert/strict";
import { rateLimitHits, serviceClient, stack } from "../_shared/testing.ts";

const url = () => `${stack.url}/functions/v1/event`;

Deno.test("event stores a page view without any JWT (sendBeacon) and links no user", async () => {
  const marker = `https://example.test/${crypto.randomUUID()}`;
  const r = await fetch(url(), {
    method: "POST",
    headers: { "content-type": "text/plain", "x-forwarded-for": "198.51.100.7" },
    body: JSON.stringify({ n: "pageview", u: marker, d: "example.test", r: null, w: 1280 }),
  });
  assert.equal(r.status, 202);
  await r.body?.cancel();
  const { data } = await serviceClient().from("events").select("name, url, user_id").eq("url", marker);
  assert.deepEqual(data, [{ name: "pageview", url: marker, user_id: null }]);
});

Deno.test("event refuses bad bodies with clear 4xx", async () => {
  for (const [body, status] of [["{nope", 400], [JSON.stringify({ name: 5 }), 400], ["x".repeat(9000), 413]] as const) {
    const r = await fetch(url(), { method: "POST", headers: { "x-forwarded-for": "198.51.100.8" }, body });
    assert.equal(r.status, status, String(body).slice(0, 20));
    const j = await r.json();
    assert.ok(j.error.code);
  }
  const get = await fetch(url(), { headers: { "x-forwarded-for": "198.51.100.8" } });
  assert.equal(get.status, 405);
  await get.body?.cancel();
});

Deno.test("event: IPv6 callers count by their /64, so new addresses in one network share one limit", async () => {
  const net = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:${Math.floor(Math.random() * 0xffff).toString(16)}`;
  for (const host of ["::1", ":aa:bb:cc:dd", "::ffff:1"]) {
    const r = await fetch(url(), {
      method: "POST",
      headers: { "content-type": "text/plain", "x-forwarded-for": `${net}${host}` },
      body: JSON.stringify({ n: "pageview", u: "https://example.test/v6", d: "example.test" }),
    });
    assert.equal(r.status, 202);
    await r.body?.cancel();
  }
  assert.equal(await rateLimitHits(`event:ip:${net}::/64`), 3, "three addresses of one /64 spent one key");
});
