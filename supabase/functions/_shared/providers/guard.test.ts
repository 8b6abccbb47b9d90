// A team's base URL is fetched SSRF-safe by every adapter (guard.ts): a redirect from the team's
// server is refused (never followed to an internal address with the team's key), every request
// goes to the address that was checked, and an openai_compatible key without a base URL calls
// nothing (no guessed loopback server).
import assert from "node:assert/strict";
import { promises as dnsPromises } from "node:dns";
import { checkedBaseUrl, createGuardedFetch, guardedFetch } from "./guard.ts";
import { createProvider, type GenerateEvent, ProviderError } from "./index.ts";
import { PROVIDER_VENDORS, startFakeProvider } from "./fake-servers.ts";

const input = {
  system: "You are Fake Bot.",
  messages: [{ role: "user" as const, content: "hello" }],
  temperature: 0,
  model: "fake-model",
};

async function drain(it: AsyncIterable<GenerateEvent>) {
  let text = "";
  for await (const ev of it) if (ev.type === "token") text += ev.text;
  return text;
}

/** Runs fn with the guard on (the test runner sets PARLEY_FETCH_ALLOW_PRIVATE=1), `hosts` allowed. */
async function withGuard<T>(hosts: string, fn: () => Promise<T>): Promise<T> {
  const saved = [Deno.env.get("PARLEY_FETCH_ALLOW_PRIVATE"), Deno.env.get("PARLEY_FETCH_ALLOW_HOSTS")];
  Deno.env.delete("PARLEY_FETCH_ALLOW_PRIVATE");
  Deno.env.set("PARLEY_FETCH_ALLOW_HOSTS", hosts);
  try {
    return await fn();
  } finally {
    if (saved[0] !== undefined) Deno.env.set("PARLEY_FETCH_ALLOW_PRIVATE", saved[0]);
    if (saved[1] !== undefined) Deno.env.set("PARLEY_FETCH_ALLOW_HOSTS", saved[1]);
    else Deno.env.delete("PARLEY_FETCH_ALLOW_HOSTS");
  }
}

/** A stand-in for an internal service (cloud metadata): records what reaches it. */
function startInternal(hostname = "127.0.0.1") {
  const hits: Array<{ path: string; headers: Headers }> = [];
  const server = Deno.serve({ port: 0, hostname, onListen() {} }, (req) => {
    hits.push({ path: new URL(req.url).pathname, headers: req.headers });
    return new Response(JSON.stringify({ token: "internal-metadata-token" }), {
      status: 400,
      headers: { "content-type": "application/json" },
    });
  });
  return { hits, port: server.addr.port, close: () => server.shutdown() };
}

for (const { provider } of PROVIDER_VENDORS) {
  Deno.test(`${provider}: a redirect from the team's base URL is refused, not followed`, async () => {
    const internal = startInternal();
    // The team's server: answers every request with a redirect to the internal service.
    const redirector = Deno.serve(
      { port: 0, hostname: "127.0.0.1", onListen() {} },
      () =>
        new Response(null, {
          status: 307,
          headers: { location: `http://127.0.0.1:${internal.port}/computeMetadata/v1/` },
        }),
    );
    const baseUrl = `http://127.0.0.1:${redirector.addr.port}/v1`;
    try {
      await withGuard("127.0.0.1", async () => {
        const run = () =>
          createProvider({ provider, apiKey: "team-secret-key", baseUrl, fetch: guardedFetch, maxRetries: 0 }).generate(
            input,
          );
        await assert.rejects(drain(checkedBaseUrl(baseUrl, provider, run)), (e: unknown) => {
          assert.ok(e instanceof ProviderError, String(e));
          assert.ok(!e.message.includes("internal-metadata-token"), e.message);
          return true;
        });
      });
      assert.deepEqual(
        internal.hits.map((h) => h.path),
        [],
        "the internal service was never called",
      );
    } finally {
      await redirector.shutdown();
      await internal.close();
    }
  });
}

Deno.test("guarded fetch connects to the address it checked, not to a second DNS answer (rebinding)", async () => {
  // A name the system resolver answers with a local address (this machine's host name).
  const name = Deno.hostname();
  const { address } = await dnsPromises.lookup(name, { family: 4 });
  const internal = startInternal(address);
  const url = `http://${name}:${internal.port}/v1/chat/completions`;
  try {
    await (await fetch(url)).body?.cancel();
    assert.equal(internal.hits.length, 1, "an unpinned fetch reaches the local server");
    await withGuard("", async () => {
      // The attacker's DNS says public when checked; the system resolver would say local.
      const pinned = createGuardedFetch({ resolve: () => Promise.resolve(["93.184.216.34"]) });
      // Whatever answers at the public address (nothing, or a network's interceptor), it is not
      // the local server.
      const outcome = await pinned(url, { method: "POST", body: "{}", signal: AbortSignal.timeout(500) }).then(
        (res) => res.text(),
        (e: unknown) => String(e),
      );
      assert.ok(!outcome.includes("internal-metadata-token"), outcome);
      const p = createProvider({
        provider: "openai",
        apiKey: "team-secret-key",
        baseUrl: `http://${name}:${internal.port}/v1`,
        fetch: pinned,
        maxRetries: 0,
        timeoutMs: 500,
      });
      await assert.rejects(drain(p.generate(input)), (e: unknown) => e instanceof ProviderError);
    });
    assert.equal(internal.hits.length, 1, "the checked name never led to the local server");
  } finally {
    await internal.close();
  }
});

for (const { provider, vendor } of PROVIDER_VENDORS) {
  Deno.test(`${provider}: a team server's answer streams through the guarded, pinned fetch`, async () => {
    const server = startFakeProvider(vendor, [
      { kind: "stream", tokens: ["pin", "ned"], usage: { prompt: 1, completion: 2 } },
    ]);
    try {
      await withGuard("127.0.0.1", async () => {
        const p = createProvider({ provider, apiKey: "team-key", baseUrl: server.baseUrl, fetch: guardedFetch });
        assert.equal(await drain(checkedBaseUrl(server.baseUrl, provider, () => p.generate(input))), "pinned");
      });
      assert.equal(server.received.length, 1);
      assert.ok(JSON.stringify(server.received[0].body).includes("hello"), "the request body travels whole");
    } finally {
      await server.close();
    }
  });
}

Deno.test("openai_compatible without any base URL refuses instead of calling a loopback server", async () => {
  const saved = Deno.env.get("PARLEY_OPENAI_COMPATIBLE_BASE_URL");
  Deno.env.delete("PARLEY_OPENAI_COMPATIBLE_BASE_URL");
  try {
    const p = createProvider({ provider: "openai_compatible", apiKey: "team-key", baseUrl: null, backoffMs: 1 });
    await assert.rejects(drain(p.generate(input)), (e: unknown) => {
      assert.ok(e instanceof ProviderError, String(e));
      assert.equal(e.code, "provider_bad_request");
      assert.match(e.message, /no base URL/);
      return true;
    });
  } finally {
    if (saved !== undefined) Deno.env.set("PARLEY_OPENAI_COMPATIBLE_BASE_URL", saved);
  }
});
