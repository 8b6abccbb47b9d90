// POST /chat end to end against the real stack: the extractive default, an
// OpenAI-compatible provider on a local fake server, access rules (RLS), the
// password flow's refusal, rate limits, validation and images.
import assert from "node:assert/strict";
import { callFunction, rateLimitHits, serviceClient, sql, stack } from "../_shared/testing.ts";
import { startFakeProvider } from "../_shared/providers/fake-servers.ts";
import {
  answerText,
  assertStreamShape,
  chat,
  createBot,
  deletedVisitor,
  ownMessages,
  PNG_1PX,
  setProviderKey,
  signedInUser,
} from "./test-helpers.ts";

const knowledge = [
  {
    title: "Passwords",
    heading: "Account > Passwords",
    content:
      "To reset your password, open Settings, choose Security and click Reset password. We email you a link that works for one hour. Passwords need at least twelve characters.",
  },
  {
    title: "Billing",
    heading: "Billing > Invoices",
    content: "Invoices are sent on the first day of each month. You can download past invoices from the Billing page.",
  },
  { title: "Export", heading: "Data > Export", content: "Export your notes as Markdown or PDF from the File menu." },
];

const SEEDED_BOT = "c0000000-0000-4000-8000-000000000001";

/** The provider's words for a failed answer, as the bot's team reads them (message_error_details). */
async function errorDetail(messageId: string): Promise<string> {
  const { data, error } = await serviceClient().from("message_error_details").select("detail").eq("message_id", messageId).single();
  if (error) throw error;
  return data.detail;
}

Deno.test(
  "extractive default: streams an answer from the bot's knowledge with cited sources, stores both turns",
  async () => {
    const { botId, teamId } = await createBot({ chunks: knowledge });
    const visitor = await signedInUser();
    const r = await chat(visitor.token, { bot_id: botId, message: "How do I reset my password?" });
    assert.equal(r.status, 200);
    assertStreamShape(r.events);
    const text = answerText(r.events);
    assert.ok(r.events.filter((e) => e.event === "token").length > 3, "the answer streams in pieces");
    assert.match(text, /^Here is what I found in the knowledge base:/);
    assert.match(text, /Reset password/);
    assert.match(text, /\[1\]/);
    const sources = r.events.find((e) => e.event === "sources")!.data;
    assert.ok(sources.length >= 1);
    assert.equal(sources[0].title, "Passwords › Account › Passwords");
    assert.match(sources[0].url, /^https:\/\/docs\.example\.test\//);
    assert.ok(sources[0].chunk_id && sources[0].document_id && sources[0].excerpt);

    const { chat_id, message_id } = r.events[0].data;
    const msgs = await ownMessages(visitor.client, chat_id);
    assert.deepEqual(
      msgs.map((m) => m.role),
      ["user", "assistant"],
    );
    assert.equal(msgs[1].id, message_id);
    assert.equal(msgs[1].content, text);
    assert.equal(msgs[1].provider, "extractive");
    assert.deepEqual(msgs[1].sources, sources);
    assert.equal(typeof msgs[1].latency_ms, "number");
    assert.equal(typeof msgs[1].first_token_ms, "number");

    const { data: chatRow } = await visitor.client.from("chats").select("*").eq("id", chat_id).single();
    assert.equal(chatRow.message_count, 2);
    assert.equal(chatRow.title, "How do I reset my password?");
    assert.equal(chatRow.user_id, visitor.user.id);

    const { data: usage } = await serviceClient().from("team_usage").select("messages").eq("team_id", teamId);
    assert.equal(usage?.[0]?.messages, 1, "the team's monthly count grew by one answer");
  },
);

Deno.test("extractive default: says honestly, in the bot's language, when nothing matched", async () => {
  for (const [language, expected] of [
    ["de", /Wissensdatenbank leider nichts/],
    ["jp", /見つかりませんでした/],
    ["fr", /Je n'ai rien trouvé/],
  ] as const) {
    const { botId } = await createBot({ language, chunks: knowledge });
    const visitor = await signedInUser();
    const r = await chat(visitor.token, { bot_id: botId, message: "zyxwv qqqq" });
    assertStreamShape(r.events);
    assert.match(answerText(r.events), expected);
    assert.deepEqual(r.events.find((e) => e.event === "sources")!.data, []);
  }
});

Deno.test("extractive default: continues a chat and answers in the bot's language", async () => {
  const { botId } = await createBot({ language: "es", chunks: knowledge });
  const visitor = await signedInUser();
  const first = await chat(visitor.token, { bot_id: botId, message: "invoices" });
  const chatId = first.events[0].data.chat_id;
  const second = await chat(visitor.token, { bot_id: botId, chat_id: chatId, message: "export notes Markdown" });
  assertStreamShape(second.events);
  assert.equal(second.events[0].data.chat_id, chatId);
  assert.match(answerText(second.events), /^Esto es lo que encontré/);
  assert.equal((await ownMessages(visitor.client, chatId)).length, 4);
});

Deno.test("the seeded demo bot answers out of the box (read-only use)", async () => {
  const visitor = await signedInUser();
  const r = await chat(visitor.token, {
    bot_id: SEEDED_BOT,
    message: "Where are my notes stored? Are they encrypted?",
  });
  assert.equal(r.status, 200);
  assertStreamShape(r.events);
  assert.match(answerText(r.events), /^Here is what I found in the knowledge base:[\s\S]*\[1\]/);
  assert.ok(r.events.find((e) => e.event === "sources")!.data.length >= 1, "the seeded knowledge is cited");
  assert.equal(r.events.at(-1)!.data.message_id, r.events[0].data.message_id);
});

Deno.test("non-streaming mode: Accept: application/json returns the whole answer", async () => {
  const { botId } = await createBot({ chunks: knowledge });
  const visitor = await signedInUser();
  const r = await chat(
    visitor.token,
    { bot_id: botId, message: "When are invoices sent?" },
    { accept: "application/json" },
  );
  assert.equal(r.status, 200);
  assert.match(r.json.content, /first day of each month/);
  assert.ok(r.json.chat_id && r.json.message_id && Array.isArray(r.json.sources) && r.json.usage);
});

Deno.test(
  "openai_compatible provider: the team key's base_url is used, passages and history reach the model, usage is stored",
  async () => {
    const server = startFakeProvider("openai", [
      { kind: "stream", tokens: ["Open ", "Settings ", "[1]."], usage: { prompt: 321, completion: 3 } },
    ]);
    try {
      const { botId, teamId } = await createBot({
        provider: "openai_compatible",
        model: "llama-test",
        instructions: "You are Acme's helper.",
        chunks: knowledge,
      });
      await setProviderKey(teamId, "openai_compatible", server.baseUrl);
      const visitor = await signedInUser();
      const r = await chat(visitor.token, { bot_id: botId, message: "How do I reset my password?" });
      assertStreamShape(r.events);
      assert.equal(answerText(r.events), "Open Settings [1].");
      assert.deepEqual(r.events.at(-1)!.data.usage, { prompt_tokens: 321, completion_tokens: 3 });
      const req = server.received[0].body;
      assert.equal(req.model, "llama-test");
      assert.equal(req.stream, true);
      assert.match(req.messages[0].content, /^You are Acme's helper\./);
      assert.match(req.messages[0].content, /\[1\] Passwords › Account › Passwords\nTo reset your password/);
      assert.equal(req.messages.at(-1).content, "How do I reset my password?");

      const chatId = r.events[0].data.chat_id;
      const again = await chat(visitor.token, { bot_id: botId, chat_id: chatId, message: "And billing?" });
      assertStreamShape(again.events);
      const req2 = server.received[1].body;
      assert.deepEqual(
        req2.messages.slice(1).map((m: { role: string }) => m.role),
        ["user", "assistant", "user"],
        "recent turns are sent",
      );
      assert.equal(req2.messages[2].content, "Open Settings [1].");

      const msgs = await ownMessages(visitor.client, chatId);
      assert.equal(msgs[1].provider, "openai_compatible");
      assert.equal(msgs[1].model, "llama-test");
      assert.equal(msgs[1].prompt_tokens, 321);
      assert.equal(msgs[1].completion_tokens, 3);
    } finally {
      await server.close();
    }
  },
);

Deno.test("a team's base URL gets the team's key, never the platform's (PARLEY_OPENAI_API_KEY)", async () => {
  const server = startFakeProvider("openai", [{ kind: "stream", tokens: ["Hi."] }]);
  try {
    const { botId, teamId } = await createBot({ provider: "openai", chunks: knowledge });
    // A team row with a base URL and no key of its own.
    await setProviderKey(teamId, "openai", server.baseUrl, null);
    const visitor = await signedInUser();
    const r = await chat(visitor.token, { bot_id: botId, message: "invoices" });
    assertStreamShape(r.events);
    assert.equal(server.received.length, 1);
    const auth = server.received[0].headers.get("authorization") ?? "";
    const platformKey = Deno.env.get("PARLEY_OPENAI_API_KEY");
    if (platformKey) assert.ok(!auth.includes(platformKey), "the platform key went to a team's URL");
    assert.ok(!/sk-platform/.test(auth), auth);
  } finally {
    await server.close();
  }
});

Deno.test("a team's base URL at a metadata or link-local address is refused before any request", async () => {
  const { botId, teamId } = await createBot({ provider: "openai_compatible", chunks: knowledge });
  await setProviderKey(teamId, "openai_compatible", "http://169.254.169.254/latest/v1", null);
  const visitor = await signedInUser();
  const r = await chat(visitor.token, { bot_id: botId, message: "invoices" });
  const error = r.events.find((e) => e.event === "error");
  assert.equal(error?.data.code, "provider_bad_request");
  const msgs = await ownMessages(visitor.client, r.events[0].data.chat_id);
  assert.equal(msgs[1].error, "provider_bad_request", "the visitor reads the code");
  assert.match(await errorDetail(msgs[1].id), /^openai_compatible: base URL refused/);
});

Deno.test("a model that streams without end is stopped at the longest answer a message holds", async () => {
  // An OpenAI-compatible stream of 10,000-character pieces that never says it is done.
  let sent = 0;
  let stopped = false;
  const piece = JSON.stringify({
    id: "c",
    object: "chat.completion.chunk",
    created: 0,
    model: "endless",
    choices: [{ index: 0, delta: { content: "x".repeat(10_000) }, finish_reason: null }],
  });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, () => {
    let timer: ReturnType<typeof setInterval> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const encoder = new TextEncoder();
        timer = setInterval(() => {
          sent++;
          controller.enqueue(encoder.encode(`data: ${piece}\n\n`));
        }, 5);
      },
      cancel() {
        stopped = true;
        clearInterval(timer);
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  });
  try {
    const { botId, teamId } = await createBot({ provider: "openai_compatible", chunks: knowledge });
    await setProviderKey(teamId, "openai_compatible", `http://127.0.0.1:${server.addr.port}/v1`, null);
    const visitor = await signedInUser();
    const r = await chat(visitor.token, { bot_id: botId, message: "tell me everything" });
    assert.equal(r.status, 200);
    const last = r.events.at(-1)!;
    assert.equal(last.event, "error");
    assert.equal(last.data.code, "provider_error");
    const streamed = r.events.filter((e) => e.event === "token").map((e) => e.data.text).join("");
    assert.equal(streamed.length, 100_000, "the visitor got the answer up to the limit, not past it");
    const msgs = await ownMessages(visitor.client, r.events[0].data.chat_id);
    assert.equal(msgs[1].content.length, 100_000, "what was streamed is stored");
    assert.equal(msgs[1].error, "provider_error");
    assert.match(await errorDetail(msgs[1].id), /^openai_compatible: the answer passed 100000 characters/);
    // The model's stream was closed, not left running.
    for (let i = 0; i < 50 && !stopped; i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(stopped, "the provider's response was cancelled");
    const after = sent;
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(sent, after, "nothing more is read");
  } finally {
    await server.shutdown();
  }
});

for (const provider of ["google", "mistral"] as const) {
  Deno.test(`${provider}: a redirect from a team's base URL is refused; the team's key never reaches the address it names`, async () => {
    // An internal service (cloud metadata) and the team's server, which redirects every request to it.
    const internal: Array<{ path: string; headers: Headers }> = [];
    const metadata = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (req) => {
      internal.push({ path: new URL(req.url).pathname, headers: req.headers });
      return new Response("internal-metadata-token", { status: 400 });
    });
    const redirector = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, () =>
      new Response(null, { status: 307, headers: { location: `http://127.0.0.1:${metadata.addr.port}/computeMetadata/v1/` } }));
    try {
      const { botId, teamId } = await createBot({ provider, chunks: knowledge });
      await setProviderKey(teamId, provider, `http://127.0.0.1:${redirector.addr.port}`, "team-secret-key");
      const visitor = await signedInUser();
      const r = await chat(visitor.token, { bot_id: botId, message: "invoices" });
      assert.ok(r.events.some((e) => e.event === "error"), JSON.stringify(r.events.at(-1)));
      assert.ok(!JSON.stringify(r.events).includes("internal-metadata-token"));
      const msgs = await ownMessages(visitor.client, r.events[0].data.chat_id);
      assert.ok(!(msgs[1]?.error ?? "").includes("internal-metadata-token"), msgs[1]?.error ?? "");
      assert.deepEqual(internal.map((h) => h.path), [], "the internal service was never called");
    } finally {
      await redirector.shutdown();
      await metadata.shutdown();
    }
  });
}

Deno.test("a provider failure becomes an error event with a visitor message, and is stored on the answer", async () => {
  const server = startFakeProvider("openai", [{ kind: "error", status: 401, message: "Incorrect API key sk-secret" }]);
  try {
    const { botId, teamId } = await createBot({ provider: "openai", chunks: knowledge });
    await setProviderKey(teamId, "openai", server.baseUrl, "sk-wrong");
    const visitor = await signedInUser();
    const r = await chat(visitor.token, { bot_id: botId, message: "hello" });
    assert.equal(r.status, 200);
    const last = r.events.at(-1)!;
    assert.equal(last.event, "error");
    assert.equal(last.data.code, "provider_auth");
    assert.ok(!JSON.stringify(r.events).includes("sk-secret"), "the vendor's message stays server-side");
    const msgs = await ownMessages(visitor.client, r.events[0].data.chat_id);
    assert.equal(msgs[1].error, "provider_auth", "the visitor reads only the code");
    assert.ok(!JSON.stringify(msgs).includes("sk-secret"));
    const { data: hidden } = await visitor.client.from("message_error_details").select("detail").eq("message_id", msgs[1].id);
    assert.deepEqual(hidden, [], "the vendor's words are the team's only");
    assert.match(await errorDetail(msgs[1].id), /Incorrect API key sk-secret/);
    const { data: usage } = await serviceClient().from("team_usage").select("messages").eq("team_id", teamId);
    assert.equal(usage?.length ?? 0, 0, "failed answers are not billed");

    const asJson = await chat(visitor.token, { bot_id: botId, message: "hello" }, { accept: "application/json" });
    assert.equal(asJson.status, 502);
    assert.equal(asJson.json.error.code, "provider_auth");
  } finally {
    await server.close();
  }
});

Deno.test("retrieval embeds the question only where pgvector exists; the answer is cited either way", async () => {
  const calls: unknown[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    const body = await req.json();
    calls.push(body.input);
    return Response.json({
      object: "list",
      data: body.input.map((_: string, index: number) => ({ object: "embedding", index, embedding: Array(1536).fill(0.02) })),
    });
  });
  try {
    const { botId, teamId } = await createBot({ chunks: knowledge });
    await setProviderKey(teamId, "openai_compatible", `http://127.0.0.1:${server.addr.port}/v1`, null);
    const { error } = await serviceClient().from("chunks").select("embedding").limit(1);
    const hasVector = !error;
    const visitor = await signedInUser();
    const r = await chat(visitor.token, { bot_id: botId, message: "How do I reset my password?" });
    assertStreamShape(r.events);
    assert.match(answerText(r.events), /Reset password/);
    assert.equal(r.events.find((e) => e.event === "sources")!.data[0].title, "Passwords › Account › Passwords");
    // Here (embedded PostgreSQL, no pgvector) the embeddings server is never asked; on hosted
    // Supabase the question is embedded once (and the chunks at ingestion, not in this test).
    assert.deepEqual(calls, hasVector ? [["How do I reset my password?"]] : []);
  } finally {
    await server.shutdown();
  }
});

Deno.test("a bot whose provider has no key configured falls back to the extractive default", async () => {
  const { botId } = await createBot({ provider: "anthropic", chunks: knowledge });
  const visitor = await signedInUser();
  const r = await chat(visitor.token, { bot_id: botId, message: "invoices" });
  assertStreamShape(r.events);
  assert.match(answerText(r.events), /^Here is what I found/);
});

Deno.test(
  "access: private bots are 404 to strangers, password bots 403 until the grant, other visitors' chats are invisible",
  async () => {
    const priv = await createBot({ visibility: "private", chunks: knowledge });
    const locked = await createBot({ visibility: "password", password: "open-sesame-1" });
    const open = await createBot({ chunks: knowledge });
    const alice = await signedInUser();
    const bob = await signedInUser();

    const r1 = await chat(alice.token, { bot_id: priv.botId, message: "hi" });
    assert.equal(r1.status, 404);
    assert.equal(r1.json.error.code, "bot_not_found");
    const missing = await chat(alice.token, { bot_id: crypto.randomUUID(), message: "hi" });
    assert.equal(missing.status, 404);

    const r2 = await chat(alice.token, { bot_id: locked.botId, message: "hi" });
    assert.equal(r2.status, 403);
    assert.equal(r2.json.error.code, "password_required");

    // The team may chat with its private bot.
    const own = await chat(priv.owner.token, { bot_id: priv.botId, message: "reset password" });
    assertStreamShape(own.events);

    const a = await chat(alice.token, { bot_id: open.botId, message: "invoices" });
    const chatId = a.events[0].data.chat_id;
    const { data: seen } = await bob.client.from("chats").select("id").eq("id", chatId);
    assert.deepEqual(seen, []);
    assert.deepEqual(await ownMessages(bob.client, chatId), []);
    const hijack = await chat(bob.token, { bot_id: open.botId, chat_id: chatId, message: "me too" });
    assert.equal(hijack.status, 404);
    assert.equal(hijack.json.error.code, "chat_not_found");
    const { error: forge } = await bob.client
      .from("messages")
      .insert({ chat_id: chatId, role: "user", content: "forged" });
    assert.ok(forge, "a stranger cannot write into another visitor's chat");
    const { error: asBot } = await alice.client
      .from("messages")
      .insert({ chat_id: chatId, role: "assistant", content: "fake answer" });
    assert.ok(asBot, "a visitor cannot write assistant turns");

    // The bot's team sees the conversation (owner view).
    const { data: ownerView } = await open.owner.client.from("messages").select("role").eq("chat_id", chatId);
    assert.equal(ownerView?.length, 2);
  },
);

Deno.test("no session, bad JSON and invalid bodies are clear 4xx", async () => {
  const { botId } = await createBot();
  const visitor = await signedInUser();
  const anon = await chat(stack.anonKey, { bot_id: botId, message: "hi" });
  assert.equal(anon.status, 401);
  assert.equal(anon.json.error.code, "session_required");
  const cases: unknown[] = [
    "{not json",
    { bot_id: "nope", message: "hi" },
    { bot_id: botId, message: "" },
    { bot_id: botId, message: "   " },
    { bot_id: botId, message: "x".repeat(4001) },
    { bot_id: botId, message: "hi", images: [1, 2, 3, 4, 5].map((i) => ({ path: `${visitor.user.id}/${i}.png` })) },
    { bot_id: botId, message: "hi", images: [{ path: `${visitor.user.id}/../x.png` }] },
    { bot_id: botId, message: "hi", extra: true },
  ];
  for (const body of cases) {
    const r = await chat(visitor.token, body);
    assert.equal(r.status, 400, JSON.stringify(body).slice(0, 80));
    assert.ok(r.json.error.code && r.json.error.message);
  }
  const get = await callFunction("chat", { method: "GET", token: visitor.token });
  assert.equal(get.status, 405);
  await get.body?.cancel();
});

Deno.test(
  "images: own uploads are checked and stored; foreign paths and non-images are refused; images reach the model",
  async () => {
    const server = startFakeProvider("openai", [{ kind: "stream", tokens: ["A tiny image."] }]);
    try {
      const { botId, teamId } = await createBot({ provider: "openai", chunks: knowledge });
      await setProviderKey(teamId, "openai", server.baseUrl);
      const visitor = await signedInUser();
      const other = await signedInUser();
      const bucket = visitor.client.storage.from("chat-images");
      const ok = await bucket.upload(`${visitor.user.id}/pixel.png`, new Blob([PNG_1PX], { type: "image/png" }));
      assert.equal(ok.error, null);
      const fake = await bucket.upload(
        `${visitor.user.id}/fake.png`,
        new Blob(["not an image"], { type: "image/png" }),
      );
      assert.equal(fake.error, null);
      const foreign = await other.client.storage
        .from("chat-images")
        .upload(`${visitor.user.id}/evil.png`, new Blob([PNG_1PX], { type: "image/png" }));
      assert.ok(foreign.error, "nobody writes into another visitor's folder");
      const wrongType = await bucket.upload(
        `${visitor.user.id}/doc.pdf`,
        new Blob(["%PDF"], { type: "application/pdf" }),
      );
      assert.ok(wrongType.error, "the bucket refuses types other than images");

      const bad = await chat(visitor.token, {
        bot_id: botId,
        message: "what is it?",
        images: [{ path: `${visitor.user.id}/fake.png` }],
      });
      assert.equal(bad.status, 400);
      assert.equal(bad.json.error.code, "invalid_image");
      const notMine = await chat(other.token, {
        bot_id: botId,
        message: "what is it?",
        images: [{ path: `${visitor.user.id}/pixel.png` }],
      });
      assert.equal(notMine.status, 400);
      const absent = await chat(visitor.token, {
        bot_id: botId,
        message: "what is it?",
        images: [{ path: `${visitor.user.id}/nope.png` }],
      });
      assert.equal(absent.status, 400);

      const r = await chat(visitor.token, {
        bot_id: botId,
        message: "what is it?",
        images: [{ path: `${visitor.user.id}/pixel.png` }],
      });
      assertStreamShape(r.events);
      const parts = server.received.at(-1)!.body.messages.at(-1).content;
      assert.equal(parts[1].type, "image_url");
      assert.match(parts[1].image_url.url, /^data:image\/png;base64,iVBORw0KGgo/);
      const msgs = await ownMessages(visitor.client, r.events[0].data.chat_id);
      assert.deepEqual(msgs[0].images, [
        { path: `${visitor.user.id}/pixel.png`, mime: "image/png", size: PNG_1PX.byteLength },
      ]);
    } finally {
      await server.close();
    }
  },
);

Deno.test("rate limit: a visitor's 21st message within a minute is 429 with Retry-After", async () => {
  const visitor = await signedInUser();
  const botId = crypto.randomUUID(); // no such bot: cheap requests that still count
  for (let i = 0; i < 20; i++) {
    const r = await chat(visitor.token, { bot_id: botId, message: `hi ${i}` });
    assert.equal(r.status, 404);
  }
  const r = await chat(visitor.token, { bot_id: botId, message: "one more" });
  assert.equal(r.status, 429);
  assert.equal(r.json.error.code, "rate_limited");
  assert.ok(Number(r.headers.get("retry-after")) >= 1);
});

Deno.test("an anonymous visitor session can chat and list its chats through RLS", async () => {
  const { createClient } = await import("npm:@supabase/supabase-js@2.119.1");
  const client = createClient(stack.url, stack.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const { data, error } = await client.auth.signInAnonymously();
  assert.equal(error, null);
  const { botId } = await createBot({ chunks: knowledge });
  const r = await chat(data.session!.access_token, { bot_id: botId, message: "export" });
  assertStreamShape(r.events);
  const { data: mine } = await client
    .from("chats")
    .select("id, bot_id, title, message_count")
    .order("last_message_at", { ascending: false });
  assert.deepEqual(
    mine?.map((c) => c.id),
    [r.events[0].data.chat_id],
  );
});

Deno.test("feedback: the visitor rates answers in their own chats; others cannot", async () => {
  const { botId, owner } = await createBot({ chunks: knowledge });
  const visitor = await signedInUser();
  const other = await signedInUser();
  const r = await chat(visitor.token, { bot_id: botId, message: "invoices" });
  const messageId = r.events.at(-1)!.data.message_id;
  const up = await visitor.client.from("message_feedback").insert({ message_id: messageId, rating: "up" });
  assert.equal(up.error, null);
  const again = await visitor.client
    .from("message_feedback")
    .upsert({ message_id: messageId, rating: "up" }, { onConflict: "message_id,user_id" })
    .select("rating");
  assert.deepEqual(again.data, [{ rating: "up" }], "one feedback per visitor and answer: upsert replaces it");
  const change = await visitor.client
    .from("message_feedback")
    .update({ rating: "down", comment: "Too short" })
    .eq("message_id", messageId)
    .select();
  assert.equal(change.data?.[0]?.rating, "down");
  const stranger = await other.client.from("message_feedback").insert({ message_id: messageId, rating: "down" });
  assert.ok(stranger.error);
  const { data: seen } = await owner.client
    .from("message_feedback")
    .select("rating, comment, bot_id")
    .eq("message_id", messageId);
  assert.deepEqual(seen, [{ rating: "down", comment: "Too short", bot_id: botId }]);
});

Deno.test("sharing: a shared chat is readable by another user through get_shared_chat, read-only", async () => {
  const { botId } = await createBot({ chunks: knowledge });
  const visitor = await signedInUser();
  const other = await signedInUser();
  const r = await chat(visitor.token, { bot_id: botId, message: "invoices" });
  const chatId = r.events[0].data.chat_id;
  const before = await other.client.rpc("get_shared_chat", { chat_id: chatId });
  assert.equal(before.data, null);
  const share = await visitor.client.from("chats").update({ shared: true }).eq("id", chatId).select("shared");
  assert.deepEqual(share.data, [{ shared: true }]);
  const after = await other.client.rpc("get_shared_chat", { chat_id: chatId });
  assert.equal(after.data.chat.id, chatId);
  assert.deepEqual(
    after.data.messages.map((m: { role: string }) => m.role),
    ["user", "assistant"],
  );
  const edit = await other.client.from("chats").update({ title: "mine now" }).eq("id", chatId).select();
  assert.deepEqual(edit.data, [], "another user cannot change a shared chat");
  const cont = await chat(other.token, { bot_id: botId, chat_id: chatId, message: "hi" });
  assert.equal(cont.status, 404, "nor write into it");
  const counters = await visitor.client.from("chats").update({ message_count: 99 }).eq("id", chatId);
  assert.ok(counters.error, "counters are the system's");
});

Deno.test("realtime: the bot's team sees a conversation's turns arrive live", async () => {
  const { botId, owner } = await createBot({ chunks: knowledge });
  const visitor = await signedInUser();
  await owner.client.realtime.setAuth(owner.token);
  const seen: Array<{ role: string; chat_id: string }> = [];
  let resolveTwo!: () => void;
  const two = new Promise<void>((r) => (resolveTwo = r));
  const channel = owner.client
    .channel(`owner-view-${botId}`)
    .on(
      "postgres_changes",
      { event: "INSERT", schema: "public", table: "messages", filter: `bot_id=eq.${botId}` },
      (payload) => {
        seen.push(payload.new as { role: string; chat_id: string });
        if (seen.length === 2) resolveTwo();
      },
    );
  const subscribed = new Promise<void>((resolve, reject) =>
    channel.subscribe((status, err) => {
      if (status === "SUBSCRIBED") resolve();
      else if (status === "CHANNEL_ERROR" || status === "TIMED_OUT") reject(err ?? new Error(status));
    }),
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await subscribed;
    const r = await chat(visitor.token, { bot_id: botId, message: "When are invoices sent?" });
    assertStreamShape(r.events);
    // Waits for delivery (bounded so a broken feed fails instead of hanging); asserts no timing.
    await Promise.race([
      two,
      new Promise(
        (_, reject) => (timer = setTimeout(() => reject(new Error(`got ${seen.length} of 2 events`)), 20_000)),
      ),
    ]);
    assert.deepEqual(seen.map((m) => m.role).sort(), ["assistant", "user"]);
    assert.ok(seen.every((m) => m.chat_id === r.events[0].data.chat_id));
  } finally {
    clearTimeout(timer);
    await owner.client.removeChannel(channel);
    owner.client.realtime.disconnect();
  }
});

Deno.test("a message with a NUL character or an unpaired surrogate is 400 and leaves no chat behind (issue 13)", async () => {
  const { botId } = await createBot({ chunks: knowledge });
  const visitor = await signedInUser();
  // Raw JSON: the escapes reach the function as the characters themselves.
  for (const message of ["a\\u0000b", "\\ud800 lone high", "lone low \\udc00", "\\udc00\\ud800 reversed"]) {
    const r = await chat(visitor.token, `{"bot_id":"${botId}","message":"${message}"}`);
    assert.equal(r.status, 400, message);
    assert.equal(r.json.error.code, "invalid_request");
  }
  const { data: chats } = await visitor.client.from("chats").select("id");
  assert.deepEqual(chats, [], "no empty chat is left behind");
  // A well-formed surrogate pair (an emoji) is fine.
  const ok = await chat(visitor.token, `{"bot_id":"${botId}","message":"passwords \\ud83d\\ude00"}`);
  assertStreamShape(ok.events);
});

Deno.test("a chat is created together with its first turn or not at all (issue 13)", async () => {
  const { botId } = await createBot({ chunks: knowledge });
  const visitor = await signedInUser();
  // The database's own per-user limit refuses the 61st turn in a minute; the chat that would
  // have been created with it must not remain.
  await sql("insert into private.rate_limits (key, window_start, hits) values ($1, now(), 60)", [
    `db:messages:${visitor.user.id}`,
  ]);
  const r = await chat(visitor.token, { bot_id: botId, message: "How do I reset my password?" });
  assert.equal(r.status, 429);
  assert.equal(r.json.error.code, "rate_limited");
  const { data: chats } = await visitor.client.from("chats").select("id");
  assert.deepEqual(chats, [], "the refused turn took its chat with it");
});

Deno.test("a deleted user's still-valid token is 401 in chat (issue 13)", async () => {
  const { botId } = await createBot({ chunks: knowledge });
  const visitor = await deletedVisitor();
  const r = await chat(visitor.token, { bot_id: botId, message: "still there?" });
  assert.equal(r.status, 401);
  assert.equal(r.json.error.code, "session_required");
});

Deno.test("the bot's budget is spent only by turns that passed the visitor's limit and the access check (issue 13)", async () => {
  const { botId, owner } = await createBot({ visibility: "private", chunks: knowledge });
  const stranger = await signedInUser();
  for (let i = 0; i < 25; i++) {
    const r = await chat(stranger.token, { bot_id: botId, message: `let me in ${i}` });
    assert.equal(r.status, i < 20 ? 404 : 429, `attempt ${i}`);
  }
  assert.equal(await rateLimitHits(`chat:bot:${botId}`), 0, "a stranger refused access spends none of the bot's budget");

  const first = await chat(owner.token, { bot_id: botId, message: "How do I reset my password?" });
  assertStreamShape(first.events);
  assert.equal(await rateLimitHits(`chat:bot:${botId}`), 1, "an accepted turn spends one");

  // The ceiling is private.bot_chat_budget (600 a minute today): past it, even the owner waits.
  const [{ budget }] = await sql<{ budget: number }>("select private.bot_chat_budget($1) as budget", [botId]);
  assert.equal(budget, 600);
  await sql("update private.rate_limits set hits = $2 where key = $1", [`chat:bot:${botId}`, budget]);
  const over = await chat(owner.token, { bot_id: botId, message: "and now?" });
  assert.equal(over.status, 429);
  assert.equal(over.json.error.code, "rate_limited");
  assert.ok(Number(over.headers.get("retry-after")) >= 1);
  const { count } = await serviceClient().from("messages").select("id", { count: "exact", head: true }).eq("bot_id", botId);
  assert.equal(count, 2, "only the accepted turn and its answer are stored");
});

Deno.test("the bot's ceiling is its team's plan's: a team moved to a smaller plan gets that ceiling (issue 13)", async () => {
  const { botId, teamId, owner } = await createBot({ chunks: knowledge });
  const service = serviceClient();
  const planId = `tiny-${crypto.randomUUID().slice(0, 8)}`;
  const name = Object.fromEntries(["en", "de", "es", "fr", "it", "jp", "cn", "el", "pl", "nl"].map((l) => [l, "Tiny"]));
  assert.equal((await service.from("plans").insert({ id: planId, name, chat_requests_per_minute: 1 })).error, null);

  // The owner may not move their own team; billing (the service role) may.
  const { error: ownMove } = await owner.client.from("teams").update({ plan_id: "business" }).eq("id", teamId);
  assert.equal(ownMove?.code, "42501");
  assert.equal((await service.from("teams").update({ plan_id: planId }).eq("id", teamId)).error, null);

  assertStreamShape((await chat(owner.token, { bot_id: botId, message: "How do I reset my password?" })).events);
  const over = await chat(owner.token, { bot_id: botId, message: "and a second one?" });
  assert.equal(over.status, 429, "the tiny plan allows one answer a minute");
  assert.equal(over.json.error.code, "rate_limited");

  assert.equal((await service.from("teams").update({ plan_id: "free" }).eq("id", teamId)).error, null);
  assertStreamShape((await chat(owner.token, { bot_id: botId, message: "and now on free?" })).events);
});

Deno.test("the hosted page and the widget are the bot's web channel: switched off, visitors get 403 channel_disabled and nothing is stored", async () => {
  const { botId } = await createBot({ chunks: knowledge });
  const visitor = await signedInUser();
  const service = serviceClient();
  const { error } = await service.from("channels").update({ enabled: false }).eq("bot_id", botId).eq("type", "web");
  assert.equal(error, null);
  for (const channel of ["web", "widget"]) {
    const r = await chat(visitor.token, { bot_id: botId, message: "How do I reset my password?", channel });
    assert.equal(r.status, 403, channel);
    assert.equal(r.json.error.code, "channel_disabled");
  }
  const { data: chats } = await visitor.client.from("chats").select("id");
  assert.deepEqual(chats, [], "a refused turn stores nothing");
  await service.from("channels").update({ enabled: true }).eq("bot_id", botId).eq("type", "web");
  const ok = await chat(visitor.token, { bot_id: botId, message: "How do I reset my password?" });
  assertStreamShape(ok.events);
  assert.match(answerText(ok.events), /Reset password/);
});
