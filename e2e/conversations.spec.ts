// Conversations in Chromium, in two languages, against the real stack with seed data: the
// seeded owner opens the overview of "Acme Help Center" (charts with the seeded chats, an
// accessible data table, keyboard tooltips), then the bot's conversations; an anonymous
// visitor chats with the bot through the chat function and the owner's open list and
// conversation view show it live, without a reload. A signed-in visitor sees their chats.
// Run: node --import tsx --test e2e/conversations.spec.ts (builds frontend/dist when missing).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchBrowser, watchErrors } from "./lib/browser.ts";
import { startFullApp, type FullApp } from "./lib/stack.ts";

type Msgs = Record<string, string>;
const ART = path.join(import.meta.dirname, "artifacts");
const MSG_DIR = path.join(import.meta.dirname, "..", "frontend", "src", "i18n", "messages");
const readMessages = (code: string): Msgs => JSON.parse(fs.readFileSync(path.join(MSG_DIR, "conversations", `${code}.json`), "utf8")) as Msgs;

const BOT = "c0000000-0000-4000-8000-000000000001";
const SEEDED_CHAT = "f9000000-0000-4000-8000-000000000001";

let app: FullApp;
let browser: Browser;

before(async () => {
  app = await startFullApp();
  browser = await launchBrowser();
  fs.mkdirSync(ART, { recursive: true });
});

after(async () => {
  await browser?.close();
  await app?.stop();
});

/** A browser context signed in through the real auth service (the app's session cookie). */
async function signedInContext(email: string, colorScheme: "light" | "dark"): Promise<BrowserContext> {
  const context = await browser.newContext({ colorScheme });
  await context.addCookies(await app.sessionCookies(email, "parley-demo-123"));
  return context;
}

/** An anonymous visitor: a session from the auth API, as the public chat page gets one. */
async function anonymousToken(): Promise<string> {
  const res = await fetch(`${app.apiUrl}/auth/v1/signup`, { method: "POST", headers: { apikey: app.anonKey, "content-type": "application/json" }, body: "{}" });
  const body = (await res.json()) as { access_token?: string };
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.ok(body.access_token);
  return body.access_token;
}

async function visitorSays(token: string, message: string, chatId?: string): Promise<{ chat_id: string; content: string }> {
  const res = await fetch(`${app.apiUrl}/functions/v1/chat`, {
    method: "POST",
    headers: { apikey: app.anonKey, authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ bot_id: BOT, message, channel: "api", ...(chatId ? { chat_id: chatId } : {}) }),
  });
  const body = (await res.json()) as { chat_id: string; content: string };
  assert.equal(res.status, 200, JSON.stringify(body));
  return body;
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: path.join(ART, `conversations-${name}.png`), fullPage: true });
}

function assertNoErrors(errors: string[]) {
  assert.deepEqual(errors.filter((e) => !/Failed to load resource/.test(e)), []);
}

/** The numbers of a chart's hidden data table, by column (the table is what screen readers read). */
async function chartColumnSum(page: Page, title: string, column: number): Promise<number> {
  const table = page.locator("table", { has: page.locator("caption", { hasText: title }) });
  const cells = await table.locator(`tbody tr td:nth-of-type(${column})`).allTextContents();
  return cells.reduce((s, c) => s + Number(c), 0);
}

for (const [code, prefix, scheme] of [["en", "", "light"], ["de", "/de", "dark"]] as const) {
  describe(`conversations (${code})`, () => {
    const m = readMessages(code);

    it("the owner sees the bot overview with charts of the seeded chats", async () => {
      const context = await signedInContext("owner@parley.test", scheme);
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(`${app.appUrl}${prefix}/app/bots/${BOT}`);
      await page.getByRole("heading", { level: 1, name: "Acme Help Center" }).waitFor();
      await page.getByText(m["conversations.chart.conversations"]!, { exact: true }).first().waitFor();
      await page.getByRole("button", { name: m["conversations.overview.days"]!.replace("{days}", "7") }).click();
      await page.locator("table caption", { hasText: m["conversations.chart.feedback"]! }).waitFor({ state: "attached" });
      // Seeded: two chats (2 days and 1 hour ago), four messages, one thumbs up; 7 rows for 7 days.
      await page.waitForFunction(() => document.querySelectorAll("table tbody tr").length === 21);
      assert.ok((await chartColumnSum(page, m["conversations.chart.conversations"]!, 1)) >= 2);
      assert.ok((await chartColumnSum(page, m["conversations.chart.messages"]!, 1)) >= 4);
      assert.ok((await chartColumnSum(page, m["conversations.chart.feedback"]!, 1)) >= 1);
      // Keyboard: the last day of the messages chart is focusable and shows its tooltip.
      const points = page.locator("figure").nth(1).locator("g[tabindex='0']");
      await points.last().focus();
      const tooltip = page.getByRole("tooltip");
      await tooltip.waitFor();
      assert.match((await tooltip.textContent()) ?? "", new RegExp(m["conversations.chart.messages"]!));
      await page.getByRole("link", { name: "Where are my notes stored?" }).first().waitFor();
      await shot(page, `overview-${code}`);
      assertNoErrors(errors);
      await context.close();
    });

    it("the owner's open conversations show an anonymous visitor's chat live", async () => {
      const context = await signedInContext("owner@parley.test", scheme);
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(`${app.appUrl}${prefix}/app/conversations/bot/${BOT}/chat/${SEEDED_CHAT}`);
      await page.getByRole("heading", { level: 1, name: m["conversations.page.title"] }).waitFor();
      const list = page.getByRole("list", { name: m["conversations.list.label"] });
      await list.getByText("Can I get my data out?").waitFor();
      // The seeded conversation is open: its messages, the source and the visitor's thumbs up.
      const view = page.locator("article.conv-view");
      await view.getByText("Where are my notes stored?", { exact: true }).first().waitFor();
      await view.getByText(m["conversations.feedback.up"]!).waitFor();
      await view.getByText("Clear answer, thanks!", { exact: false }).waitFor();

      // A visitor starts a chat: it appears in the open list without a reload.
      const token = await anonymousToken();
      const question = `Where are my servers ${code} ${Date.now()}?`;
      const first = await visitorSays(token, question);
      const item = list.getByRole("link", { name: new RegExp(question.replace(/[?]/g, "\\?")) });
      await item.waitFor({ timeout: 15_000 });
      await item.click();
      await page.waitForURL(new RegExp(`/chat/${first.chat_id}`));
      const thread = page.getByRole("list", { name: m["conversations.view.messages"] });
      await thread.getByText(question, { exact: true }).waitFor();

      // The visitor asks again in the same chat: the open conversation grows live.
      const followUp = `And how do I export my notes (${code})?`;
      await visitorSays(token, followUp, first.chat_id);
      await thread.getByText(followUp, { exact: true }).waitFor({ timeout: 15_000 });
      await page.waitForFunction(() => document.querySelectorAll("article.conv-view .conv-msg").length === 4);

      // Filters live in the URL: feedback "up" keeps only the seeded rated chat.
      await page.getByLabel(m["conversations.filters.feedback"]!).selectOption("up");
      await page.waitForURL(/feedback=up/);
      await list.getByText("Where are my notes stored?").waitFor();
      await page.waitForFunction(() => document.querySelectorAll(".conv-list__item").length === 1);
      await shot(page, `live-${code}`);
      assertNoErrors(errors);
      await context.close();
    });

    it("a signed-in visitor sees their chats and opens one", async () => {
      const context = await signedInContext("visitor@parley.test", scheme);
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(`${app.appUrl}${prefix}/app/my-chats`);
      await page.getByRole("heading", { level: 1, name: m["conversations.myChats.title"] }).waitFor();
      const list = page.getByRole("list", { name: m["conversations.myChats.title"] });
      await list.getByText("Can I get my data out?").waitFor();
      assert.ok((await list.getByText("Acme Help Center").count()) >= 2);
      // Newest first.
      const titles = await list.locator(".conv-list__title").allTextContents();
      assert.ok(titles.indexOf("Can I get my data out?") < titles.indexOf("Where are my notes stored?"), titles.join(" | "));
      await page.getByLabel(m["conversations.myChats.search"]!).fill("notes stored");
      await page.waitForFunction(() => document.querySelectorAll(".conv-list__item").length === 1);
      await shot(page, `my-chats-${code}`);
      await list.getByRole("link").first().click();
      await page.waitForURL(new RegExp(`${prefix}/bots/${BOT}/chats/${SEEDED_CHAT}$`));
      assertNoErrors(errors);
      await context.close();
    });
  });
}
