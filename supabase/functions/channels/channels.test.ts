// The channel receivers and channels-connect against a fresh real stack whose
// functions talk to the local fake platforms: connect each platform, a message
// from the fake platform is answered at the fake by the answering engine and
// stored as a channel chat; every refusal gets its 4xx and never an answer.
import assert from "node:assert/strict";
import {
  deliverDiscord,
  deliverSlack,
  deliverTelegram,
  deliverWhatsApp,
  discordAsk,
  type FakePlatforms,
  slackMention,
  startFakePlatforms,
  telegramMessage,
  whatsappText,
} from "../_shared/channels/test-fixtures.ts";
import { DEMO, startStackWith, type TestStack } from "./test-stack.ts";

const SIGNING_SECRET = "slack-signing-secret-for-tests";
const APP_SECRET = "whatsapp-app-secret-for-tests";
const PHONE_ID = "1098765432";

async function status(res: Response): Promise<[number, string | null]> {
  const text = await res.text();
  let code: string | null = null;
  try {
    code = JSON.parse(text)?.error?.code ?? null;
  } catch { /* not JSON */ }
  return [res.status, code];
}

Deno.test({
  name: "channels: connect every platform, hold conversations through the fakes, refuse what must be refused",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    const fake: FakePlatforms = await startFakePlatforms();
    const stack: TestStack = await startStackWith({ ...fake.env, PARLEY_CHANNELS_IP_LIMIT: "100", PARLEY_TRUST_FORWARDED_FOR: "1" });
    try {
      const owner = await stack.as(DEMO.owner);
      const visitor = await stack.as(DEMO.visitor);
      const ids: Record<string, string> = {};
      const connect = (channelId: string, action: string, token = owner.token) =>
        fetch(stack.functionUrl("channels-connect"), {
          method: "POST",
          headers: { Authorization: `Bearer ${token}`, apikey: stack.anonKey, "Content-Type": "application/json" },
          body: JSON.stringify({ channel_id: channelId, action }),
        });
      const receiver = (platform: string, id = ids[platform]!) => stack.functionUrl(`channels/${id}/${platform}`);
      const channelRow = async (id: string) =>
        (await stack.service.from("channels").select("status, last_error, message_count, last_event_at, settings").eq("id", id).single()).data!;

      await t.step("the owner adds each channel and stores its secrets (never readable back)", async () => {
        for (const type of ["slack", "discord", "telegram", "whatsapp"]) {
          const { data, error } = await owner.client.from("channels")
            .insert({ bot_id: DEMO.helpCenterBot, type, name: `Test ${type}`, settings: type === "whatsapp" ? { phone_number_id: PHONE_ID } : { welcome_message: "Welcome to Acme help!" } })
            .select("id").single();
          assert.equal(error, null);
          ids[type] = data!.id;
        }
        const set = (type: string, credentials: Record<string, string>) =>
          owner.client.rpc("set_channel_credentials", { channel_id: ids[type], credentials });
        assert.equal((await set("slack", { bot_token: fake.tokens.slack, signing_secret: SIGNING_SECRET })).error, null);
        assert.equal((await set("discord", { bot_token: fake.tokens.discord })).error, null);
        assert.equal((await set("telegram", { bot_token: fake.tokens.telegram })).error, null);
        assert.equal((await set("whatsapp", { access_token: fake.tokens.whatsapp, app_secret: APP_SECRET })).error, null);
        const status = await owner.client.rpc("channel_credential_status", { channel_id: ids.slack });
        assert.deepEqual(status.data.map((s: { name: string; is_set: boolean }) => `${s.name}=${s.is_set}`), ["bot_token=true", "client_secret=false", "signing_secret=true"]);
        const direct = await owner.client.from("channel_credentials").select("secrets");
        assert.notEqual(direct.error, null, "the secrets table is closed to the owner");
      });

      await t.step("channels-connect: only the bot's admins and owners; each platform registers Parley", async () => {
        assert.deepEqual(await status(await connect(ids.slack!, "connect", visitor.token)), [404, "channel_not_found"]);
        // The platform administrator (at aal2, as administrators act) reads the channel but may not act on it.
        const platform = await stack.as(DEMO.platformAdmin, "aal2");
        assert.equal((await platform.client.from("channels").select("id").eq("id", ids.slack!)).data?.length, 1);
        for (const action of ["connect", "install", "test", "disconnect"]) {
          assert.deepEqual(await status(await connect(ids.slack!, action, platform.token)), [403, "forbidden"], action);
        }
        assert.equal((await channelRow(ids.slack!)).status, "not_connected");
        assert.deepEqual(await status(await connect(ids.slack!, "launch")), [400, "invalid_request"]);

        const slack = await (await connect(ids.slack!, "connect")).json();
        assert.equal(slack.channel.status, "connected");
        assert.equal(slack.channel.settings.bot_user_id, "UBOT");
        assert.equal(slack.webhook_url, receiver("slack"));

        const discord = await (await connect(ids.discord!, "connect")).json();
        assert.equal(discord.channel.settings.public_key, fake.discord.publicKey);
        assert.ok(fake.calls.some((c) => c.platform === "discord" && c.method.endsWith(`/applications/${fake.discord.applicationId}/commands`) && c.body.name === "ask"),
          "/ask is registered on connect");

        const telegram = await (await connect(ids.telegram!, "connect")).json();
        assert.equal(telegram.channel.settings.bot_username, "parley_test_bot");
        assert.equal(fake.telegramWebhook?.url, receiver("telegram"), "setWebhook points Telegram at the receiver");
        assert.match(fake.telegramWebhook!.secret_token, /^[A-Za-z0-9_-]{32,}$/);
        assert.equal(JSON.stringify(telegram).includes(fake.telegramWebhook!.secret_token), false, "the webhook secret never reaches the screen");

        const whatsapp = await (await connect(ids.whatsapp!, "connect")).json();
        assert.equal(whatsapp.channel.status, "connected");
        assert.match(whatsapp.show_once.verify_token, /^[A-Za-z0-9_-]{20,}$/, "the verify token for Meta's dashboard is shown once");
        ids.verifyToken = whatsapp.show_once.verify_token;
        const again = await (await connect(ids.whatsapp!, "connect")).json();
        assert.equal(again.show_once, undefined, "…and only once");
      });

      await t.step("a bad token at connect: 422 with the platform's code, and the channel needs attention", async () => {
        const { data } = await owner.client.from("channels").insert({ bot_id: DEMO.helpCenterBot, type: "slack", name: "Broken" }).select("id").single();
        await owner.client.rpc("set_channel_credentials", { channel_id: data!.id, credentials: { bot_token: "xoxb-wrong", signing_secret: "x" } });
        const refused = await connect(data!.id, "connect");
        assert.equal(refused.status, 422);
        assert.deepEqual((await refused.json()).error.details, { platform_code: "slack_invalid_auth" });
        const row = await channelRow(data!.id);
        assert.equal(row.status, "needs_attention");
        assert.match(row.last_error!, /invalid_auth/);
      });

      await t.step("slack: installing the owner's own app through OAuth stores the bot token", async () => {
        const { data } = await owner.client.from("channels")
          .insert({ bot_id: DEMO.helpCenterBot, type: "slack", name: "OAuth Slack", settings: { client_id: fake.slackOAuth.clientId } }).select("id").single();
        const id = data!.id;
        await owner.client.rpc("set_channel_credentials", { channel_id: id, credentials: { client_secret: fake.slackOAuth.clientSecret, signing_secret: "s" } });
        const res = await connect(id, "install");
        assert.equal(res.status, 200);
        const authorize = new URL((await res.json()).authorize_url);
        assert.equal(`${authorize.origin}${authorize.pathname}`, "https://slack.com/oauth/v2/authorize");
        assert.equal(authorize.searchParams.get("client_id"), fake.slackOAuth.clientId);
        assert.equal(authorize.searchParams.get("scope"), "app_mentions:read,chat:write,im:history");
        const redirect = authorize.searchParams.get("redirect_uri")!;
        assert.equal(redirect, `${receiver("slack", id)}/oauth`);
        const state = authorize.searchParams.get("state")!;

        // Slack sends the browser back with a code; Parley exchanges it and returns to the settings.
        const back = await fetch(`${redirect}?code=${encodeURIComponent(fake.slackOAuth.code)}&state=${encodeURIComponent(state)}`, { redirect: "manual" });
        assert.equal(back.status, 302);
        assert.match(back.headers.get("location")!, new RegExp(`/app/bots/${DEMO.helpCenterBot}/channels/${id}/settings\\?installed=slack$`));
        await back.body?.cancel();
        const exchange = fake.calls.find((c) => c.platform === "slack" && c.method === "oauth.v2.access")!;
        assert.ok(exchange, "the code was exchanged at oauth.v2.access");
        const row = await channelRow(id);
        assert.equal(row.status, "connected");
        assert.equal(row.settings.team_id, "TFAKE");
        const creds = await owner.client.rpc("channel_credential_status", { channel_id: id });
        assert.equal(creds.data.find((c: { name: string }) => c.name === "bot_token").is_set, true);

        // The state works once, and only the right one.
        assert.deepEqual(await status(await fetch(`${redirect}?code=x&state=${encodeURIComponent(state)}`)), [400, "invalid_state"]);
        assert.deepEqual(await status(await fetch(`${redirect}?code=x&state=forged`)), [400, "invalid_state"]);
        // Only admins and owners start an installation.
        assert.deepEqual(await status(await connect(id, "install", visitor.token)), [404, "channel_not_found"]);
      });

      await t.step("slack: url_verification, a mention answered in its thread, stored as a slack chat", async () => {
        const challenge = await deliverSlack(receiver("slack"), SIGNING_SECRET, { type: "url_verification", challenge: "c-123", token: "x" });
        assert.deepEqual(await challenge.json(), { challenge: "c-123" });

        const event = slackMention("Are my notes encrypted?", { eventId: "EvSLACK1", ts: "1700000000.000100" });
        const started = performance.now();
        const ack = await deliverSlack(receiver("slack"), SIGNING_SECRET, event);
        assert.equal(ack.status, 200);
        await ack.body?.cancel();
        assert.ok(performance.now() - started < 3000, "acknowledged within Slack's 3 seconds");
        const [post] = await fake.waitFor((c) => c.platform === "slack" && c.method === "chat.postMessage");
        assert.equal(post!.body.channel, "CFAKE");
        assert.equal(post!.body.thread_ts, "1700000000.000100", "answered in the thread");
        assert.match(post!.body.text, /Frankfurt|encrypted|European Union/i, "answered from the bot's knowledge");

        const chat = await stack.service.from("chats").select("id, channel, user_id, external_thread_id, external_user_id, message_count")
          .eq("external_thread_id", `${ids.slack}:TFAKE:CFAKE:1700000000.000100`).single();
        assert.equal(chat.data!.channel, "slack");
        assert.equal(chat.data!.user_id, null);
        assert.equal(chat.data!.external_user_id, "UHUMAN");
        assert.equal(chat.data!.message_count, 2);
        const owned = await owner.client.from("chats").select("id").eq("id", chat.data!.id);
        assert.equal(owned.data!.length, 1, "the owner sees the conversation with the bot's other chats");
        const row = await channelRow(ids.slack!);
        assert.equal(row.message_count, 2);
        assert.ok(row.last_event_at);

        // A reply in the same thread continues the same chat.
        const next = await deliverSlack(receiver("slack"), SIGNING_SECRET, slackMention("And can I export them?", { ts: "1700000001.000200", threadTs: "1700000000.000100" }));
        assert.equal(next.status, 200);
        await next.body?.cancel();
        await fake.waitFor((c) => c.platform === "slack" && c.method === "chat.postMessage", 2);
        const same = await stack.service.from("chats").select("message_count").eq("id", chat.data!.id).single();
        assert.equal(same.data!.message_count, 4);
      });

      await t.step("slack refusals: duplicate, bad, missing and stale signatures, oversized bodies; never answered", async () => {
        const posts = () => fake.calls.filter((c) => c.method === "chat.postMessage").length;
        const before = posts();
        const dup = slackMention("Are my notes encrypted?", { eventId: "EvSLACK1" });
        // Slack's retry of a delivery already handled: the same 200 acknowledgement, no second answer.
        const retried = await deliverSlack(receiver("slack"), SIGNING_SECRET, dup, { headers: { "x-slack-retry-num": "1" } });
        assert.equal(retried.status, 200);
        assert.deepEqual(await retried.json(), { ok: true });
        assert.deepEqual(await status(await deliverSlack(receiver("slack"), "wrong-secret", slackMention("hi"))), [401, "bad_signature"]);
        assert.deepEqual(await status(await deliverSlack(receiver("slack"), SIGNING_SECRET, slackMention("hi"), { timestamp: Math.floor(Date.now() / 1000) - 600 })), [401, "stale_request"]);
        const unsigned = await fetch(receiver("slack"), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(slackMention("hi")) });
        assert.deepEqual(await status(unsigned), [401, "missing_signature"]);
        const huge = slackMention("x".repeat(300 * 1024));
        assert.deepEqual(await status(await deliverSlack(receiver("slack"), SIGNING_SECRET, huge)), [413, "body_too_large"]);
        assert.deepEqual(await status(await deliverSlack(receiver("slack", crypto.randomUUID()), SIGNING_SECRET, slackMention("hi"))), [404, "channel_not_found"]);
        assert.deepEqual(await status(await deliverSlack(receiver("slack", "not-a-uuid"), SIGNING_SECRET, slackMention("hi"))), [404, "channel_not_found"]);
        assert.deepEqual(await status(await deliverSlack(stack.functionUrl(`channels/${ids.slack}/telegram`), SIGNING_SECRET, slackMention("hi"))), [404, "channel_not_found"],
          "a channel answers only on its own platform's path");
        await new Promise((r) => setTimeout(r, 500));
        assert.equal(posts(), before, "no refused delivery was answered");
      });

      await t.step("discord: PING, /ask deferred then answered through the interaction webhook; bad signatures refused", async () => {
        const ping = await deliverDiscord(receiver("discord"), fake.discord.privateKey, { id: "1", type: 1, application_id: fake.discord.applicationId, token: "t", version: 1 });
        assert.deepEqual(await ping.json(), { type: 1 });
        const ask = discordAsk(fake.discord.applicationId, "Can I download all my data?");
        const deferred = await deliverDiscord(receiver("discord"), fake.discord.privateKey, ask);
        assert.deepEqual(await deferred.json(), { type: 5 });
        const [edit] = await fake.waitFor((c) => c.platform === "discord" && c.method === `PATCH /webhooks/${fake.discord.applicationId}/:token/messages/@original`);
        assert.ok(edit!.path.includes(encodeURIComponent(ask.token)), "the follow-up uses the interaction's token");
        assert.match(edit!.body.content, /Export|download/i);
        const edits = () => fake.calls.filter((c) => c.platform === "discord" && c.method.startsWith("PATCH")).length;
        const editsBefore = edits();
        const again = await deliverDiscord(receiver("discord"), fake.discord.privateKey, ask);
        assert.equal(again.status, 200);
        assert.deepEqual(await again.json(), { type: 5 }, "a repeated interaction gets the same deferred acknowledgement");
        await new Promise((r) => setTimeout(r, 500));
        assert.equal(edits(), editsBefore, "and no second answer");
        const other = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as CryptoKeyPair;
        assert.deepEqual(await status(await deliverDiscord(receiver("discord"), other.privateKey, discordAsk(fake.discord.applicationId, "hi"))), [401, "bad_signature"]);
        assert.deepEqual(await status(await deliverDiscord(receiver("discord"), fake.discord.privateKey, discordAsk(fake.discord.applicationId, "hi"), { timestamp: Math.floor(Date.now() / 1000) - 3600 })), [401, "stale_request"]);
      });

      await t.step("telegram: /start greets, a private message is answered in MarkdownV2, the secret is checked", async () => {
        const secret = fake.telegramWebhook!.secret_token;
        const start = await deliverTelegram(receiver("telegram"), secret, telegramMessage("/start", { chatId: 4242 }));
        assert.equal(start.status, 200);
        await start.body?.cancel();
        const [greet] = await fake.waitFor((c) => c.platform === "telegram" && c.method === "sendMessage" && c.body.chat_id === "4242");
        assert.equal(greet!.body.text, "Welcome to Acme help\\!");
        assert.equal(greet!.body.parse_mode, "MarkdownV2");

        const update = telegramMessage("Are my notes encrypted?", { chatId: 4242 });
        const res = await deliverTelegram(receiver("telegram"), secret, update);
        assert.equal(res.status, 200);
        await res.body?.cancel();
        const answers = await fake.waitFor((c) => c.platform === "telegram" && c.method === "sendMessage" && c.body.chat_id === "4242", 2);
        assert.match(answers[1]!.body.text, /encrypted/);
        const chat = await stack.service.from("chats").select("channel, external_user_id").eq("external_thread_id", `${ids.telegram}:4242`).single();
        assert.deepEqual(chat.data, { channel: "telegram", external_user_id: "4242" });

        // Telegram redelivers an update it saw no 2xx for (and holds later ones): the same acknowledgement, no second answer.
        const sentBefore = fake.calls.filter((c) => c.platform === "telegram" && c.method === "sendMessage").length;
        const redelivered = await deliverTelegram(receiver("telegram"), secret, update);
        assert.equal(redelivered.status, 200);
        assert.deepEqual(await redelivered.json(), { ok: true });
        assert.deepEqual(await status(await deliverTelegram(receiver("telegram"), "wrong", telegramMessage("hi"))), [401, "bad_signature"]);
        assert.deepEqual(await status(await deliverTelegram(receiver("telegram"), null, telegramMessage("hi"))), [401, "missing_signature"]);
        const group = await deliverTelegram(receiver("telegram"), secret, telegramMessage("chatter", { chatId: -100, chatType: "group", fromId: 7 }));
        assert.deepEqual(await group.json(), { ok: true }, "group chatter without a mention is acknowledged and ignored");
        await new Promise((r) => setTimeout(r, 500));
        assert.equal(fake.calls.filter((c) => c.platform === "telegram" && c.method === "sendMessage").length, sentBefore, "the repeated update was not answered again");
      });

      await t.step("telegram: send a test message to the latest conversation", async () => {
        const res = await connect(ids.telegram!, "test");
        assert.equal(res.status, 200);
        await res.body?.cancel();
        const sent = fake.calls.filter((c) => c.platform === "telegram" && c.method === "sendMessage").at(-1)!;
        assert.equal(sent.body.chat_id, "4242");
        assert.match(sent.body.text, /test message/);
      });

      await t.step("an ask task posts its answer to a connected channel: the recipient it names, else (Slack, Discord) the latest conversation; Telegram and WhatsApp need one", async () => {
        const runNow = async (taskId: string) => {
          const res = await fetch(stack.functionUrl(`tasks/${taskId}/run`), {
            method: "POST",
            headers: { Authorization: `Bearer ${owner.token}`, apikey: stack.anonKey, "Content-Type": "application/json" },
            body: "{}",
          });
          return await res.json();
        };
        const posts = () => fake.calls.filter((c) => c.platform === "slack" && c.method === "chat.postMessage");
        const named = await owner.client.from("tasks").insert({
          bot_id: DEMO.helpCenterBot, name: "Daily answer", type: "ask", every_hours: 24,
          settings: { prompt: "Are my notes encrypted?", channel_id: ids.slack, channel_recipient: "CDAILY" },
        }).select("id").single();
        assert.equal(named.error, null);
        const before = posts().length;
        const r = await runNow(named.data!.id);
        assert.equal(r.status, "succeeded", JSON.stringify(r));
        assert.deepEqual(r.output.posted, { channel_id: ids.slack, type: "slack" });
        assert.equal(posts().length, before + 1, "one message posted");
        const post = posts().at(-1)!;
        assert.equal(post.body.channel, "CDAILY");
        assert.equal(post.body.thread_ts, undefined, "a message of its own, not a reply in a thread");
        assert.match(post.body.text, /Frankfurt|encrypted|European Union/i, "the bot's answer from its knowledge");

        // Telegram and WhatsApp are one person a conversation: never whoever wrote last
        const telegramSends = () => fake.calls.filter((c) => c.platform === "telegram" && c.method === "sendMessage");
        const unnamed = await owner.client.from("tasks").insert({
          bot_id: DEMO.helpCenterBot, name: "Telegram answer", type: "ask", every_hours: 24,
          settings: { prompt: "Are my notes encrypted?", channel_id: ids.telegram },
        }).select("id").single();
        assert.equal(unnamed.error, null);
        const sendsBefore = telegramSends().length;
        const t2 = await runNow(unnamed.data!.id);
        assert.equal(t2.status, "failed", JSON.stringify(t2));
        assert.match(t2.error, /^no_recipient: /);
        assert.equal(telegramSends().length, sendsBefore, "no recipient named: nothing is sent to the latest conversation");
        const toNamed = await owner.client.from("tasks").update({
          settings: { prompt: "Are my notes encrypted?", channel_id: ids.telegram, channel_recipient: "777" },
        }).eq("id", unnamed.data!.id);
        assert.equal(toNamed.error, null);
        const t3 = await runNow(unnamed.data!.id);
        assert.equal(t3.status, "succeeded", JSON.stringify(t3));
        assert.equal(telegramSends().at(-1)!.body.chat_id, "777", "the recipient the task names");
      });

      await t.step("whatsapp: Meta's GET check, a signed message answered through the Graph API, refusals", async () => {
        const check = (token: string) => fetch(`${receiver("whatsapp")}?hub.mode=subscribe&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=987654`);
        const ok = await check(ids.verifyToken!);
        assert.equal(ok.status, 200);
        assert.equal(await ok.text(), "987654");
        assert.deepEqual(await status(await check("wrong")), [403, "verification_failed"]);

        const msg = whatsappText(PHONE_ID, "15551230000", "Can I download all my data?");
        const res = await deliverWhatsApp(receiver("whatsapp"), APP_SECRET, msg);
        assert.equal(res.status, 200);
        await res.body?.cancel();
        const [sent] = await fake.waitFor((c) => c.platform === "whatsapp" && c.method === "messages");
        assert.equal(sent!.body.to, "15551230000");
        assert.match(sent!.body.text.body, /Export|download/i);
        const metaSends = () => fake.calls.filter((c) => c.platform === "whatsapp" && c.method === "messages").length;
        const sendsBefore = metaSends();
        const retried = await deliverWhatsApp(receiver("whatsapp"), APP_SECRET, msg);
        assert.equal(retried.status, 200, "Meta retries anything else for days");
        assert.deepEqual(await retried.json(), { ok: true });
        assert.deepEqual(await status(await deliverWhatsApp(receiver("whatsapp"), "wrong", whatsappText(PHONE_ID, "1555", "hi"))), [401, "bad_signature"]);
        const old = whatsappText(PHONE_ID, "1555", "hi", { timestamp: Math.floor(Date.now() / 1000) - 2 * 86400 });
        assert.deepEqual(await status(await deliverWhatsApp(receiver("whatsapp"), APP_SECRET, old)), [401, "stale_request"]);
        await new Promise((r) => setTimeout(r, 500));
        assert.equal(metaSends(), sendsBefore, "the repeated message was not answered again");
      });

      await t.step("whatsapp: a reply Meta refuses (24-hour window) leaves a clear status on the channel", async () => {
        fake.whatsappClosedWindow.add("15559990000");
        const res = await deliverWhatsApp(receiver("whatsapp"), APP_SECRET, whatsappText(PHONE_ID, "15559990000", "Hello?"));
        assert.equal(res.status, 200);
        await res.body?.cancel();
        await fake.waitFor((c) => c.platform === "whatsapp" && c.method === "messages" && c.body.to === "15559990000");
        let row = await channelRow(ids.whatsapp!);
        for (let i = 0; i < 40 && row.status !== "needs_attention"; i++) {
          await new Promise((r) => setTimeout(r, 100));
          row = await channelRow(ids.whatsapp!);
        }
        assert.equal(row.status, "needs_attention");
        assert.match(row.last_error!, /24 hours/);
      });

      await t.step("a disabled channel refuses deliveries (403) and is not answered", async () => {
        assert.equal((await owner.client.from("channels").update({ enabled: false }).eq("id", ids.telegram!)).error, null);
        const before = fake.calls.length;
        assert.deepEqual(await status(await deliverTelegram(receiver("telegram"), fake.telegramWebhook!.secret_token, telegramMessage("hi", { chatId: 5 }))), [403, "channel_disabled"]);
        assert.equal(fake.calls.length, before);
      });

      await t.step("a stranger's address is limited before any channel is looked up (429)", async () => {
        const from = { "x-forwarded-for": "203.0.113.77" };
        const hit = () => fetch(stack.functionUrl(`channels/${crypto.randomUUID()}/slack`), { method: "POST", headers: from, body: "{}" });
        const statuses: number[] = [];
        for (let i = 0; i < 101; i++) {
          const res = await hit();
          statuses.push(res.status);
          await res.body?.cancel();
        }
        assert.deepEqual([...new Set(statuses.slice(0, 100))], [404]);
        assert.equal(statuses[100], 429);
      });

      await t.step("disconnect removes Telegram's webhook", async () => {
        const res = await connect(ids.telegram!, "disconnect");
        assert.equal((await res.json()).channel.status, "not_connected");
        assert.equal(fake.telegramWebhook, null);
      });
    } finally {
      await stack.stop();
      await fake.close();
    }
  },
});
