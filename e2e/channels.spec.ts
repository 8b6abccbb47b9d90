// Channels on a real stack, in two languages: the owner adds a Telegram channel, pastes the
// bot token (the screen then shows only that it is set), connects it (Parley sets the
// webhook at the fake Telegram), a message from the fake platform is answered there and
// the conversation appears in the owner's conversations; then an API key is created on
// the HTTP API channel and answers through the SDK.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser } from "playwright-core";
import { launchBrowser, watchErrors } from "./lib/browser.ts";
import { explain as explainFailure, signedInContext } from "./lib/fakes/owner-session.ts";
import { startFullApp, type FullApp } from "./lib/stack.ts";
import { deliverTelegram, startFakePlatforms, telegramMessage, type FakePlatforms } from "../supabase/functions/_shared/channels/fake-platforms.ts";
import { Parley } from "../sdk/src/index.ts";

const BOT = "c0000000-0000-4000-8000-000000000001"; // "Acme Help Center", extractive default
const ART = path.join(import.meta.dirname, "artifacts");

type Msgs = Record<string, string>;
const readMessages = (code: string): Msgs =>
  JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "..", "frontend", "src", "i18n", "messages", "channels", `${code}.json`), "utf8")) as Msgs;

let app: FullApp;
let browser: Browser;
let fake: FakePlatforms;

before(async () => {
  fake = await startFakePlatforms();
  app = await startFullApp({ env: fake.env });
  browser = await launchBrowser();
  fs.mkdirSync(ART, { recursive: true });
});

after(async () => {
  await browser?.close();
  await app?.stop();
  await fake?.close();
});

for (const [prefix, code, chatId] of [["", "en", 71001], ["/de", "de", 71002]] as const) {
  describe(`channels (${code})`, () => {
    const m = readMessages(code);
    it("connects Telegram through its fake, holds a conversation there, and answers over the HTTP API", async () => {
      const context = await signedInContext(browser, app, code === "de" ? "dark" : "light");
      const page = await context.newPage();
      const errors = watchErrors(page);
      await explainFailure(page, ART, `channels-${code}`, async () => {
        await page.goto(`${app.appUrl}${prefix}/app/bots/${BOT}/channels`);
        await page.getByRole("heading", { name: m["channels.list.title"], level: 1 }).waitFor({ timeout: 20_000 });
        // The seeded channels with their states.
        await page.getByText("Acme workspace").waitFor();
        await page.locator('[data-channel-type="slack"] [data-status="needs_attention"]').waitFor();
        await page.locator('[data-channel-type="telegram"] [data-status="off"]').waitFor();
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
        const res = await deliverTelegram(fake.telegramWebhook!.url, fake.telegramWebhook!.secret_token, telegramMessage("Where are my notes stored?", { chatId }));
        assert.equal(res.status, 200);
        await res.body?.cancel();
        const [reply] = await fake.waitFor((c) => c.platform === "telegram" && c.method === "sendMessage" && c.body.chat_id === String(chatId));
        assert.match(reply!.body.text, /Frankfurt/);

        // The conversation is in the owner's conversations.
        await page.goto(`${app.appUrl}${prefix}/app/conversations`);
        await page.getByText("Where are my notes stored?").first().waitFor({ timeout: 20_000 });
        await page.screenshot({ path: path.join(ART, `channels-conversations-${code}.png`), fullPage: true });

        // The HTTP API: a key shown once, used by the SDK.
        await page.goto(`${app.appUrl}${prefix}/app/bots/${BOT}/channels`);
        await page.getByRole("link", { name: "HTTP API" }).click();
        await page.getByRole("heading", { name: m["channels.api.title"] }).waitFor({ timeout: 20_000 });
        await page.getByLabel(m["channels.api.keyName"]!, { exact: true }).fill(`e2e ${code}`);
        await page.getByRole("button", { name: m["channels.api.create"] }).click();
        const key = (await page.getByTestId("api-key-fresh").textContent({ timeout: 20_000 }))!.trim();
        assert.match(key, /^pk_[A-Za-z0-9_-]{43}$/);
        await page.locator("tr", { hasText: `e2e ${code}` }).waitFor();
        const answer = await new Parley({ apiKey: key, baseUrl: app.apiUrl }).chat.send({ message: "Can I get my data out?" });
        assert.match(answer.content, /Export|download/i);
        await page.screenshot({ path: path.join(ART, `channels-api-${code}.png`), fullPage: true });
      });
      assert.deepEqual(errors, []);
      await context.close();
    });
  });
}
