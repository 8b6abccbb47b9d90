// Channels on a real stack, in two languages: the owner adds a Telegram channel, pastes the
// bot token (the screen then shows only that it is set), connects it (Parley sets the
// webhook at the fake Telegram), and holds a conversation of two turns from the fake platform,
// each answered there; then an API key is created on the HTTP API channel and holds a
// conversation through the SDK (continued by the first answer's conversation id), and the SDK
// streams an answer in a browser page of another site. Slack (replies in the same thread),
// Discord (`/ask` twice in the same channel) and WhatsApp (the same number writing again) are
// connected the same way and hold two-turn conversations too. Every conversation appears live
// in the owner's conversations page, opened beforehand; opened there, it shows the second turn
// arrive in the same conversation.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { build } from "esbuild";
import { launchBrowser, watchErrors } from "./lib/browser.ts";
import { explain as explainFailure, signedInContext } from "./lib/fakes/owner-session.ts";
import { startFullApp, type FullApp } from "./lib/stack.ts";
import { serveFake, type Served } from "./lib/fakes/serve.ts";
import {
  deliverDiscord,
  deliverSlack,
  deliverTelegram,
  deliverWhatsApp,
  discordAsk,
  slackMention,
  startFakePlatforms,
  telegramMessage,
  whatsappText,
  type FakePlatforms,
  type PlatformCall,
} from "../supabase/functions/_shared/channels/test-fixtures.ts";
import { Parley } from "../sdk/src/index.ts";

const BOT = "c0000000-0000-4000-8000-000000000001"; // "Acme Help Center", extractive default
const ART = path.join(import.meta.dirname, "artifacts");

type Msgs = Record<string, string>;
const readArea = (area: string, code: string): Msgs =>
  JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "..", "frontend", "src", "i18n", "messages", area, `${code}.json`), "utf8")) as Msgs;
/** The shell's messages (area "": the cookie banner's), the channels' and the conversations'. */
const readMessages = (code: string): Msgs => ({ ...readArea("", code), ...readArea("channels", code), ...readArea("conversations", code) });

/**
 * The owner's conversations page, opened before anything is sent: each conversation must
 * appear there live (no reload), as a row with its first question and its channel. The same
 * question may already be there (the other language's run asked it): `count` before sending,
 * then `shows` waits for one row more. `follow` does the same for a conversation of several
 * turns: it notes the rows before the first turn, finds the new one after it, opens it beside
 * the list (a click in the app, not a reload) and waits for each later turn to arrive in it.
 */
async function openLiveConversations(context: BrowserContext, prefix: string, m: Msgs) {
  const page = await context.newPage();
  await page.goto(`${app.appUrl}${prefix}/app/conversations`);
  const list = page.getByRole("list", { name: m["conversations.list.label"] });
  await list.waitFor({ timeout: 20_000 });
  // The cookie banner would cover rows this page clicks: answer it as a person would.
  const banner = page.getByTestId("consent-banner");
  await banner.getByRole("button", { name: m["consent.necessaryOnly"], exact: true }).click({ timeout: 20_000 });
  await banner.waitFor({ state: "detached" });
  const base = new URL(page.url()).pathname; // where the page settled (…/conversations/all)
  // A mark a reload would wipe out: every check below makes sure it is still there.
  await page.evaluate(() => { (window as unknown as { liveMark?: boolean }).liveMark = true; });
  async function stillOpen() {
    assert.equal(await page.evaluate(() => (window as unknown as { liveMark?: boolean }).liveMark), true, "the page was not reloaded");
    assert.ok(new URL(page.url()).pathname.startsWith(base), `the page was not left: ${page.url()}`);
  }
  const rows = (question: string, channel: string) =>
    list.getByRole("listitem").filter({ hasText: question }).filter({ hasText: m[`conversations.channel.${channel}`]! });
  const hrefs = (question: string, channel: string) => rows(question, channel).getByRole("link").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  return {
    page,
    count: (question: string, channel: string) => rows(question, channel).count(),
    async shows(question: string, channel: string, before: number) {
      await rows(question, channel).nth(before).waitFor({ timeout: 20_000 });
      await stillOpen();
    },
    /** Call before the first turn is sent; `appeared` after its reply arrived. */
    async follow(question: string, channel: string) {
      const known = new Set(await hrefs(question, channel));
      const view = page.locator("article.conv-view");
      const asked = [question];
      /** Each asked question and its answer, in order, in the open conversation. */
      async function waitTurns() {
        const want = { total: asked.length * 2, questions: asked };
        try {
          await page.waitForFunction(turnsShown, want, { timeout: 20_000 });
        } catch (e) {
          assert.fail(`the open ${channel} conversation should show ${JSON.stringify(want)}, shows ${JSON.stringify(await page.evaluate(turnsShown, null))}: ${(e as Error).message}`);
        }
        await view.getByRole("heading", { name: question, level: 2 }).waitFor();
        await stillOpen();
      }
      return {
        /** The new conversation's row appeared live; it is opened beside the list. Returns its chat id. */
        async appeared(): Promise<string> {
          await rows(question, channel).nth(known.size).waitFor({ timeout: 20_000 });
          await stillOpen();
          const fresh = (await hrefs(question, channel)).filter((h) => !known.has(h));
          assert.equal(fresh.length, 1, `one new ${channel} conversation: ${fresh.join(", ")}`);
          const chatId = /\/chat\/([0-9a-f-]{36})$/.exec(fresh[0]!)?.[1];
          assert.ok(chatId, `a conversation link: ${fresh[0]}`);
          await list.locator(`a[href="${fresh[0]}"]`).click();
          await page.waitForURL((u) => u.pathname.endsWith(`/chat/${chatId}`), { timeout: 20_000 });
          await waitTurns();
          return chatId;
        },
        /** Before a later turn is sent: how many rows start with that question (other chats). */
        count: (next: string) => rows(next, channel).count(),
        /** The later turn arrived live in the same open conversation; no conversation started with it. */
        async continued(next: string, before: number) {
          asked.push(next);
          await waitTurns();
          assert.equal(await rows(next, channel).count(), before, `"${next}" started no ${channel} conversation of its own`);
        },
      };
    },
  };
}

/**
 * In the page: the open conversation's message count and the visitor's questions, in order;
 * with `want`, false until they are exactly that.
 */
function turnsShown(want: { total: number; questions: string[] } | null) {
  const ol = document.querySelector("article.conv-view .conv-view__messages");
  const items = ol ? Array.from(ol.children) : [];
  const seen = {
    total: items.length,
    questions: items.filter((li) => li.classList.contains("conv-msg--user")).map((li) => li.querySelector(".conv-msg__text")?.textContent ?? ""),
  };
  if (!want) return seen;
  return seen.total === want.total && JSON.stringify(seen.questions) === JSON.stringify(want.questions) ? seen : false;
}

/** Another site's page that loads @parley/sdk (bundled for browsers) as a module. */
async function serveSdkPage(): Promise<Served> {
  const bundle = await build({ entryPoints: [path.join(import.meta.dirname, "..", "sdk", "src", "index.ts")], bundle: true, format: "esm", target: "es2020", write: false });
  const js = bundle.outputFiles[0]!.text;
  return serveFake((req) => {
    if (new URL(req.url).pathname === "/sdk.js") return new Response(js, { headers: { "content-type": "text/javascript" } });
    return new Response(`<!doctype html><html><head><title>SDK</title></head><body><script type="module">
import { Parley } from "/sdk.js"; window.Parley = Parley; document.body.dataset.sdk = "ready";
</script></body></html>`, { headers: { "content-type": "text/html" } });
  });
}

/** Streams an answer with the SDK inside `page`: the events' types, the joined tokens. */
function streamInPage(page: Page, apiKey: string, baseUrl: string, message: string) {
  return page.evaluate(async ({ apiKey, baseUrl, message }) => {
    const { Parley } = window as unknown as { Parley: typeof import("../sdk/src/index.ts").Parley };
    const types: string[] = [];
    let text = "";
    for await (const ev of new Parley({ apiKey, baseUrl }).chat.stream({ message })) {
      types.push(ev.type);
      if (ev.type === "token") text += ev.text;
    }
    return { types, text };
  }, { apiKey, baseUrl, message });
}

let app: FullApp;
let browser: Browser;
let fake: FakePlatforms;
let sdkSite: Served;

before(async () => {
  fake = await startFakePlatforms();
  app = await startFullApp({ env: fake.env });
  browser = await launchBrowser();
  sdkSite = await serveSdkPage();
  fs.mkdirSync(ART, { recursive: true });
});

after(async () => {
  await browser?.close();
  await app?.stop();
  await fake?.close();
  await sdkSite?.close();
});

const SIGNING_SECRET = "e2e-slack-signing-secret";
const APP_SECRET = "e2e-whatsapp-app-secret";

for (const [prefix, code, chatId] of [["", "en", 71001], ["/de", "de", 71002]] as const) {
  describe(`channels (${code})`, () => {
    const m = readMessages(code);
    it("connects Telegram through its fake and holds a conversation there and over the HTTP API", async () => {
      const context = await signedInContext(browser, app, code === "de" ? "dark" : "light");
      const live = await openLiveConversations(context, prefix, m);
      const page = await context.newPage();
      const errors = watchErrors(page);
      await explainFailure(page, ART, `channels-${code}`, async () => {
        await page.goto(`${app.appUrl}${prefix}/app/bots/${BOT}/channels`);
        await page.getByRole("heading", { name: m["channels.list.title"], level: 1 }).waitFor({ timeout: 20_000 });
        // The seeded channels with their states.
        await page.getByText("Acme workspace").waitFor();
        await page.locator('[data-channel-type="slack"] [data-status="needs_attention"]').waitFor();
        await page.locator('[data-channel-type="telegram"] [data-status="off"]').waitFor();
        // The web channel came with the bot: its embed code is on the list.
        assert.match((await page.locator('[data-channel-type="web"]').getByTestId("widget-snippet").textContent())!, new RegExp(`data-bot-id="${BOT}"`));
        await page.screenshot({ path: path.join(ART, `channels-list-${code}.png`), fullPage: true });

        // Add a Telegram channel.
        await page.getByRole("button", { name: m["channels.add.named"]!.replace("{type}", m["channels.type.telegram"]!) }).click();
        await page.locator('[data-channel-type="telegram"]').getByLabel(m["channels.field.name"]!).fill(`Telegram ${code}`);
        await page.getByRole("button", { name: m["channels.add.create"] }).click();
        await page.waitForURL(/\/channels\/[0-9a-f-]{36}\/settings$/, { timeout: 20_000 });
        await page.getByRole("heading", { name: `Telegram ${code}`, level: 1 }).waitFor();
        const channelId = /channels\/([0-9a-f-]{36})\/settings/.exec(page.url())![1]!;

        // The token: stored, then shown only as set.
        const token = page.getByLabel(m["channels.secret.bot-token"]!, { exact: true });
        await token.fill(fake.tokens.telegram);
        await page.getByRole("button", { name: m["channels.credentials.save"] }).click();
        await page.getByText(m["channels.credentials.saved"]!).waitFor();
        await page.locator('[data-secret-set="true"]').waitFor();
        assert.equal(await token.inputValue(), "", "the token is never shown back");
        assert.equal((await page.content()).includes(fake.tokens.telegram), false);

        // Connect: Parley sets the webhook at the fake Telegram.
        await page.getByRole("button", { name: m["channels.actions.connect"], exact: true }).click();
        await page.getByText(m["channels.actions.done.connect"]!).waitFor({ timeout: 20_000 });
        await page.locator('[data-status="connected"]').first().waitFor({ timeout: 20_000 });
        assert.equal(fake.telegramWebhook?.url, `${app.apiUrl}/functions/v1/channels/${channelId}/telegram`);
        await page.screenshot({ path: path.join(ART, `channels-settings-${code}.png`), fullPage: true });

        // A message from Telegram is answered at the fake.
        const tgQuestion = "Are my notes encrypted?";
        const tg = await live.follow(tgQuestion, "telegram");
        const toChat = (c: PlatformCall) => c.platform === "telegram" && c.method === "sendMessage" && c.body.chat_id === String(chatId);
        const res = await deliverTelegram(fake.telegramWebhook!.url, fake.telegramWebhook!.secret_token, telegramMessage(tgQuestion, { chatId }));
        assert.equal(res.status, 200);
        await res.body?.cancel();
        const [reply] = await fake.waitFor(toChat);
        assert.match(reply!.body.text, /encrypted/);

        // The conversation appears in the owner's open conversations page; opened there, the
        // next message of the same Telegram chat arrives in it.
        await tg.appeared();
        const tgNext = "How do I reset my password?";
        const tgNextBefore = await tg.count(tgNext);
        const res2 = await deliverTelegram(fake.telegramWebhook!.url, fake.telegramWebhook!.secret_token, telegramMessage(tgNext, { chatId }));
        assert.equal(res2.status, 200);
        await res2.body?.cancel();
        const replies = await fake.waitFor(toChat, 2);
        assert.equal(replies.length, 2);
        assert.match(replies[1]!.body.text, /Forgot password/);
        await tg.continued(tgNext, tgNextBefore);
        await live.page.screenshot({ path: path.join(ART, `channels-conversations-${code}.png`), fullPage: true });

        // The HTTP API: a key shown once, used by the SDK.
        await page.goto(`${app.appUrl}${prefix}/app/bots/${BOT}/channels`);
        await page.getByRole("link", { name: "HTTP API" }).click();
        await page.getByRole("heading", { name: m["channels.api.title"] }).waitFor({ timeout: 20_000 });
        await page.getByLabel(m["channels.api.keyName"]!, { exact: true }).fill(`e2e ${code}`);
        await page.getByRole("button", { name: m["channels.api.create"] }).click();
        const key = (await page.getByTestId("api-key-fresh").textContent({ timeout: 20_000 }))!.trim();
        assert.match(key, /^pk_[A-Za-z0-9_-]{43}$/);
        await page.locator("tr", { hasText: `e2e ${code}` }).waitFor();
        const apiQuestion = "Can I download all my data?";
        const api = await live.follow(apiQuestion, "api");
        const parley = new Parley({ apiKey: key, baseUrl: app.apiUrl });
        const answer = await parley.chat.send({ message: apiQuestion });
        assert.match(answer.content, /Export|download/i);
        await page.screenshot({ path: path.join(ART, `channels-api-${code}.png`), fullPage: true });
        assert.equal(await api.appeared(), answer.chatId);
        // The conversation continued by the id of the first answer.
        const apiNext = "How do I share a note?";
        const apiNextBefore = await api.count(apiNext);
        const next = await parley.chat.send({ message: apiNext, conversationId: answer.conversationId });
        assert.match(next.content, /Share/);
        assert.equal(next.conversationId, answer.conversationId);
        assert.equal(next.chatId, answer.chatId);
        await api.continued(apiNext, apiNextBefore);

        // The SDK in a browser, on another site's page: the answer streams through the key.
        const sdkPage = await context.newPage();
        const sdkErrors = watchErrors(sdkPage);
        await sdkPage.goto(sdkSite.url);
        await sdkPage.locator("body[data-sdk='ready']").waitFor({ state: "attached", timeout: 20_000 });
        const browserBefore = await live.count(apiQuestion, "api");
        const streamed = await streamInPage(sdkPage, key, app.apiUrl, apiQuestion);
        assert.equal(streamed.types[0], "meta");
        assert.equal(streamed.types.at(-1), "done");
        assert.ok(streamed.types.filter((t) => t === "token").length > 1, `the answer came token by token: ${streamed.types.join(",")}`);
        assert.match(streamed.text, /Export|download/i);
        assert.deepEqual(sdkErrors, []);
        await live.shows(apiQuestion, "api", browserBefore);

        // The API reference on the site, rendered from the document the api function serves.
        await page.goto(`${app.appUrl}${prefix}/channels/api`);
        await page.getByRole("heading", { name: m["channels.reference.title"], level: 2 }).waitFor({ timeout: 20_000 });
        await page.getByRole("article", { name: "POST /v1/chat" }).getByRole("cell", { name: "conversation_id", exact: false }).first().waitFor({ timeout: 20_000 });
        assert.match((await page.getByTestId("api-reference-server").textContent())!, /\/functions\/v1\/api$/);
        await page.screenshot({ path: path.join(ART, `channels-api-reference-${code}.png`), fullPage: true });
      });
      assert.deepEqual(errors, []);
      await context.close();
    });

    it("connects Slack, Discord and WhatsApp through the screens and holds a conversation through each fake", async () => {
      const context = await signedInContext(browser, app, "light");
      const live = await openLiveConversations(context, prefix, m);
      const page = await context.newPage();
      const errors = watchErrors(page);
      const type = (t: string) => m[`channels.type.${t}`]!;
      /** Adds a channel of `t` from the list, fills its secrets and settings, connects; returns its id. */
      async function addAndConnect(t: string, secrets: Record<string, string>, settings: Record<string, string> = {}) {
        await page.goto(`${app.appUrl}${prefix}/app/bots/${BOT}/channels`);
        await page.getByRole("button", { name: m["channels.add.named"]!.replace("{type}", type(t)) }).click();
        await page.locator(`[data-channel-type="${t}"]`).getByLabel(m["channels.field.name"]!).fill(`${type(t)} ${code}`);
        await page.getByRole("button", { name: m["channels.add.create"] }).click();
        await page.waitForURL(/\/channels\/[0-9a-f-]{36}\/settings$/, { timeout: 20_000 });
        const id = /channels\/([0-9a-f-]{36})\/settings/.exec(page.url())![1]!;
        for (const [name, value] of Object.entries(settings)) await page.getByLabel(m[`channels.setting.${name}`]!, { exact: true }).fill(value);
        if (Object.keys(settings).length) {
          await page.getByRole("button", { name: m["channels.settings.save"] }).click();
          await page.getByText(m["channels.settings.saved"]!).waitFor();
        }
        for (const [name, value] of Object.entries(secrets)) await page.getByLabel(m[`channels.secret.${name}`]!, { exact: true }).fill(value);
        await page.getByRole("button", { name: m["channels.credentials.save"] }).click();
        await page.getByText(m["channels.credentials.saved"]!).waitFor();
        await page.getByRole("button", { name: m["channels.actions.connect"], exact: true }).click();
        await page.getByText(m["channels.actions.done.connect"]!).waitFor({ timeout: 20_000 });
        const url = (await page.getByTestId("channel-webhook-url").textContent())!.trim();
        assert.equal(url, `${app.apiUrl}/functions/v1/channels/${id}/${t}`, "the URL to paste into the platform");
        return { id, url };
      }
      await explainFailure(page, ART, `channels-more-${code}`, async () => {
        // Slack
        const slack = await addAndConnect("slack", { "bot-token": fake.tokens.slack, "signing-secret": SIGNING_SECRET });
        const ts = `${Math.floor(Date.now() / 1000)}.00${chatId}`;
        const inThread = (c: PlatformCall) => c.platform === "slack" && c.method === "chat.postMessage" && c.body.thread_ts === ts;
        const slackQuestion = "Are my notes encrypted?";
        const sl = await live.follow(slackQuestion, "slack");
        const s = await deliverSlack(slack.url, SIGNING_SECRET, slackMention(slackQuestion, { ts }));
        assert.equal(s.status, 200);
        await s.body?.cancel();
        const [post] = await fake.waitFor(inThread);
        assert.match(post!.body.text, /encrypted/);
        await sl.appeared();
        // A reply in the same thread (its own ts, the thread's thread_ts) continues the chat.
        const slackNext = "Can I use the app offline?";
        const slackNextBefore = await sl.count(slackNext);
        const s2 = await deliverSlack(slack.url, SIGNING_SECRET, slackMention(slackNext, { ts: `${Math.floor(Date.now() / 1000) + 1}.01${chatId}`, threadTs: ts }));
        assert.equal(s2.status, 200);
        await s2.body?.cancel();
        const posts = await fake.waitFor(inThread, 2);
        assert.equal(posts.length, 2);
        assert.match(posts[1]!.body.text, /offline/);
        await sl.continued(slackNext, slackNextBefore);

        // Discord
        const discord = await addAndConnect("discord", { "bot-token": fake.tokens.discord });
        const discordQuestion = "Can I download all my data?";
        const dc = await live.follow(discordQuestion, "discord");
        const ask = discordAsk(fake.discord.applicationId, discordQuestion);
        const d = await deliverDiscord(discord.url, fake.discord.privateKey, ask);
        assert.deepEqual(await d.json(), { type: 5 });
        const [edit] = await fake.waitFor((c) => c.platform === "discord" && c.path.includes(encodeURIComponent(ask.token)));
        assert.match(edit!.body.content, /Export|download/i);
        await dc.appeared();
        // The same member asks again in the same Discord channel: the same chat.
        const discordNext = "Can I nest notebooks?";
        const discordNextBefore = await dc.count(discordNext);
        const ask2 = discordAsk(fake.discord.applicationId, discordNext, { channel: ask.channel_id, user: ask.member.user.id });
        const d2 = await deliverDiscord(discord.url, fake.discord.privateKey, ask2);
        assert.deepEqual(await d2.json(), { type: 5 });
        const [edit2] = await fake.waitFor((c) => c.platform === "discord" && c.path.includes(encodeURIComponent(ask2.token)));
        assert.match(edit2!.body.content, /nested/);
        await dc.continued(discordNext, discordNextBefore);

        // WhatsApp: the verify token is shown once, Meta's GET check passes with it.
        const phone = `10987${chatId}`;
        const wa = await addAndConnect("whatsapp", { "access-token": fake.tokens.whatsapp, "app-secret": APP_SECRET }, { "phone-number-id": phone });
        const verify = (await page.getByTestId("show-once-verify_token").textContent())!.trim();
        const check = await fetch(`${wa.url}?hub.mode=subscribe&hub.verify_token=${encodeURIComponent(verify)}&hub.challenge=42`);
        assert.equal(await check.text(), "42");
        // A reply Meta refuses (outside the 24-hour window) shows on the open screen, live.
        fake.whatsappClosedWindow.add(`1666${chatId}`);
        const refused = await deliverWhatsApp(wa.url, APP_SECRET, whatsappText(phone, `1666${chatId}`, "Hello?"));
        assert.equal(refused.status, 200);
        await refused.body?.cancel();
        await page.locator('header [data-status="needs_attention"]').waitFor({ timeout: 20_000 });
        await page.getByRole("alert").filter({ hasText: "24 hours" }).waitFor();
        // The next answered message clears it.
        const whatsappQuestion = "Are my notes encrypted?";
        const toSender = (c: PlatformCall) => c.platform === "whatsapp" && c.method === "messages" && c.body.to === `1555${chatId}`;
        const wz = await live.follow(whatsappQuestion, "whatsapp");
        const w = await deliverWhatsApp(wa.url, APP_SECRET, whatsappText(phone, `1555${chatId}`, whatsappQuestion));
        assert.equal(w.status, 200);
        await w.body?.cancel();
        const [sent] = await fake.waitFor(toSender);
        assert.match(sent!.body.text.body, /encrypted/);
        await wz.appeared();
        // The same number writes again: the same chat.
        const whatsappNext = "How do I turn on two-factor authentication?";
        const whatsappNextBefore = await wz.count(whatsappNext);
        const w2 = await deliverWhatsApp(wa.url, APP_SECRET, whatsappText(phone, `1555${chatId}`, whatsappNext));
        assert.equal(w2.status, 200);
        await w2.body?.cancel();
        const sentAll = await fake.waitFor(toSender, 2);
        assert.equal(sentAll.length, 2);
        assert.match(sentAll[1]!.body.text.body, /two-factor/i);
        await wz.continued(whatsappNext, whatsappNextBefore);

        // All three are connected in the list.
        await page.goto(`${app.appUrl}${prefix}/app/bots/${BOT}/channels`);
        for (const t of ["slack", "discord", "whatsapp"]) {
          await page.locator(`[data-channel-type="${t}"] li`, { hasText: `${type(t)} ${code}` }).locator('[data-status="connected"]').waitFor({ timeout: 20_000 });
        }
        await page.screenshot({ path: path.join(ART, `channels-all-${code}.png`), fullPage: true });
      });
      assert.deepEqual(errors, []);
      await context.close();
    });
  });
}
