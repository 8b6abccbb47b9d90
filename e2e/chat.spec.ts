// The visitor's chat in Chromium on a real stack, in two languages: ask the seeded public
// bot, watch the answer stream, see its sources, give feedback, share, download the
// transcript, add an image; the password flow; the widget on a plain HTML page; a signed-in
// visitor's private chat with one of their own bots.
// Run: node --import tsx --test e2e/chat.spec.ts
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import zlib from "node:zlib";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, watchErrors } from "./lib/browser.ts";
import { repoRoot } from "./lib/app.ts";
import { startFullApp, type FullApp } from "./lib/stack.ts";

const HELP_BOT = "c0000000-0000-4000-8000-000000000001";
const INTERNAL_BOT = "c0000000-0000-4000-8000-000000000002";
const ARTIFACTS = path.join(repoRoot, "e2e", "artifacts");

type Msgs = Record<string, string>;
/** The widget bubble's label in the loader's data-lang (sdk/src/widget.ts). */
const OPEN_CHAT = { en: "Open chat", de: "Chat öffnen" } as const;

function messages(locale: string): Msgs {
  const dir = path.join(repoRoot, "frontend", "src", "i18n", "messages");
  const read = (...parts: string[]) => JSON.parse(fs.readFileSync(path.join(dir, ...parts), "utf8")) as Msgs;
  return { ...read(`${locale}.json`), ...read("chat", `${locale}.json`), ...read("chatVisitor", `${locale}.json`) };
}

// A 1×1 PNG.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

let app: FullApp;
let browser: Browser;
let site: http.Server;
let siteUrl: string;

before(async () => {
  // The extractive answer's words 60 ms apart: each token event reaches the page on its own,
  // so the check that the answer grows while streaming does not depend on network timing.
  app = await startFullApp({ env: { PARLEY_EXTRACTIVE_PACE_MS: "60" } });
  browser = await launchBrowser();
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  // A customer's plain web page with the widget's script tag, on another origin.
  site = http.createServer((req, res) => {
    const lang = new URL(req.url ?? "/", "http://x").searchParams.get("lang") ?? "en";
    res.setHeader("content-type", "text/html; charset=utf-8");
    res.end(`<!doctype html><html><head><title>Shop</title></head><body><h1>Our shop</h1>
<script src="${app.appUrl}/widget.js" data-bot-id="${HELP_BOT}" data-position="left" data-color="#0f766e" data-lang="${lang}" data-open="maybe" async></script></body></html>`);
  });
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});

after(async () => {
  site?.close();
  await browser?.close();
  await app?.stop();
});

/** The cookie banner covers the composer: answer it as a visitor would. */
async function dismissConsent(scope: Page | ReturnType<Page["frameLocator"]>, m: Msgs) {
  const button = scope.getByRole("button", { name: m["consent.necessaryOnly"], exact: true });
  await button.waitFor({ timeout: 10_000 });
  await button.click();
}

async function openOptions(page: Page, m: Msgs) {
  await page.getByRole("button", { name: m["chat.options.open"] }).click();
}

for (const [locale, prefix] of [
  ["en", ""],
  ["de", "/de"],
] as const) {
  describe(`chat (${locale})`, () => {
    const m = messages(locale);

    it("asks, streams, cites, takes feedback, shares, downloads, adds an image", async () => {
      const context = await browser.newContext({ acceptDownloads: true, colorScheme: locale === "de" ? "dark" : "light" });
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.appUrl });
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(`${app.appUrl}${prefix}/bots/${HELP_BOT}`);
      await page.getByRole("heading", { name: "Acme Help Center" }).waitFor({ timeout: 20_000 });
      await page.getByText(m["chat.suggestions.title"]!).waitFor();
      await page.getByRole("button", { name: "How do I share a notebook?" }).waitFor();
      await page.getByText(m["chat.poweredBy"]!.replace("{brand}", "Parley")).waitFor();
      await dismissConsent(page, m);

      // Images: a text file is refused before upload, a PNG is uploaded and shown, and can be removed.
      await page.getByRole("button", { name: m["chat.images.add"] }).click();
      await page.getByRole("button", { name: m["chat.images.browse"] }).waitFor();
      const input = page.getByTestId("chat-file-input");
      await input.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
      await page.getByRole("alert").filter({ hasText: "notes.txt" }).waitFor();
      await input.setInputFiles([
        { name: "one.png", mimeType: "image/png", buffer: PNG },
        { name: "two.png", mimeType: "image/png", buffer: PNG },
      ]);
      await page.getByRole("img", { name: "two.png" }).waitFor();
      await page.getByRole("button", { name: m["chat.images.remove"]!.replace("{name}", "two.png") }).click();
      assert.equal(await page.getByRole("img", { name: "two.png" }).count(), 0);
      await page.getByText(m["chat.images.uploading"]!).waitFor({ state: "detached", timeout: 15_000 });

      // Record every length the answer's text has while it streams.
      await page.evaluate(() => {
        const w = window as unknown as { __lengths: number[] };
        w.__lengths = [];
        new MutationObserver(() => {
          const all = document.querySelectorAll("[data-testid=chat-answer]");
          const el = all[all.length - 1]?.querySelector(".markdown");
          if (el) w.__lengths.push((el.textContent ?? "").length);
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      const box = page.getByRole("textbox", { name: m["chat.composer.label"] });
      await box.fill("How do I share");
      await box.press("Shift+Enter");
      await box.pressSequentially("a notebook?");
      assert.equal(await box.inputValue(), "How do I share\na notebook?");
      await box.press("Enter");
      await page.getByRole("heading", { name: m["chat.sources.title"] }).waitFor({ timeout: 30_000 });
      await page.waitForURL(new RegExp(`${prefix}/bots/${HELP_BOT}/chats/[0-9a-f-]{36}$`), { timeout: 10_000 });
      const answer = (await page.getByTestId("chat-answer").first().textContent()) ?? "";
      assert.match(answer, /shar/i);
      const lengths = await page.evaluate(() => (window as unknown as { __lengths: number[] }).__lengths.filter((n) => n > 0));
      assert.ok(new Set(lengths).size >= 3, `the answer grew while streaming: ${JSON.stringify(lengths.slice(0, 30))}`);
      assert.ok(lengths.every((n, i) => i === 0 || n >= lengths[i - 1]!), "text only grows");
      // The image the visitor sent shows as a thumbnail (a signed link to the private bucket).
      const thumbAlt = m["chat.images.thumbAlt"]!.replace("{n}", "1").replace("{count}", "1");
      const thumb = page.getByRole("img", { name: thumbAlt });
      await thumb.waitFor({ timeout: 15_000 });
      await page.waitForFunction((alt) => {
        const img = [...document.querySelectorAll("img")].find((i) => i.alt === alt);
        return !!img && img.complete && img.naturalWidth > 0;
      }, thumbAlt, { timeout: 15_000 });
      if (locale === "en") {
        // The bot's team sees it too, in the conversation.
        const chatId = /\/chats\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
        const owner = await browser.newContext();
        await owner.addCookies(await app.sessionCookies("owner@parley.test", "parley-demo-123"));
        const ownerPage = await owner.newPage();
        await ownerPage.goto(`${app.appUrl}/app/conversations/bot/${HELP_BOT}/chat/${chatId}`);
        await ownerPage.getByRole("img", { name: thumbAlt }).waitFor({ timeout: 20_000 });
        await ownerPage.waitForFunction((alt) => {
          const img = [...document.querySelectorAll("img")].find((i) => i.alt === alt);
          return !!img && img.complete && img.naturalWidth > 0;
        }, thumbAlt, { timeout: 15_000 });
        await owner.close();
      }
      await page.screenshot({ path: path.join(ARTIFACTS, `chat-answer-${locale}.png`) });

      // Feedback.
      await page.getByRole("button", { name: m["chat.feedback.up"], exact: true }).click();
      await page.getByText(m["toast.feedbackThanks"]!).waitFor();
      await page.getByRole("textbox", { name: m["chat.feedback.commentLabel"] }).fill("Clear and short");
      await page.getByRole("button", { name: m["chat.feedback.sendComment"] }).click();

      // Share the chat: its URL is on the clipboard.
      const chatUrl = page.url();
      await openOptions(page, m);
      await page.getByRole("menuitem", { name: m["chat.options.shareChat"] }).click();
      await page.getByText(m["toast.chatUrlCopied"]!).waitFor();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), chatUrl);
      await openOptions(page, m);
      await page.getByRole("menuitem", { name: m["chat.options.shareLink"] }).click();
      await page.getByText(m["toast.linkCopied"]!).waitFor();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), `${app.appUrl}${prefix}/bots/${HELP_BOT}`);

      // Download the transcript.
      await openOptions(page, m);
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: m["chat.options.downloadMd"] }).click()]);
      const file = await download.path();
      const text = fs.readFileSync(file, "utf8");
      assert.match(text, /a notebook\?/);
      assert.match(text, /Parley/);

      // Someone else opens the shared chat: read-only, with a way to start their own.
      const other = await browser.newContext();
      const otherPage = await other.newPage();
      await otherPage.goto(chatUrl);
      await dismissConsent(otherPage, m);
      await otherPage.getByText(m["chat.shared.readOnly"]!).waitFor({ timeout: 20_000 });
      assert.match((await otherPage.getByTestId("chat-answer").first().textContent()) ?? "", /shar/i);
      assert.equal(await otherPage.getByRole("textbox", { name: m["chat.composer.label"] }).count(), 0);

      // Live: the visitor's second tab and the shared chat's reader see the next turn come in
      // (realtime broadcast on the chat's private topic), without reloading.
      const tab2 = await context.newPage();
      const tab2Errors = watchErrors(tab2);
      await tab2.goto(chatUrl);
      await tab2.getByTestId("chat-answer").first().waitFor({ timeout: 20_000 });
      const question = locale === "de" ? "Wie lösche ich ein Notizbuch?" : "How do I delete a notebook?";
      await box.fill(question);
      await box.press("Enter");
      const secondAnswer = () =>
        ((document.querySelectorAll("[data-testid=chat-answer] .markdown")[1]?.textContent ?? "").trim().length > 10);
      for (const viewer of [otherPage, tab2]) {
        await viewer.getByText(question).waitFor({ timeout: 20_000 });
        await viewer.waitForFunction(secondAnswer, null, { timeout: 30_000 });
      }
      assert.equal(await otherPage.getByTestId("chat-answer").count(), 2);
      assert.equal(await tab2.getByTestId("chat-answer").count(), 2);
      assert.equal(await tab2.getByText(question).count(), 1, "the live turn is shown once");
      assert.deepEqual(tab2Errors, []);
      await tab2.close();

      await otherPage.getByRole("button", { name: m["chat.options.newChat"] }).click();
      await otherPage.getByRole("textbox", { name: m["chat.composer.label"] }).waitFor();
      await other.close();

      assert.deepEqual(errors, []);
      await context.close();
    });

    it("asks for the password of a protected bot", async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(`${app.appUrl}${prefix}/bots/${INTERNAL_BOT}`);
      await page.waitForURL(new RegExp(`${prefix}/bots/${INTERNAL_BOT}/login\\?redirect=`), { timeout: 20_000 });
      await dismissConsent(page, m);
      const pw = page.getByLabel(m["chat.login.password"]!);
      await pw.fill("open-says-me");
      await page.getByRole("button", { name: m["chat.login.submit"] }).click();
      await page.getByText(m["chat.login.incorrect"]!).waitFor();
      await page.screenshot({ path: path.join(ARTIFACTS, `chat-login-${locale}.png`) });
      await pw.fill("open-sesame");
      await page.getByRole("button", { name: m["chat.login.submit"] }).click();
      await page.waitForURL(new RegExp(`${prefix}/bots/${INTERNAL_BOT}$`));
      await page.getByRole("heading", { name: "Acme Internal" }).waitFor();
      await page.getByRole("textbox", { name: m["chat.composer.label"] }).fill("How do I request leave?");
      await page.getByRole("textbox", { name: m["chat.composer.label"] }).press("Enter");
      await page.waitForURL(new RegExp(`/bots/${INTERNAL_BOT}/chats/`), { timeout: 30_000 });
      // The console 401 of the wrong password is the function's answer, not a page error.
      assert.deepEqual(errors.filter((e) => !/401/.test(e)), []);
      await context.close();
    });

    it("opens the widget on a plain HTML page", async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const consoleErrors: string[] = [];
      page.on("console", (msg) => msg.type() === "error" && consoleErrors.push(msg.text()));
      page.on("pageerror", (err) => consoleErrors.push(err.message));
      await page.goto(`${siteUrl}/?lang=${locale}`);
      const bubble = page.getByRole("button", { name: OPEN_CHAT[locale] });
      await bubble.waitFor({ timeout: 15_000 }).catch((e) => {
        throw new Error(`${e}\n${consoleErrors.join("\n")}`);
      });
      // data-open="maybe" is reported and falls back to closed.
      assert.ok(consoleErrors.some((e) => /data-open/.test(e)), consoleErrors.join("\n"));
      assert.equal(await page.locator("iframe").isVisible(), false);
      await bubble.focus();
      await page.keyboard.press("Enter");
      const frame = page.frameLocator("iframe");
      await frame.getByRole("heading", { name: "Acme Help Center" }).waitFor({ timeout: 20_000 });
      // No cookie banner over the customer's page: the embed never shows one.
      assert.equal(await frame.getByRole("button", { name: m["consent.necessaryOnly"], exact: true }).count(), 0);
      // The seeded knowledge answers this one (it has no "Pro plan": that question gets an honest "I don't know").
      await frame.getByRole("button", { name: "How do I share a notebook?" }).click();
      await frame.getByRole("heading", { name: m["chat.sources.title"] }).waitFor({ timeout: 30_000 });
      assert.match((await page.locator("iframe").getAttribute("src")) ?? "", new RegExp(`${prefix}/bots/${HELP_BOT}/embed`));
      await page.screenshot({ path: path.join(ARTIFACTS, `chat-widget-${locale}.png`) });
      // Closing from the keyboard: Escape inside the chat closes the bubble.
      await frame.getByRole("textbox", { name: m["chat.composer.label"] }).focus();
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: OPEN_CHAT[locale] }).waitFor();
      assert.equal(await page.locator("iframe").isVisible(), false);
      await context.close();
    });
  });
}

describe("SDK and test pages", () => {
  for (const prefix of ["", "/de"]) {
    it(`show the embed code and load the widget (${prefix || "/"})`, async () => {
      const m = messages(prefix ? "de" : "en");
      const context = await browser.newContext();
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(`${app.appUrl}${prefix}/bots/${HELP_BOT}/sdk`);
      await page.getByRole("heading", { name: m["chat.sdk.title"] }).waitFor({ timeout: 20_000 });
      const snippet = (await page.locator(".sdk-snippet").textContent()) ?? "";
      assert.match(snippet, new RegExp(`<script src="${app.appUrl}/widget.js" data-bot-id="${HELP_BOT}"`));
      await page.getByRole("button", { name: OPEN_CHAT[prefix ? "de" : "en"] }).waitFor();
      await page.goto(`${app.appUrl}${prefix}/test/widget`);
      await page.getByRole("heading", { name: m["chat.test.widgetTitle"] }).waitFor();
      await page.getByRole("button", { name: OPEN_CHAT[prefix ? "de" : "en"] }).click();
      await page.frameLocator("iframe").getByRole("heading", { name: "Acme Help Center" }).waitFor({ timeout: 20_000 });
      await page.goto(`${app.appUrl}${prefix}/test/features`);
      await page.getByRole("heading", { name: m["chat.test.featuresTitle"] }).waitFor();
      await page.getByRole("button", { name: "How do I share a notebook?" }).first().waitFor({ timeout: 20_000 });
      await page.goto(`${app.appUrl}/bots/${HELP_BOT}/embed-center?lang=${prefix ? "de" : "en"}`);
      await page.getByRole("textbox", { name: m["chat.composer.label"] }).waitFor({ timeout: 20_000 });
      if (prefix) await page.waitForURL(new RegExp(`/de/bots/${HELP_BOT}/embed-center$`));
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
});

describe("a signed-in visitor", () => {
  it("starts a private chat with one of their own bots from another team's bot", async () => {
    const m = messages("en");
    // Vera (no shared team) has a bot in her personal team, made through the API as herself.
    const token = (await (await fetch(`${app.apiUrl}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { apikey: app.anonKey, "content-type": "application/json" },
      body: JSON.stringify({ email: "visitor@parley.test", password: "parley-demo-123" }),
    })).json()) as { access_token: string; user: { id: string } };
    const asVera = { apikey: app.anonKey, authorization: `Bearer ${token.access_token}`, "content-type": "application/json" };
    const [membership] = (await (await fetch(`${app.apiUrl}/rest/v1/team_members?user_id=eq.${token.user.id}&select=team_id`, { headers: asVera })).json()) as Array<{ team_id: string }>;
    const created = await fetch(`${app.apiUrl}/rest/v1/bots?select=id`, {
      method: "POST",
      headers: { ...asVera, prefer: "return=representation" },
      body: JSON.stringify({ team_id: membership!.team_id, name: "Vera's Notes Bot" }),
    });
    assert.equal(created.status, 201, await created.clone().text());
    const [{ id: veraBot }] = (await created.json()) as Array<{ id: string }>;

    const context = await browser.newContext();
    await context.addCookies(await app.sessionCookies("visitor@parley.test", "parley-demo-123"));
    const page = await context.newPage();
    await page.goto(`${app.appUrl}/bots/${HELP_BOT}`);
    await dismissConsent(page, m);
    await openOptions(page, m);
    await page.getByRole("menuitem", { name: m["chat.options.otherBot"] }).click();
    const dialog = page.getByRole("dialog", { name: m["chat.picker.title"] });
    const select = dialog.getByLabel(m["chat.picker.label"]);
    await select.locator("option", { hasText: "Vera's Notes Bot" }).waitFor({ state: "attached", timeout: 20_000 });
    const options = await select.locator("option").allTextContents();
    assert.equal(options[0], "Acme Help Center", "this bot first");
    assert.ok(options.includes("Vera's Notes Bot"), `her own bot is offered: ${options.join(", ")}`);
    await select.selectOption(veraBot);
    await dialog.getByRole("button", { name: m["chat.picker.start"] }).click();
    await page.waitForURL(new RegExp(`/bots/${veraBot}$`), { timeout: 20_000 });
    await page.getByRole("heading", { name: "Vera's Notes Bot" }).waitFor({ timeout: 20_000 });
    await context.close();
  });
});

describe("the widget loader", () => {
  it("is served by the app and at most 5 KB gzipped", async () => {
    const js = await (await fetch(`${app.appUrl}/widget.js`)).text();
    assert.match(js, /data-parley-widget/);
    assert.ok(zlib.gzipSync(js).length <= 5 * 1024, `${zlib.gzipSync(js).length} bytes gzipped`);
  });
});
