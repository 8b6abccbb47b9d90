// Channels on a real stack, in two languages: the owner adds a Telegram channel, pastes the
// bot token (the screen then shows only that it is set), connects it (Parley sets the
// webhook at the fake Telegram), a message from the fake platform is answered there; then an
// API key is created on the HTTP API channel and answers through the SDK, in Node and in a
// browser page of another site (streamed). Slack, Discord and WhatsApp are connected the same
// way. Every conversation appears live in the owner's conversations page, opened beforehand.
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
} from "../supabase/functions/_shared/channels/test-fixtures.ts";
import { Parley } from "../sdk/src/index.ts";

const BOT = "c0000000-0000-4000-8000-000000000001"; // "Acme Help Center", extractive default
const ART = path.join(import.meta.dirname, "artifacts");

type Msgs = Record<string, string>;
const readArea = (area: string, code: string): Msgs =>
  JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "..", "frontend", "src", "i18n", "messages", area, `${code}.json`), "utf8")) as Msgs;
const readMessages = (code: string): Msgs => ({ ...readArea("channels", code), ...readArea("conversations", code) });

/**
 * The owner's conversations page, opened before anything is sent: each conversation must
 * appear there live (no reload), as a row with its first question and its channel. The same
 * question may already be there (the other language's run asked it): `count` before sending,
 * then `shows` waits for one row more.
 */
async function openLiveConversations(context: BrowserContext, prefix: string, m: Msgs) {
  const page = await context.newPage();
  await page.goto(`${app.appUrl}${prefix}/app/conversations`);
  await page.getByRole("list", { name: m["conversations.list.label"] }).waitFor({ timeout: 20_000 });
  const url = page.url(); // where the page settled (…/conversations/all)
  const rows = (question: string, channel: string) =>
    page.getByRole("listitem").filter({ hasText: question }).filter({ hasText: m[`conversations.channel.${channel}`]! });
  return {
    page,
    count: (question: string, channel: string) => rows(question, channel).count(),
    async shows(question: string, channel: string, before: number) {
      await rows(question, channel).nth(before).waitFor({ timeout: 20_000 });
      assert.equal(page.url(), url, "the page was not reloaded or left");
    },
  };
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
    it("connects Telegram through its fake, holds a conversation there, and answers over the HTTP API", async () => {
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
        const tgBefore = await live.count(tgQuestion, "telegram");
        const res = await deliverTelegram(fake.telegramWebhook!.url, fake.telegramWebhook!.secret_token, telegramMessage(tgQuestion, { chatId }));
        assert.equal(res.status, 200);
        await res.body?.cancel();
        const [reply] = await fake.waitFor((c) => c.platform === "telegram" && c.method === "sendMessage" && c.body.chat_id === String(chatId));
        assert.match(reply!.body.text, /encrypted/);

        // The conversation appears in the owner's open conversations page.
        await live.shows(tgQuestion, "telegram", tgBefore);
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
        const apiBefore = await live.count(apiQuestion, "api");
        const answer = await new Parley({ apiKey: key, baseUrl: app.apiUrl }).chat.send({ message: apiQuestion });
        assert.match(answer.content, /Export|download/i);
        await page.screenshot({ path: path.join(ART, `channels-api-${code}.png`), fullPage: true });
        await live.shows(apiQuestion, "api", apiBefore);

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

    it("connects Slack, Discord and WhatsApp through the screens and each answers at its fake", async () => {
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
        const slackQuestion = "Are my notes encrypted?";
        const slackBefore = await live.count(slackQuestion, "slack");
        const s = await deliverSlack(slack.url, SIGNING_SECRET, slackMention(slackQuestion, { ts }));
        assert.equal(s.status, 200);
        await s.body?.cancel();
        const [post] = await fake.waitFor((c) => c.platform === "slack" && c.method === "chat.postMessage" && c.body.thread_ts === ts);
        assert.match(post!.body.text, /encrypted/);
        await live.shows(slackQuestion, "slack", slackBefore);

        // Discord
        const discord = await addAndConnect("discord", { "bot-token": fake.tokens.discord });
        const discordQuestion = "Can I download all my data?";
        const discordBefore = await live.count(discordQuestion, "discord");
        const ask = discordAsk(fake.discord.applicationId, discordQuestion);
        const d = await deliverDiscord(discord.url, fake.discord.privateKey, ask);
        assert.deepEqual(await d.json(), { type: 5 });
        const [edit] = await fake.waitFor((c) => c.platform === "discord" && c.path.includes(encodeURIComponent(ask.token)));
        assert.match(edit!.body.content, /Export|download/i);
        await live.shows(discordQuestion, "discord", discordBefore);

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
        const whatsappBefore = await live.count(whatsappQuestion, "whatsapp");
        const w = await deliverWhatsApp(wa.url, APP_SECRET, whatsappText(phone, `1555${chatId}`, whatsappQuestion));
        assert.equal(w.status, 200);
        await w.body?.cancel();
        const [sent] = await fake.waitFor((c) => c.platform === "whatsapp" && c.method === "messages" && c.body.to === `1555${chatId}`);
        assert.match(sent!.body.text.body, /encrypted/);
        await live.shows(whatsappQuestion, "whatsapp", whatsappBefore);

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
