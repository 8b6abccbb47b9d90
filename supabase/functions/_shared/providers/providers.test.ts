// Every adapter against a local server speaking its vendor's streaming wire
// format: streaming and usage, request shape (system prompt, image parts),
// errors mapped to typed ProviderErrors, and a 429 retried after Retry-After.
import assert from "node:assert/strict";
import { createProvider, type GenerateEvent, ProviderError, type ProviderName } from "./index.ts";
import { PROVIDER_VENDORS, startFakeProvider, type Vendor } from "./fake-servers.ts";

const kinds: ReadonlyArray<{ provider: ProviderName; vendor: Vendor }> = PROVIDER_VENDORS;

const PNG_1PX = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

async function collect(it: AsyncIterable<GenerateEvent>) {
  let text = "";
  let tokens = 0;
  let usage: { prompt_tokens: number; completion_tokens: number } | null = null;
  for await (const ev of it) {
    if (ev.type === "token") {
      text += ev.text;
      tokens++;
    } else if (ev.type === "done") usage = ev.usage;
  }
  return { text, tokens, usage };
}

const input = (images = false) => ({
  system: "You are Fake Bot.",
  messages: [
    { role: "user" as const, content: "earlier question" },
    { role: "assistant" as const, content: "earlier answer" },
    {
      role: "user" as const,
      content: "What is in the picture?",
      images: images ? [{ mime: "image/png", data: PNG_1PX }] : undefined,
    },
  ],
  temperature: 0.3,
  model: "fake-model",
});

for (const { provider, vendor } of kinds) {
  Deno.test(`${provider}: streams tokens and usage, sends system prompt and image parts`, async () => {
    const server = startFakeProvider(vendor, [
      { kind: "stream", tokens: ["Hel", "lo ", "there"], usage: { prompt: 42, completion: 3 } },
    ]);
    try {
      const p = createProvider({ provider, apiKey: "sk-test-key", baseUrl: server.baseUrl, backoffMs: 5 });
      const out = await collect(p.generate(input(true)));
      assert.equal(out.text, "Hello there");
      assert.equal(out.tokens, 3);
      assert.deepEqual(out.usage, { prompt_tokens: 42, completion_tokens: 3 });
      assert.equal(server.received.length, 1);
      const { body, headers } = server.received[0];
      const wire = JSON.stringify(body);
      assert.ok(wire.includes(PNG_1PX), "the image travels as base64");
      assert.ok(wire.includes("You are Fake Bot."), "the system prompt travels");
      if (vendor === "anthropic") {
        assert.equal(body.system, "You are Fake Bot.");
        assert.equal(body.stream, true);
        // The pinned SDK sends the key as a bearer token (older ones used x-api-key).
        assert.ok(headers.get("x-api-key") === "sk-test-key" || headers.get("authorization") === "Bearer sk-test-key");
        const last = body.messages.at(-1);
        assert.equal(last.content[0].type, "image");
        assert.deepEqual(last.content[0].source, { type: "base64", media_type: "image/png", data: PNG_1PX });
      } else if (vendor === "google") {
        assert.equal(headers.get("x-goog-api-key"), "sk-test-key");
        assert.deepEqual(
          body.contents.map((c: { role: string }) => c.role),
          ["user", "model", "user"],
        );
        assert.deepEqual(body.contents.at(-1).parts[0], { inlineData: { mimeType: "image/png", data: PNG_1PX } });
        assert.equal(body.systemInstruction.parts[0].text, "You are Fake Bot.");
      } else {
        assert.equal(headers.get("authorization"), "Bearer sk-test-key");
        assert.equal(body.stream, true);
        assert.equal(body.messages[0].role, "system");
        const parts = body.messages.at(-1).content;
        assert.equal(parts[1].type, "image_url");
        const url = typeof parts[1].image_url === "string" ? parts[1].image_url : parts[1].image_url.url;
        assert.equal(url, `data:image/png;base64,${PNG_1PX}`);
      }
    } finally {
      await server.close();
    }
  });

  Deno.test(`${provider}: a 429 with Retry-After is retried, then succeeds`, async () => {
    const server = startFakeProvider(vendor, [
      { kind: "error", status: 429, message: "slow down", headers: { "retry-after": "0" } },
      { kind: "stream", tokens: ["ok"] },
    ]);
    try {
      const p = createProvider({ provider, apiKey: "k", baseUrl: server.baseUrl, backoffMs: 5 });
      const out = await collect(p.generate(input()));
      assert.equal(out.text, "ok");
      assert.equal(server.received.length, 2);
    } finally {
      await server.close();
    }
  });

  Deno.test(`${provider}: 5xx three times gives up after 2 retries with provider_unavailable`, async () => {
    const server = startFakeProvider(vendor, [{ kind: "error", status: 503, message: "overloaded" }]);
    try {
      const p = createProvider({ provider, apiKey: "k", baseUrl: server.baseUrl, backoffMs: 5 });
      await assert.rejects(collect(p.generate(input())), (e: unknown) => {
        assert.ok(e instanceof ProviderError);
        assert.equal(e.code, "provider_unavailable");
        assert.equal(e.status, 503);
        assert.match(e.visitorMessage, /unavailable/);
        return true;
      });
      assert.equal(server.received.length, 3);
    } finally {
      await server.close();
    }
  });

  Deno.test(`${provider}: a 401 is not retried and maps to provider_auth`, async () => {
    const server = startFakeProvider(vendor, [{ kind: "error", status: 401, message: "bad key" }]);
    try {
      const p = createProvider({ provider, apiKey: "wrong", baseUrl: server.baseUrl, backoffMs: 5 });
      await assert.rejects(collect(p.generate(input())), (e: unknown) => {
        assert.ok(e instanceof ProviderError);
        assert.equal(e.code, "provider_auth");
        assert.ok(!e.visitorMessage.includes("bad key"), "the vendor's text is not shown to visitors");
        return true;
      });
      assert.equal(server.received.length, 1);
    } finally {
      await server.close();
    }
  });
}

Deno.test("an unreachable server is provider_unavailable after retries", async () => {
  const server = startFakeProvider("openai", [{ kind: "stream", tokens: ["x"] }]);
  const baseUrl = server.baseUrl;
  await server.close();
  const p = createProvider({ provider: "openai_compatible", baseUrl, backoffMs: 5 });
  await assert.rejects(
    collect(p.generate(input())),
    (e: unknown) => e instanceof ProviderError && e.code === "provider_unavailable",
  );
});
