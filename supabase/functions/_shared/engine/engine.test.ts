// The engine called directly, as the channels, the test runner and tasks call it (the web chat
// is covered end to end in chat/chat.test.ts).
import assert from "node:assert/strict";
import { HttpError } from "../http.ts";
import { rateLimitHits, serviceClient } from "../testing.ts";
import { createBot } from "../../chat/test-helpers.ts";
import { collectAnswer, startAnswer } from "./index.ts";

const knowledge = [
  { title: "Opening hours", content: "The shop is open from nine to five on weekdays and closed on Sundays." },
];

Deno.test("engine, channel: a private bot answers a thread as the service side and continues the same chat", async () => {
  const { botId } = await createBot({ visibility: "private", chunks: knowledge });
  const thread = `C${crypto.randomUUID().slice(0, 8)}:1700000000.000100`;
  const conversation = { kind: "channel", channel: "slack", externalThreadId: thread, externalUserId: "U42" } as const;

  const first = await collectAnswer(await startAnswer({ botId, message: "When is the shop open?", conversation }));
  assert.equal(first.error, null);
  assert.match(first.content, /nine to five/);
  assert.equal(first.sources.length, 1);
  assert.ok(first.chatId);

  const second = await collectAnswer(await startAnswer({ botId, message: "And on Sundays?", conversation }));
  assert.equal(second.chatId, first.chatId, "the same thread continues the same chat");

  const service = serviceClient();
  const { data: chat } = await service
    .from("chats")
    .select("channel, user_id, external_thread_id, external_user_id, message_count")
    .eq("id", first.chatId!)
    .single();
  assert.deepEqual(chat, {
    channel: "slack",
    user_id: null,
    external_thread_id: thread,
    external_user_id: "U42",
    message_count: 4,
  });
  assert.equal(await rateLimitHits(`chat:bot:${botId}`), 2, "channel turns spend the bot's budget like visitors' turns");
  const { data: usage } = await service.from("team_usage").select("messages").eq("team_id", (await service
    .from("bots").select("team_id").eq("id", botId).single()).data!.team_id);
  assert.equal(usage?.[0]?.messages, 2, "and count in the team's monthly usage");
});

Deno.test("engine, channel: one external user is limited like a visitor (20 a minute)", async () => {
  const { botId } = await createBot({ chunks: knowledge });
  const conversation = { kind: "channel", channel: "telegram", externalThreadId: crypto.randomUUID(), externalUserId: crypto.randomUUID() } as const;
  for (let i = 0; i < 20; i++) await collectAnswer(await startAnswer({ botId, message: `hours ${i}?`, conversation }));
  const refused = await startAnswer({ botId, message: "one more", conversation }).catch((e) => e);
  assert.ok(refused instanceof HttpError);
  assert.equal(refused.status, 429);
  assert.ok(refused.retryAfter! >= 1);
});

Deno.test("engine, ephemeral: the test runner gets an answer and nothing is stored", async () => {
  const { botId } = await createBot({ visibility: "private", chunks: knowledge });
  const answer = await startAnswer({
    botId,
    message: "When is the shop open?",
    conversation: { kind: "ephemeral", purpose: "test", history: [{ role: "user", content: "Hello" }] },
  });
  assert.equal(answer.meta, null);
  const whole = await collectAnswer(answer);
  assert.equal(whole.chatId, null);
  assert.match(whole.content, /nine to five/);
  const { count } = await serviceClient().from("messages").select("id", { count: "exact", head: true }).eq("bot_id", botId);
  assert.equal(count, 0);
});

Deno.test("engine: bad messages and unknown bots are refused before anything is stored", async () => {
  const conversation = { kind: "channel", channel: "whatsapp", externalThreadId: "+15550001", externalUserId: "+15550001" } as const;
  const { botId } = await createBot();
  for (const message of ["", "a\u0000b", "\ud800", "x".repeat(4001)]) {
    const e = await startAnswer({ botId, message, conversation }).catch((err) => err);
    assert.equal((e as HttpError).status, 400, JSON.stringify(message.slice(0, 10)));
  }
  const missing = await startAnswer({ botId: crypto.randomUUID(), message: "hi", conversation }).catch((err) => err);
  assert.equal((missing as HttpError).status, 404);
  assert.equal((missing as HttpError).code, "bot_not_found");
});
