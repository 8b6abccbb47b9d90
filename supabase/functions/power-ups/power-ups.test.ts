// The `power-ups` function on a real stack: the test console runs an HTTP action with the stored
// secret and shows the request with it masked; only the team's owners and admins may use it;
// a person of the team replies in a visitor's chat and hands it back.
import assert from "node:assert/strict";
import { callFunction, serviceClient } from "../_shared/testing.ts";
import { createBot, seededPlatformAdmin, signedInUser } from "../chat/test-helpers.ts";

function post(path: string, token: string, body: unknown) {
  return callFunction("power-ups", { method: "POST", path, token, body: JSON.stringify(body), headers: { "content-type": "application/json" } });
}

function startApi() {
  const seen: Array<{ url: string; auth: string | null; body: string }> = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (req) => {
    seen.push({ url: req.url, auth: req.headers.get("authorization"), body: await req.text() });
    return Response.json({ result: { status: "paid" } });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, seen, close: () => server.shutdown() };
}

Deno.test("power-ups/test: the owner runs an HTTP action; the request is shown with secrets masked", async () => {
  const api = startApi();
  try {
    const { botId, owner } = await createBot();
    const { data: pu, error } = await owner.client.from("power_ups").insert({
      bot_id: botId, type: "http", name: "invoice",
      settings: {
        method: "POST", url: `${api.url}/invoices/{{id}}`, headers: { "X-Key": "{{secret.KEY}}" },
        parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
        body: '{"id": "{{id}}"}', response_path: "result",
      },
    }).select("id").single();
    assert.equal(error, null);
    assert.equal((await owner.client.rpc("set_power_up_secret", { power_up_id: pu!.id, name: "KEY", value: "top-secret" })).error, null);

    const res = await post("/test", owner.token, { power_up_id: pu!.id, arguments: { id: "INV 7" } });
    assert.equal(res.status, 200);
    const out = await res.json();
    assert.equal(out.ok, true);
    assert.equal(out.output, '{"status":"paid"}');
    assert.deepEqual(out.request, {
      method: "POST", url: `${api.url}/invoices/INV%207`,
      headers: { "X-Key": "••••••", "content-type": "application/json" }, body: '{"id": "INV 7"}',
    });
    assert.doesNotMatch(JSON.stringify(out), /top-secret/);
    assert.equal(api.seen[0].body, '{"id": "INV 7"}');

    const bad = await post("/test", owner.token, { power_up_id: pu!.id, arguments: { id: 7 } });
    assert.equal((await bad.json()).error_code, "invalid_arguments");

    const stranger = await signedInUser();
    const refused = await post("/test", stranger.token, { power_up_id: pu!.id, arguments: { id: "1" } });
    assert.equal(refused.status, 404);
    assert.equal((await refused.json()).error.code, "power_up_not_found");
    // The platform administrator reads the power-up but may not run it with the team's secret.
    const platform = await seededPlatformAdmin();
    assert.equal((await platform.client.from("power_ups").select("id").eq("id", pu!.id)).data?.length, 1);
    const byAdmin = await post("/test", platform.token, { power_up_id: pu!.id, arguments: { id: "1" } });
    assert.equal(byAdmin.status, 404);
    assert.equal((await byAdmin.json()).error.code, "not_found");
    assert.equal(api.seen.length, 1, "only the owner's run reached the API");
    const invalid = await post("/test", owner.token, { power_up_id: "nope" });
    assert.equal(invalid.status, 400);
    const anon = await post("/test", (await import("../_shared/testing.ts")).stack.anonKey, { power_up_id: pu!.id });
    assert.equal(anon.status, 401);
  } finally {
    await api.close();
  }
});

Deno.test("power-ups/reply and /hand-back: the team answers in a visitor's chat; others may not", async () => {
  const { botId, owner } = await createBot();
  const visitor = await signedInUser({ anonymous: true });
  const opened = await visitor.client.rpc("open_chat_turn", { bot_id: botId, content: "Can a person help me?" });
  assert.equal(opened.error, null);
  const chatId = (opened.data as Array<{ opened_chat_id: string }>)[0].opened_chat_id;

  const fromVisitor = await post("/reply", visitor.token, { chat_id: chatId, content: "I am staff, trust me" });
  assert.equal(fromVisitor.status, 404);
  const empty = await post("/reply", owner.token, { chat_id: chatId, content: "   " });
  assert.equal(empty.status, 400);

  // The platform administrator reads the chat but neither replies in it nor hands it back.
  const platform = await seededPlatformAdmin();
  const fromAdmin = await post("/reply", platform.token, { chat_id: chatId, content: "Platform staff here" });
  assert.equal(fromAdmin.status, 403);
  assert.equal((await fromAdmin.json()).error.code, "forbidden");
  const backByAdmin = await post("/hand-back", platform.token, { chat_id: chatId });
  assert.equal(backByAdmin.status, 403);
  await backByAdmin.body?.cancel();

  const res = await post("/reply", owner.token, { chat_id: chatId, content: "Hello, Olivia here." });
  assert.equal(res.status, 200);
  const { message_id } = await res.json();
  const { data: seen } = await visitor.client.from("messages").select("id, role, content").eq("chat_id", chatId).eq("role", "human");
  assert.deepEqual(seen, [{ id: message_id, role: "human", content: "Hello, Olivia here." }], "the visitor reads the reply in their chat");
  const { data: chat } = await serviceClient().from("chats").select("needs_human").eq("id", chatId).single();
  assert.equal(chat!.needs_human, true, "a reply takes the chat over");

  const back = await post("/hand-back", owner.token, { chat_id: chatId });
  assert.equal(back.status, 200);
  const { data: after } = await serviceClient().from("chats").select("needs_human").eq("id", chatId).single();
  assert.equal(after!.needs_human, false);
  const wrongMethod = await callFunction("power-ups", { path: "/reply", token: owner.token });
  assert.equal(wrongMethod.status, 405);
});
