// admin-platform: only platform administrators learn which providers have platform keys, and
// never the keys; the engine skips power-ups of a type an administrator turned off, and the
// channel receivers refuse channels of such a type.
import assert from "node:assert/strict";
import { callFunction, stack } from "../_shared/testing.ts";
import { createBot, seededPlatformAdmin, signedInUser } from "../chat/test-helpers.ts";
import { enrollTotp, serviceClient, signedInUser as passwordUser, sql } from "../_shared/testing.ts";
import { startAnswer } from "../_shared/engine/index.ts";
import type { AnswerEvent } from "../_shared/engine/types.ts";

async function platform(token: string, method = "GET") {
  const res = await callFunction("admin-platform", { method, token });
  return { status: res.status, text: await res.text() };
}

Deno.test("admin-platform: a platform administrator sees which providers have platform keys, as booleans", async () => {
  const admin = await seededPlatformAdmin();
  const res = await platform(admin.token);
  assert.equal(res.status, 200);
  const body = JSON.parse(res.text) as { providers: Array<{ provider: string; platform_key: boolean; base_url: boolean; default_model: string }> };
  const openai = body.providers.find((p) => p.provider === "openai");
  assert.deepEqual(openai, { provider: "openai", platform_key: true, base_url: Boolean(Deno.env.get("PARLEY_OPENAI_BASE_URL")), default_model: "gpt-4o-mini" });
  assert.equal(body.providers.find((p) => p.provider === "anthropic")?.platform_key, Boolean(Deno.env.get("PARLEY_ANTHROPIC_API_KEY")));
  assert.deepEqual(body.providers.map((p) => p.provider).sort(), ["anthropic", "google", "groq", "mistral", "openai", "openai_compatible"]);
  assert.ok(!res.text.includes(Deno.env.get("PARLEY_OPENAI_API_KEY")!), "the key itself is never sent");
});

Deno.test("admin-platform: everyone else is refused", async () => {
  const user = await signedInUser();
  const refused = await platform(user.token);
  assert.equal(refused.status, 403);
  assert.equal(JSON.parse(refused.text).error.code, "forbidden");
  assert.equal((await platform(stack.anonKey)).status, 401, "the anon key is no session");
  assert.equal((await platform("not-a-token")).status, 401);
  const admin = await seededPlatformAdmin();
  assert.equal((await platform(admin.token, "POST")).status, 405);
});

Deno.test("admin-platform: a platform administrator is refused until the session passed a second factor (aal2)", async () => {
  const me = await passwordUser();
  await sql("insert into public.platform_admins (user_id) values ($1)", [me.user.id]);
  const aal1 = await platform(me.token);
  assert.equal(aal1.status, 403, "a password sign-in alone (aal1) is not enough");
  assert.equal(JSON.parse(aal1.text).error.code, "forbidden");
  const { token } = await enrollTotp(me.client);
  assert.equal((await platform(token)).status, 200, "after enrolling and verifying TOTP (aal2)");
});

async function events(botId: string, message: string, thread: string): Promise<AnswerEvent[]> {
  const answer = await startAnswer({ botId, message, conversation: { kind: "channel", channel: "api", externalThreadId: thread, externalUserId: "U1" } });
  const out: AnswerEvent[] = [];
  for await (const ev of answer.events) out.push(ev);
  return out;
}

Deno.test("engine: power-ups of a type an administrator turned off are not offered", async () => {
  const { botId } = await createBot({ chunks: [{ title: "Hours", content: "We are open from nine to five." }] });
  const added = await serviceClient().from("power_ups").insert({
    bot_id: botId, type: "link", name: "book_demo", label: "Book a demo", example_phrases: ["Can I book a demo?"],
    settings: { link_label: "Book a demo", link_url: "https://cal.example.com/demo" },
  });
  assert.equal(added.error, null);
  const admin = await seededPlatformAdmin();
  const thread = crypto.randomUUID();
  assert.ok((await events(botId, "can I book a demo", thread)).some((e) => e.event === "link"), "offered while the type is on");
  const off = await admin.client.rpc("admin_set_feature_enabled", { kind: "power_up", type: "link", enabled: false });
  assert.equal(off.error, null);
  try {
    assert.equal((await events(botId, "can I book a demo", thread)).some((e) => e.event === "link"), false, "not offered while the type is off");
  } finally {
    const on = await admin.client.rpc("admin_set_feature_enabled", { kind: "power_up", type: "link", enabled: true });
    assert.equal(on.error, null);
  }
  assert.ok((await events(botId, "can I book a demo", crypto.randomUUID())).some((e) => e.event === "link"), "offered again once the type is back on");
});

Deno.test("channels: a channel that was on stops answering while an administrator has its type turned off", async () => {
  const { botId } = await createBot({ chunks: [{ title: "Hours", content: "We are open from nine to five." }] });
  const added = await serviceClient().from("channels").insert({ bot_id: botId, type: "telegram", name: "Telegram", enabled: true }).select("id").single();
  assert.equal(added.error, null);
  const deliver = async () => {
    const res = await fetch(`${stack.url}/functions/v1/channels/${added.data!.id}/telegram`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ update_id: 1, message: { message_id: 1, chat: { id: 5, type: "private" }, from: { id: 5 }, text: "hi" } }),
    });
    const body = await res.json().catch(() => ({}));
    return { status: res.status, code: (body as { error?: { code?: string } }).error?.code };
  };
  const before = await deliver();
  assert.notEqual(before.code, "channel_disabled", "the channel is on");
  const admin = await seededPlatformAdmin();
  assert.equal((await admin.client.rpc("admin_set_feature_enabled", { kind: "channel", type: "telegram", enabled: false })).error, null);
  try {
    assert.deepEqual(await deliver(), { status: 403, code: "channel_disabled" }, "refused while the type is off");
  } finally {
    assert.equal((await admin.client.rpc("admin_set_feature_enabled", { kind: "channel", type: "telegram", enabled: true })).error, null);
  }
  assert.notEqual((await deliver()).code, "channel_disabled", "answers again once the type is back on");
});
