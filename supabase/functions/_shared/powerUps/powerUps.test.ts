// Power-ups through the answering engine against a real stack: a tool-calling fake provider
// (each vendor's real streaming format) calls an HTTP action on a fake API; failures reach the
// model as tool errors and the visitor as a sentence; the loop stops after N steps; without a
// model, example phrases offer the lead form, the link and the handoff, a question the knowledge
// cannot answer offers the contact form (never the handoff) whatever its words, and a chat with a
// person keeps the bot quiet until it is handed back.
import assert from "node:assert/strict";
import { serviceClient } from "../testing.ts";
import { createBot, setProviderKey } from "../../chat/test-helpers.ts";
import { startAnswer } from "../engine/index.ts";
import type { AnswerEvent } from "../engine/types.ts";
import { startFakeProvider, type Vendor } from "../providers/fake-servers.ts";
import { runHttpAction } from "./http.ts";
import { httpSettings } from "./settings.ts";

interface ApiHit {
  path: string;
  auth: string | null;
  body: string;
}

/** A fake order API: /orders/<id> answers JSON, /broken answers 500, /html answers text that is not JSON. */
function startFakeApi() {
  const hits: ApiHit[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    hits.push({ path: url.pathname, auth: req.headers.get("authorization"), body: await req.text() });
    if (url.pathname === "/broken") return new Response("database exploded at line 42", { status: 500 });
    if (url.pathname === "/html") return new Response("<html>nope</html>", { headers: { "content-type": "application/json" } });
    if (url.pathname === "/slow") await new Promise((r) => setTimeout(r, 2000));
    const id = decodeURIComponent(url.pathname.split("/").pop() ?? "");
    return Response.json({ order: { id, status: "shipped", carrier: "DHL" }, internal: "x".repeat(50) });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, hits, close: () => server.shutdown() };
}

async function events(botId: string, message: string, thread: string): Promise<AnswerEvent[]> {
  const answer = await startAnswer({
    botId,
    message,
    conversation: { kind: "channel", channel: "api", externalThreadId: thread, externalUserId: "U1" },
  });
  const out: AnswerEvent[] = [];
  for await (const ev of answer.events) out.push(ev);
  return out;
}

const text = (evs: AnswerEvent[]) => evs.map((e) => (e.event === "token" ? e.data.text : "")).join("");

async function addPowerUp(botId: string, row: Record<string, unknown>): Promise<string> {
  const { data, error } = await serviceClient().from("power_ups").insert({ bot_id: botId, ...row }).select("id").single();
  if (error) throw error;
  return data.id;
}

const orderLookup = (api: string, path = "/orders/{{order_id}}") => ({
  type: "http",
  name: "lookup_order",
  label: "Looked up your order",
  description: "Look up an order by its number",
  settings: {
    method: "GET",
    url: `${api}${path}`,
    headers: { Authorization: "Bearer {{secret.API_KEY}}" },
    parameters: { type: "object", properties: { order_id: { type: "string" } }, required: ["order_id"] },
    response_path: "order",
    max_chars: 500,
    timeout_ms: 1000,
  },
});

const vendors: Array<{ provider: string; vendor: Vendor }> = [
  { provider: "openai", vendor: "openai" },
  { provider: "anthropic", vendor: "anthropic" },
  { provider: "google", vendor: "google" },
  { provider: "mistral", vendor: "mistral" },
  { provider: "groq", vendor: "groq" },
];

for (const { provider, vendor } of vendors) {
  Deno.test(`power-ups, ${provider}: the model calls an HTTP action; the call is stored with the turn, secrets masked`, async () => {
    const api = startFakeApi();
    const model = startFakeProvider(vendor, [
      { kind: "tools", calls: [{ name: "lookup_order", arguments: { order_id: "A-1001" } }] },
      { kind: "stream", tokens: ["Your order ", "has shipped with DHL."] },
    ]);
    try {
      const { botId, teamId } = await createBot({ provider, model: "fake-model" });
      await setProviderKey(teamId, provider, model.baseUrl);
      const id = await addPowerUp(botId, orderLookup(api.url));
      await serviceClient().from("power_up_secrets").insert({ power_up_id: id, name: "API_KEY", value: "s3cret-key" });

      const evs = await events(botId, "Where is my order A-1001?", crypto.randomUUID());
      assert.equal(text(evs), "Your order has shipped with DHL.");
      const tool = evs.find((e) => e.event === "tool");
      assert.deepEqual(tool?.data, { name: "lookup_order", label: "Looked up your order", ok: true });
      assert.equal(evs.at(-1)?.event, "done");
      assert.deepEqual(api.hits.map((h) => [h.path, h.auth]), [["/orders/A-1001", "Bearer s3cret-key"]]);
      const sentBack = JSON.stringify(model.received[1].body);
      assert.match(sentBack, /shipped/, "the model read the action's result");
      assert.doesNotMatch(sentBack, /xxxxxxxx/, "only the response path reaches the model");

      const service = serviceClient();
      const { data: calls } = await service.from("power_up_calls").select("name, arguments, status, result, request, message_id").eq("bot_id", botId);
      assert.equal(calls?.length, 1);
      assert.deepEqual(calls![0].arguments, { order_id: "A-1001" });
      assert.equal(calls![0].status, "ok");
      assert.match(calls![0].result!, /"status":"shipped"/);
      assert.deepEqual((calls![0].request as { headers: Record<string, string> }).headers.Authorization, "Bearer ••••••");
      const { data: msg } = await service.from("messages").select("actions").eq("id", calls![0].message_id!).single();
      assert.deepEqual(msg!.actions, [{ type: "tool", name: "lookup_order", label: "Looked up your order", ok: true }]);
      const { data: pu } = await service.from("power_ups").select("call_count").eq("id", id).single();
      assert.equal(pu!.call_count, 1);
    } finally {
      await model.close();
      await api.close();
    }
  });
}

Deno.test("power-ups: a call is written while the answer is being written (the team sees it live), then points at the answer", async () => {
  const api = startFakeApi();
  const model = startFakeProvider("openai", [
    { kind: "tools", calls: [{ name: "lookup_order", arguments: { order_id: "A-2002" } }] },
    { kind: "stream", tokens: ["Shipped."] },
  ]);
  try {
    const { botId, teamId } = await createBot({ provider: "openai", model: "fake-model" });
    await setProviderKey(teamId, "openai", model.baseUrl);
    await addPowerUp(botId, orderLookup(api.url));
    const service = serviceClient();
    const answer = await startAnswer({
      botId,
      message: "Where is my order A-2002?",
      conversation: { kind: "channel", channel: "api", externalThreadId: crypto.randomUUID(), externalUserId: "U1" },
    });
    let duringAnswer: { name: string; message_id: string | null; chat_id: string | null }[] | null = null;
    for await (const ev of answer.events) {
      // The engine waits while this event is handled: the answer is not stored yet. The call's
      // write runs beside the model's next step, so it lands while we wait.
      if (ev.event !== "tool") continue;
      for (let i = 0; i < 200 && !duringAnswer?.length; i++) {
        duringAnswer = (await service.from("power_up_calls").select("name, message_id, chat_id").eq("bot_id", botId)).data;
        if (!duringAnswer?.length) await new Promise((r) => setTimeout(r, 50));
      }
    }
    assert.equal(duringAnswer?.length, 1, "the call is stored as soon as it ran");
    assert.equal(duringAnswer![0].message_id, null, "before its answer exists");
    assert.ok(duringAnswer![0].chat_id, "in its chat (what the conversation view listens to)");
    const { data: after } = await service.from("power_up_calls").select("message_id").eq("bot_id", botId);
    assert.deepEqual(after, [{ message_id: answer.messageId }], "once the answer is stored, the call points at it");
  } finally {
    await model.close();
    await api.close();
  }
});

Deno.test("power-ups: failures reach the model as tool errors and the visitor as a plain sentence", async () => {
  const api = startFakeApi();
  const model = startFakeProvider("openai", [
    { kind: "tools", calls: [{ name: "lookup_order", arguments: { order_id: 1001 } }] },
    { kind: "tools", calls: [{ name: "lookup_order", arguments: { order_id: "A-1" } }] },
    { kind: "stream", tokens: ["Sorry, I could not look it up."] },
  ]);
  try {
    const { botId, teamId } = await createBot({ provider: "openai", model: "fake-model" });
    await setProviderKey(teamId, "openai", model.baseUrl);
    await addPowerUp(botId, orderLookup(api.url, "/broken?o={{order_id}}"));
    const evs = await events(botId, "Where is order A-1?", crypto.randomUUID());
    const lines = evs.filter((e) => e.event === "tool").map((e) => e.data);
    assert.equal(lines.length, 2);
    for (const l of lines) {
      assert.equal((l as { ok: boolean }).ok, false);
      assert.doesNotMatch(JSON.stringify(l), /exploded|500|stack/i, "the visitor never sees the service's own text");
    }
    assert.equal(evs.at(-1)?.event, "done");
    const toolMessages = (model.received[1].body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === "tool");
    assert.match(toolMessages[0].content, /argument "order_id" must be a string/, "a schema mismatch is a tool error");
    const third = (model.received[2].body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === "tool");
    assert.match(third.at(-1)!.content, /HTTP 500/, "a 5xx is a tool error");
    const { data: calls } = await serviceClient().from("power_up_calls").select("error_code").eq("bot_id", botId).order("created_at");
    assert.deepEqual(calls!.map((c) => c.error_code).sort(), ["http_error", "invalid_arguments"]);
  } finally {
    await model.close();
    await api.close();
  }
});

Deno.test("power-ups: the loop stops after 4 model steps and the last one has no tools", async () => {
  const api = startFakeApi();
  const model = startFakeProvider("openai", [
    { kind: "tools", calls: [{ name: "lookup_order", arguments: { order_id: "A-1" } }] },
    { kind: "tools", calls: [{ name: "lookup_order", arguments: { order_id: "A-2" } }] },
    { kind: "tools", calls: [{ name: "lookup_order", arguments: { order_id: "A-3" } }] },
    { kind: "stream", tokens: ["Done looking."] },
  ]);
  try {
    const { botId, teamId } = await createBot({ provider: "openai", model: "fake-model" });
    await setProviderKey(teamId, "openai", model.baseUrl);
    await addPowerUp(botId, orderLookup(api.url));
    const evs = await events(botId, "Check all my orders", crypto.randomUUID());
    assert.equal(text(evs), "Done looking.");
    assert.equal(model.received.length, 4);
    assert.ok(model.received.slice(0, 3).every((r) => Array.isArray(r.body.tools)));
    assert.equal("tools" in model.received[3].body, false);
    assert.equal(api.hits.length, 3);
  } finally {
    await model.close();
    await api.close();
  }
});

Deno.test("power-ups: HTTP actions are refused at metadata and, without the dev setting, private addresses", async () => {
  const settings = httpSettings.parse({ url: "http://169.254.169.254/latest/meta-data/{{x}}", parameters: { type: "object", properties: { x: { type: "string" } } } });
  const meta = await runHttpAction(settings, { x: "iam" }, {});
  assert.equal(meta.errorCode, "blocked_address");
  const api = startFakeApi();
  try {
    const local = httpSettings.parse({ url: `${api.url}/orders/1` });
    const refused = await runHttpAction(local, {}, {}, { allowPrivate: false });
    assert.equal(refused.errorCode, "blocked_address");
    assert.equal(api.hits.length, 0);
    const invalid = await runHttpAction(httpSettings.parse({ url: `${api.url}/html`, response_path: "a" }), {}, {});
    assert.equal(invalid.errorCode, "invalid_json");
    const slow = await runHttpAction(httpSettings.parse({ url: `${api.url}/slow`, timeout_ms: 500 }), {}, {});
    assert.equal(slow.errorCode, "timeout");
  } finally {
    await api.close();
  }
});

Deno.test("power-ups: parameters never fill an action's scheme, host or port, so its secret headers stay with its host", async () => {
  const api = startFakeApi();
  try {
    const parameters = { type: "object", properties: { h: { type: "string" } } };
    for (const url of [`http://{{h}}/orders/1`, `http://api.{{h}}/orders/1`, `{{h}}/orders/1`, `http://user:{{h}}@127.0.0.1/orders/1`]) {
      const settings = httpSettings.parse({ url, parameters, headers: { authorization: "Bearer {{secret.token}}" } });
      const r = await runHttpAction(settings, { h: new URL(api.url).host }, { token: "team-secret" });
      assert.equal(r.errorCode, "invalid_template", url);
      assert.equal(r.request, null, "nothing was sent");
    }
    assert.equal(api.hits.length, 0);
    // In the path and the query they are fine (and URL-encoded).
    const ok = await runHttpAction(httpSettings.parse({ url: `${api.url}/orders/{{h}}?q={{h}}`, parameters }), { h: "1" }, {});
    assert.notEqual(ok.errorCode, "invalid_template");
    assert.equal(api.hits.length, 1);
  } finally {
    await api.close();
  }
});

Deno.test("power-ups without a model: example phrases offer the lead form and the link; handoff keeps the bot quiet until handed back", async () => {
  const { botId, owner } = await createBot({ chunks: [{ title: "Hours", content: "We are open from nine to five." }] });
  const leadId = await addPowerUp(botId, {
    type: "lead", name: "contact_sales", label: "Contact sales", example_phrases: ["I want to talk to sales"],
    settings: { fields: ["name", "email"], required: ["email"], intro: "Leave your details." },
  });
  await addPowerUp(botId, {
    type: "link", name: "book_demo", label: "Book a demo", example_phrases: ["Can I book a demo?"],
    settings: { link_label: "Book a demo", link_url: "https://cal.example.com/demo" },
  });
  await addPowerUp(botId, {
    type: "handoff", name: "human", label: "Talk to a person", example_phrases: ["I want to talk to a human"],
    settings: { handoff_text: "A person from our team will answer here within a day." },
  });
  const thread = crypto.randomUUID();

  const lead = await events(botId, "Hi, I want to talk to sales please", thread);
  assert.deepEqual(lead.find((e) => e.event === "lead_form")?.data, {
    power_up_id: leadId, label: "Contact sales", intro: "Leave your details.", fields: ["name", "email"], required: ["email"],
  });
  const link = await events(botId, "can I book a demo", thread);
  assert.deepEqual(link.find((e) => e.event === "link")?.data, { power_up_id: link.find((e) => e.event === "link")!.data.power_up_id, label: "Book a demo", url: "https://cal.example.com/demo" });
  const plain = await events(botId, "When are you open?", thread);
  assert.equal(plain.some((e) => ["lead_form", "link", "handoff"].includes(e.event)), false, "an unrelated question offers nothing");

  const handoff = await events(botId, "I want to talk to a human", thread);
  assert.equal(text(handoff), "A person from our team will answer here within a day.");
  assert.ok(handoff.some((e) => e.event === "handoff"));
  const service = serviceClient();
  const { data: chat } = await service.from("chats").select("id, needs_human").eq("external_thread_id", thread).single();
  assert.equal(chat!.needs_human, true);

  const quiet = await events(botId, "Hello? Anyone there?", thread);
  assert.deepEqual(quiet.map((e) => e.event), ["done"]);
  assert.equal((quiet[0].data as { quiet?: boolean }).quiet, true);
  const { count } = await service.from("messages").select("id", { count: "exact", head: true }).eq("chat_id", chat!.id).eq("role", "assistant");
  assert.equal(count, 4, "the bot stored no answer to the message while the chat is with a person");

  const reply = await owner.client.rpc("reply_as_human", { chat_id: chat!.id, content: "Hi, Olivia here." });
  assert.equal(reply.error, null);
  const back = await owner.client.rpc("hand_back_chat", { chat_id: chat!.id });
  assert.equal(back.error, null);
  const again = await events(botId, "When are you open?", thread);
  assert.match(text(again), /nine to five/, "after the hand-back the bot answers again");
});

Deno.test("power-ups without a model: \"I don't know\" offers the contact form whatever the words, never the handoff; never twice", async () => {
  const hours = [{ title: "Hours", content: "We are open from nine to five." }];
  const { botId } = await createBot({ chunks: hours });
  const leadId = await addPowerUp(botId, {
    type: "lead", name: "contact_sales", label: "Contact sales", example_phrases: ["I want to talk to sales"],
    settings: { fields: ["name", "email"], required: ["email"], intro: "Leave your details." },
  });
  await addPowerUp(botId, {
    type: "handoff", name: "human", label: "Talk to a person", example_phrases: ["I want to talk to a human"],
    settings: { handoff_text: "A person from our team will answer here within a day." },
  });
  await addPowerUp(botId, {
    type: "link", name: "book_demo", label: "Book a demo", example_phrases: ["Can I book a demo?"],
    settings: { link_label: "Book a demo", link_url: "https://cal.example.com/demo" },
  });
  const thread = crypto.randomUUID();
  const service = serviceClient();

  // Not in the knowledge, no example phrase: the honest answer, with the form (not the handoff).
  const unknown = await events(botId, "Is there a warranty on the blender?", thread);
  assert.match(text(unknown), /^I couldn't find anything about that/);
  assert.deepEqual(unknown.filter((e) => ["lead_form", "link", "handoff"].includes(e.event)).map((e) => e.event), ["lead_form"]);
  assert.equal((unknown.find((e) => e.event === "lead_form")!.data as { power_up_id: string }).power_up_id, leadId);
  const { data: chat } = await service.from("chats").select("id, needs_human").eq("external_thread_id", thread).single();
  assert.equal(chat!.needs_human, false, "the form is offered; the chat stays with the bot");
  const { data: stored } = await service.from("messages").select("actions").eq("chat_id", chat!.id).eq("role", "assistant").single();
  assert.deepEqual((stored!.actions as Array<{ type: string }>).map((a) => a.type), ["lead_form"]);

  // Known answers offer nothing; a matched link is the only action (no form on top of it).
  const known = await events(botId, "When are you open?", thread);
  assert.match(text(known), /nine to five/);
  assert.equal(known.some((e) => ["lead_form", "link", "handoff"].includes(e.event)), false);
  const link = await events(botId, "can I book a demo", thread);
  assert.deepEqual(link.filter((e) => ["lead_form", "link", "handoff"].includes(e.event)).map((e) => e.event), ["link"]);

  // A bot with a handoff and no form: the honest answer only; the handoff stays the visitor's choice
  // (it quiets the bot until the team hands the chat back).
  const { botId: other } = await createBot({ chunks: hours });
  await addPowerUp(other, {
    type: "handoff", name: "human", label: "Talk to a person", example_phrases: ["I want to talk to a human"],
    settings: { handoff_text: "A person from our team will answer here within a day." },
  });
  const otherThread = crypto.randomUUID();
  const handoff = await events(other, "Is there a warranty on the blender?", otherThread);
  assert.match(text(handoff), /^I couldn't find anything about that/);
  assert.doesNotMatch(text(handoff), /A person from our team/);
  assert.equal(handoff.some((e) => e.event === "handoff"), false);
  const { data: handed } = await service.from("chats").select("needs_human").eq("external_thread_id", otherThread).single();
  assert.equal(handed!.needs_human, false);
  const asked = await events(other, "I want to talk to a human", otherThread);
  assert.ok(asked.some((e) => e.event === "handoff"), "asking for a person still hands over");

  // Without a contact power-up, "I don't know" stays as it was.
  const { botId: plain } = await createBot({ chunks: hours });
  const alone = await events(plain, "Is there a warranty on the blender?", crypto.randomUUID());
  assert.match(text(alone), /^I couldn't find anything about that/);
  assert.equal(alone.some((e) => ["lead_form", "link", "handoff", "tool"].includes(e.event)), false);
});
