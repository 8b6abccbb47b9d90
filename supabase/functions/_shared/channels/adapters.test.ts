// Unit tests of the platform adapters: signatures, parsing, formatting, and the
// outgoing calls against the local fake platforms (no stack needed).
import assert from "node:assert/strict";

const assertEquals = (a: unknown, b: unknown, msg?: string) => (msg === undefined ? assert.deepEqual(a, b) : assert.deepEqual(a, b, msg));
const assertThrows = (fn: () => unknown, cls: new (...a: any[]) => Error, includes: string) =>
  assert.throws(fn, (e: unknown) => e instanceof cls && e.message.includes(includes));
const assertRejects = (fn: () => Promise<unknown>, cls: new (...a: any[]) => Error, includes: string) =>
  assert.rejects(fn, (e: unknown) => e instanceof cls && e.message.includes(includes));
import { randomSecret, toHex } from "./crypto.ts";
import { connectDiscord, parseDiscordInteraction, sendDiscordFollowUp, verifyDiscordRequest } from "./discord.ts";
import { deliverDiscord, discordAsk, slackMention, startFakePlatforms, telegramMessage, whatsappText } from "./test-fixtures.ts";
import { connectSlack, parseSlackEvent, sendSlack, signSlack, verifySlackRequest } from "./slack.ts";
import { connectTelegram, parseTelegramUpdate, sendTelegram, verifyTelegramRequest } from "./telegram.ts";
import { escapeMarkdownV2, splitMessage, toSlackMrkdwn, toTelegramMarkdown } from "./text.ts";
import { ChannelError, PlatformError } from "./types.ts";
import { parseWhatsAppWebhook, sendWhatsApp, signWhatsApp, verifyWhatsAppRequest, whatsappChallenge } from "./whatsapp.ts";

const code = async (p: Promise<unknown> | (() => unknown)) => {
  try {
    await (typeof p === "function" ? p() : p);
  } catch (e) {
    if (e instanceof ChannelError || e instanceof PlatformError) return (e as ChannelError).code ?? (e as PlatformError).code;
    throw e;
  }
  return "ok";
};

Deno.test("slack: a fresh v0 signature passes; wrong, missing and stale ones are refused", async () => {
  const body = JSON.stringify({ type: "event_callback" });
  const now = 1_700_000_000;
  const ok = new Headers(await signSlack("sec", body, now));
  assertEquals(await code(verifySlackRequest(ok, body, "sec", now)), "ok");
  assertEquals(await code(verifySlackRequest(ok, body, "sec", now + 299)), "ok");
  assertEquals(await code(verifySlackRequest(ok, body + " ", "sec", now)), "bad_signature");
  assertEquals(await code(verifySlackRequest(ok, body, "other", now)), "bad_signature");
  assertEquals(await code(verifySlackRequest(ok, body, "sec", now + 301)), "stale_request");
  assertEquals(await code(verifySlackRequest(new Headers(), body, "sec", now)), "missing_signature");
  assertEquals(await code(verifySlackRequest(ok, body, undefined, now)), "not_configured");
});

Deno.test("slack: url_verification, mentions and DMs in threads; bots, edits and our own messages ignored", () => {
  assertEquals(parseSlackEvent({ type: "url_verification", challenge: "abc" }), { kind: "respond", body: { challenge: "abc" } });
  const mention = parseSlackEvent(slackMention("How do I export?", { eventId: "Ev1", ts: "1.000100" }), "UBOT");
  assert.ok(mention.kind === "message");
  assertEquals(mention.messages[0]!.text, "How do I export?");
  assertEquals(mention.messages[0]!.deliveryId, "Ev1");
  assertEquals(mention.messages[0]!.replyTo, { channel: "CFAKE", thread_ts: "1.000100" });
  const inThread = parseSlackEvent(slackMention("and then?", { ts: "2.0", threadTs: "1.000100" }), "UBOT");
  assert.ok(inThread.kind === "message");
  assertEquals(inThread.messages[0]!.conversationKey, "TFAKE:CFAKE:1.000100", "a reply in the thread continues its conversation");
  const dm = parseSlackEvent(slackMention("hi", { dm: true }), "UBOT");
  assert.ok(dm.kind === "message" && dm.messages[0]!.chatId === "DFAKE");
  const fromBot = slackMention("x", { dm: true });
  (fromBot.event as Record<string, unknown>).bot_id = "B1";
  assertEquals(parseSlackEvent(fromBot).kind, "ignore");
  assertEquals(parseSlackEvent(slackMention("x", { dm: true, user: "UBOT" }), "UBOT").kind, "ignore");
  const edit = slackMention("x", { dm: true });
  (edit.event as Record<string, unknown>).subtype = "message_changed";
  assertEquals(parseSlackEvent(edit).kind, "ignore");
  assertEquals(parseSlackEvent({ type: "event_callback", event: { type: "message", channel_type: "channel", user: "U", text: "x", ts: "1", channel: "C" } }).kind, "ignore");
});

Deno.test("slack: connect reads the workspace; answers go to the thread as mrkdwn", async () => {
  const fake = await startFakePlatforms();
  try {
    const client = { baseUrl: fake.env.PARLEY_SLACK_API_URL!, fetch };
    assertEquals(await connectSlack(client, fake.tokens.slack), { team_id: "TFAKE", team_name: "Fake Team", bot_user_id: "UBOT" });
    assertEquals(await code(connectSlack(client, "xoxb-wrong")), "slack_invalid_auth");
    await sendSlack(client, fake.tokens.slack, { channel: "C1", thread_ts: "1.0" }, "**Export** via <Settings> & [docs](https://x.test/a)");
    const post = fake.calls.find((c) => c.method === "chat.postMessage")!;
    assertEquals(post.body, { channel: "C1", thread_ts: "1.0", text: "*Export* via &lt;Settings&gt; &amp; <https://x.test/a|docs>", unfurl_links: false });
  } finally {
    await fake.close();
  }
});

Deno.test("discord: Ed25519 signatures (WebCrypto) checked, stale ones refused; PING, /ask deferred", async () => {
  const fake = await startFakePlatforms();
  try {
    const body = JSON.stringify({ type: 1 });
    const now = Math.floor(Date.now() / 1000);
    const sign = async (ts: number, raw: string) =>
      new Headers({
        "x-signature-timestamp": String(ts),
        "x-signature-ed25519": toHex(await crypto.subtle.sign({ name: "Ed25519" }, fake.discord.privateKey, new TextEncoder().encode(ts + raw))),
      });
    assertEquals(await code(verifyDiscordRequest(await sign(now, body), body, fake.discord.publicKey, now)), "ok");
    assertEquals(await code(verifyDiscordRequest(await sign(now, body), body + " ", fake.discord.publicKey, now)), "bad_signature");
    assertEquals(await code(verifyDiscordRequest(await sign(now - 301, body), body, fake.discord.publicKey, now)), "stale_request");
    assertEquals(await code(verifyDiscordRequest(new Headers(), body, fake.discord.publicKey, now)), "missing_signature");
    const other = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as CryptoKeyPair;
    const otherKey = toHex(await crypto.subtle.exportKey("raw", other.publicKey));
    assertEquals(await code(verifyDiscordRequest(await sign(now, body), body, otherKey, now)), "bad_signature");

    assertEquals(parseDiscordInteraction({ type: 1 }), { kind: "respond", body: { type: 1 } });
    const ask = parseDiscordInteraction(discordAsk(fake.discord.applicationId, "What is Parley?", { id: "99" }));
    assert.ok(ask.kind === "message");
    assertEquals(ask.ack.body, { type: 5 });
    assertEquals(ask.messages[0]!.text, "What is Parley?");
    assertEquals(ask.messages[0]!.deliveryId, "99");
    assertEquals(parseDiscordInteraction({ type: 2, data: { name: "other" } }).kind, "respond");
  } finally {
    await fake.close();
  }
});

Deno.test("discord: connect registers /ask; a long answer edits the original and follows up", async () => {
  const fake = await startFakePlatforms();
  try {
    const client = { baseUrl: fake.env.PARLEY_DISCORD_API_URL!, fetch };
    const settings = await connectDiscord(client, fake.tokens.discord);
    assertEquals(settings.application_id, fake.discord.applicationId);
    assertEquals(settings.public_key, fake.discord.publicKey);
    const reg = fake.calls.find((c) => c.method.endsWith("/commands"))!;
    assertEquals(reg.body.name, "ask");
    assertEquals(reg.headers.get("authorization"), `Bot ${fake.tokens.discord}`);
    assertEquals(await code(connectDiscord(client, "nope")), "discord_invalid_token");
    await sendDiscordFollowUp(client, { application_id: fake.discord.applicationId, token: "tok" }, "word ".repeat(700));
    const hooks = fake.calls.filter((c) => c.path.includes("/webhooks/"));
    assertEquals(hooks.map((h) => h.headers.get("x-http-method") ?? h.method.split(" ")[0]), ["PATCH", "POST"]);
    assert.ok(hooks.every((h) => h.body.content.length <= 2000));
  } finally {
    await fake.close();
  }
});

Deno.test("telegram: the secret header is required and must match", () => {
  assertEquals(verifyTelegramRequest(new Headers({ "x-telegram-bot-api-secret-token": "s3" }), "s3"), undefined);
  assertThrows(() => verifyTelegramRequest(new Headers({ "x-telegram-bot-api-secret-token": "s4" }), "s3"), ChannelError, "does not match");
  assertThrows(() => verifyTelegramRequest(new Headers(), "s3"), ChannelError, "required");
  assertThrows(() => verifyTelegramRequest(new Headers({ "x-telegram-bot-api-secret-token": "s3" }), undefined), ChannelError, "not connected");
});

Deno.test("telegram: private chats, /start, group mentions and replies; other groups' chatter ignored", () => {
  const priv = parseTelegramUpdate(telegramMessage("How do I export?", { updateId: 5 }), "parley_test_bot");
  assert.ok(priv.kind === "message");
  assertEquals([priv.messages[0]!.kind, priv.messages[0]!.text, priv.messages[0]!.deliveryId, priv.messages[0]!.conversationKey], ["message", "How do I export?", "5", "777"]);
  const start = parseTelegramUpdate(telegramMessage("/start"), "parley_test_bot");
  assert.ok(start.kind === "message" && start.messages[0]!.kind === "start");
  const group = { chatId: -100, chatType: "supergroup" as const, fromId: 42 };
  assertEquals(parseTelegramUpdate(telegramMessage("just chatting", group), "parley_test_bot").kind, "ignore");
  const mention = parseTelegramUpdate(telegramMessage("@parley_test_bot where is my data?", group), "parley_test_bot");
  assert.ok(mention.kind === "message");
  assertEquals([mention.messages[0]!.text, mention.messages[0]!.conversationKey], ["where is my data?", "-100:42"]);
  const reply = parseTelegramUpdate(telegramMessage("and backups?", { ...group, replyToUsername: "parley_test_bot" }), "parley_test_bot");
  assert.ok(reply.kind === "message" && reply.messages[0]!.text === "and backups?");
  const ask = parseTelegramUpdate(telegramMessage("/ask@parley_test_bot pricing", group), "parley_test_bot");
  assert.ok(ask.kind === "message" && ask.messages[0]!.text === "pricing");
  assertEquals(parseTelegramUpdate(telegramMessage("/start@other_bot", group), "parley_test_bot").kind, "ignore");
  const fromBot = telegramMessage("hi");
  fromBot.message.from.is_bot = true;
  assertEquals(parseTelegramUpdate(fromBot, "parley_test_bot").kind, "ignore");
});

Deno.test("telegram: MarkdownV2 escaping keeps bold and links and escapes everything else", () => {
  assertEquals(escapeMarkdownV2("a_b*c[d]e(f)g~h`i>j#k+l-m=n|o{p}q.r!s\\t"), "a\\_b\\*c\\[d\\]e\\(f\\)g\\~h\\`i\\>j\\#k\\+l\\-m\\=n\\|o\\{p\\}q\\.r\\!s\\\\t");
  assertEquals(toTelegramMarkdown("**Plans** cost $5.00 (see [pricing](https://x.test/p?a=1)) - ok!"),
    "*Plans* cost $5\\.00 \\(see [pricing](https://x.test/p?a=1)\\) \\- ok\\!");
  assertEquals(toSlackMrkdwn("a < b && **c**"), "a &lt; b &amp;&amp; *c*");
});

Deno.test("split: pieces fit the limit after rendering, at paragraph or word boundaries, losing nothing", () => {
  const text = Array.from({ length: 60 }, (_, i) => `Paragraph ${i}: ${"words and dots. ".repeat(12)}`).join("\n\n");
  const parts = splitMessage(text, 4096, toTelegramMarkdown);
  assert.ok(parts.length > 1);
  for (const p of parts) assert.ok(toTelegramMarkdown(p).length <= 4096, `a piece renders to ${toTelegramMarkdown(p).length}`);
  assert.ok(parts.join(" ").replace(/\s+/g, " ") === text.replace(/\s+/g, " ").trim(), "nothing is lost");
  assert.ok(parts.every((p) => p.startsWith("Paragraph")), "cut at paragraph boundaries");
  assertEquals(splitMessage("x".repeat(10), 4), ["xxxx", "xxxx", "xx"]);
  assertEquals(splitMessage("   ", 10), []);
});

Deno.test("telegram: connect sets the webhook with its secret; long answers arrive in valid pieces", async () => {
  const fake = await startFakePlatforms();
  try {
    const client = { baseUrl: fake.env.PARLEY_TELEGRAM_API_URL!, fetch };
    const secret = randomSecret(24);
    assertEquals((await connectTelegram(client, fake.tokens.telegram, "https://hooks.test/x", secret)).bot_username, "parley_test_bot");
    assertEquals(fake.telegramWebhook, { url: "https://hooks.test/x", secret_token: secret });
    assertEquals(await code(connectTelegram(client, "1:bad", "https://hooks.test/x", secret)), "telegram_invalid_token");
    const long = "Backups (daily) are kept for 30 days. ".repeat(250);
    await sendTelegram(client, fake.tokens.telegram, { chat_id: "777", message_id: "3" }, long);
    const sent = fake.calls.filter((c) => c.method === "sendMessage");
    assert.ok(sent.length >= 3);
    assert.ok(sent.every((c) => c.body.parse_mode === "MarkdownV2" && c.body.text.length <= 4096));
    assertEquals(sent[0]!.body.reply_parameters, { message_id: 3, allow_sending_without_reply: true });
  } finally {
    await fake.close();
  }
});

Deno.test("whatsapp: the GET challenge, the app-secret signature, text messages, stale replays", async () => {
  const params = (token: string) => new URLSearchParams({ "hub.mode": "subscribe", "hub.verify_token": token, "hub.challenge": "1158201444" });
  assertEquals(whatsappChallenge(params("vt"), "vt"), "1158201444");
  assertThrows(() => whatsappChallenge(params("nope"), "vt"), ChannelError, "verify token");
  const raw = JSON.stringify(whatsappText("1234567", "15551234567", "hi"));
  assertEquals(await code(verifyWhatsAppRequest(new Headers(await signWhatsApp("app", raw)), raw, "app")), "ok");
  assertEquals(await code(verifyWhatsAppRequest(new Headers(await signWhatsApp("other", raw)), raw, "app")), "bad_signature");
  assertEquals(await code(verifyWhatsAppRequest(new Headers(), raw, "app")), "missing_signature");
  const parsed = parseWhatsAppWebhook(JSON.parse(raw), "1234567");
  assert.ok(parsed.kind === "message");
  assertEquals([parsed.messages[0]!.text, parsed.messages[0]!.conversationKey], ["hi", "1234567:15551234567"]);
  assertEquals(parseWhatsAppWebhook(JSON.parse(raw), "999").kind, "ignore", "another number's message is not ours");
  const old = whatsappText("1234567", "1555", "hi", { timestamp: Math.floor(Date.now() / 1000) - 25 * 3600 });
  assertEquals(parseWhatsAppWebhook(old, "1234567"), { kind: "ignore", reason: "stale" });
});

Deno.test("whatsapp: replies inside the 24-hour window only, Meta's refusal mapped to the same status", async () => {
  const fake = await startFakePlatforms();
  try {
    const client = { baseUrl: fake.env.PARLEY_WHATSAPP_API_URL!, fetch };
    const to = { to: "15551234567", phone_number_id: "1234567" };
    await sendWhatsApp(client, fake.tokens.whatsapp, to, "Hello!", new Date());
    assertEquals(fake.calls.at(-1)!.body.text, { preview_url: false, body: "Hello!" });
    const before = fake.calls.length;
    assertEquals(await code(sendWhatsApp(client, fake.tokens.whatsapp, to, "late", new Date(Date.now() - 25 * 3600_000))), "whatsapp_window_closed");
    assertEquals(fake.calls.length, before, "nothing is sent outside the window");
    fake.whatsappClosedWindow.add("15551234567");
    assertEquals(await code(sendWhatsApp(client, fake.tokens.whatsapp, to, "x", new Date())), "whatsapp_window_closed");
    await assertRejects(() => sendWhatsApp(client, "bad", { ...to, to: "1" }, "x", new Date()), PlatformError, "Invalid OAuth");
  } finally {
    await fake.close();
  }
});

Deno.test("fake discord delivery is signed so the adapter accepts it", async () => {
  const fake = await startFakePlatforms();
  const seen: Headers[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    seen.push(req.headers);
    await verifyDiscordRequest(req.headers, await req.text(), fake.discord.publicKey);
    return new Response("{}");
  });
  try {
    const res = await deliverDiscord(`http://127.0.0.1:${server.addr.port}/`, fake.discord.privateKey, { type: 1 });
    assertEquals(res.status, 200);
    await res.body?.cancel();
    assertEquals(seen.length, 1);
  } finally {
    await server.shutdown();
    await fake.close();
  }
});
