// Power-ups as the visitor sees them, in Chromium on a real stack with the extractive default
// (no model): the seeded public bot's example phrases offer a link button and a lead form
// (English), and hand the chat to a person of the team, who finds it among the waiting ones,
// replies (the visitor sees it live) and hands it back (German).
// Run: node --import tsx --test e2e/power-ups.spec.ts
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchBrowser, watchErrors } from "./lib/browser.ts";
import { repoRoot } from "./lib/app.ts";
import { startFullApp, type FullApp } from "./lib/stack.ts";

const HELP_BOT = "c0000000-0000-4000-8000-000000000001";
const ARTIFACTS = path.join(repoRoot, "e2e", "artifacts");
const HANDOFF_TEXT = "Someone from Acme Support will answer here within one business day.";

type Msgs = Record<string, string>;
function messages(locale: string): Msgs {
  const dir = path.join(repoRoot, "frontend", "src", "i18n", "messages");
  return { ...JSON.parse(fs.readFileSync(path.join(dir, `${locale}.json`), "utf8")), ...JSON.parse(fs.readFileSync(path.join(dir, "chat", `${locale}.json`), "utf8")) };
}

function conversationMessages(locale: string): Msgs {
  return JSON.parse(fs.readFileSync(path.join(repoRoot, "frontend", "src", "i18n", "messages", "conversations", `${locale}.json`), "utf8"));
}

let app: FullApp;
let browser: Browser;

before(async () => {
  app = await startFullApp();
  browser = await launchBrowser();
  fs.mkdirSync(ARTIFACTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  await app?.stop();
});

/** A new visitor on the bot's chat page, the cookie banner answered; `errors` collects the page's. */
async function openChat(prefix: string, m: Msgs): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(`${app.appUrl}${prefix}/bots/${HELP_BOT}`);
  await page.getByRole("heading", { name: "Acme Help Center" }).waitFor({ timeout: 20_000 });
  const consent = page.getByRole("button", { name: m["consent.necessaryOnly"], exact: true });
  await consent.waitFor({ timeout: 10_000 });
  await consent.click();
  return { context, page, errors };
}

async function ask(page: Page, m: Msgs, text: string, answers: number) {
  const box = page.getByRole("textbox", { name: m["chat.composer.label"] });
  await box.fill(text);
  await box.press("Enter");
  await page.getByText(text, { exact: true }).waitFor({ timeout: 20_000 });
  // The answer is done when it is no longer busy.
  await page.waitForFunction((n) => document.querySelectorAll("[data-testid=chat-answer]").length >= n && !document.querySelector("[aria-busy=true]"), answers, { timeout: 30_000 });
}

describe("power-ups in the visitor's chat", () => {
  it("offers a link button and a lead form, and shows both again after a reload (en)", async () => {
    const m = messages("en");
    const { context, page, errors } = await openChat("", m);

    await ask(page, m, "Can I book a demo?", 1);
    const link = page.getByRole("link", { name: "Book a 30-minute demo" });
    await link.waitFor();
    assert.equal(await link.getAttribute("href"), "https://cal.example.com/acme/demo");
    assert.equal(await link.getAttribute("target"), "_blank");
    assert.match((await link.getAttribute("rel")) ?? "", /noopener/);
    assert.match((await link.getAttribute("rel")) ?? "", /noreferrer/);
    await page.waitForURL(new RegExp(`/bots/${HELP_BOT}/chats/[0-9a-f-]{36}$`), { timeout: 10_000 });

    await ask(page, m, "I want to talk to sales", 2);
    const form = page.getByRole("form", { name: "Contact sales" });
    await form.waitFor();
    await form.getByText("Leave your details and our sales team will get back to you within one business day.").waitFor();
    const email = form.getByRole("textbox", { name: new RegExp(m["chat.lead.field.email"]!) });
    await email.fill("not-an-address");
    await form.getByRole("button", { name: m["chat.lead.submit"] }).click();
    await form.getByText(m["chat.lead.error.email"]!).waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, "power-ups-visitor-en.png"), fullPage: true });
    assert.equal(await email.getAttribute("aria-invalid"), "true");
    await email.fill("vera@example.com");
    await form.getByRole("textbox", { name: new RegExp(m["chat.lead.field.name"]!) }).fill("Vera Visitor");
    await form.getByRole("button", { name: m["chat.lead.submit"] }).click();
    await page.getByText(m["chat.lead.sent"]!).waitFor({ timeout: 15_000 });

    // The lead is the team's: stored with only the form's fields.
    const leads = await fetch(`${app.apiUrl}/rest/v1/leads?select=fields&bot_id=eq.${HELP_BOT}&order=created_at.desc&limit=1`, {
      headers: { apikey: app.serviceRoleKey, authorization: `Bearer ${app.serviceRoleKey}` },
    });
    assert.deepEqual(await leads.json(), [{ fields: { name: "Vera Visitor", email: "vera@example.com" } }]);

    await page.reload();
    await page.getByRole("link", { name: "Book a 30-minute demo" }).waitFor({ timeout: 20_000 });
    await page.getByText(m["chat.lead.sent"]!).waitFor();
    assert.equal(await page.getByRole("form", { name: "Contact sales" }).count(), 0);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it("hands the chat to a person: the bot is quiet, the owner finds it, replies (live for the visitor) and hands back (de)", async () => {
    const m = messages("de");
    const { context, page, errors } = await openChat("/de", m);

    await ask(page, m, "I want to talk to a human", 1);
    const note = page.getByRole("note");
    await note.getByText(m["chat.handoff.title"]!).waitFor();
    await page.getByText(HANDOFF_TEXT, { exact: false }).first().waitFor();
    await page.getByText(m["chat.handoff.active"]!).waitFor();
    await page.waitForURL(new RegExp(`/de/bots/${HELP_BOT}/chats/[0-9a-f-]{36}$`), { timeout: 10_000 });
    const chatId = page.url().split("/").pop()!;

    // While a person has the chat, a message gets no answer from the bot.
    const box = page.getByRole("textbox", { name: m["chat.composer.label"] });
    await box.fill("Hallo, ist jemand da?");
    await box.press("Enter");
    await page.getByText("Hallo, ist jemand da?", { exact: true }).waitFor();
    await page.waitForFunction(() => !document.querySelector("[aria-busy=true]"), null, { timeout: 30_000 });
    assert.equal(await page.getByTestId("chat-answer").count(), 1);

    // The owner finds the chat among those waiting for a person, replies and later hands back.
    const mc = conversationMessages("de");
    const owner = await browser.newContext();
    await owner.addCookies(await app.sessionCookies("owner@parley.test", "parley-demo-123"));
    const ownerPage = await owner.newPage();
    const ownerErrors = watchErrors(ownerPage);
    await ownerPage.goto(`${app.appUrl}/de/app/conversations/all?human=1`);
    const list = ownerPage.getByRole("list", { name: mc["conversations.list.label"] });
    await list.getByRole("link", { name: /I want to talk to a human/ }).first().waitFor({ timeout: 20_000 });
    await ownerPage.goto(`${app.appUrl}/de/app/conversations/all/chat/${chatId}?human=1`);
    const thread = ownerPage.getByRole("list", { name: mc["conversations.view.messages"] });
    await thread.getByText("Hallo, ist jemand da?", { exact: true }).waitFor({ timeout: 20_000 });
    await ownerPage.getByText(mc["conversations.handoff.waiting"]!).waitFor();
    await ownerPage.getByRole("textbox", { name: mc["conversations.handoff.replyLabel"] }).fill("Hallo, hier ist Olivia. <b>Wie</b> kann ich helfen?");
    await ownerPage.getByRole("button", { name: mc["conversations.handoff.send"] }).click();
    await thread.getByText(mc["conversations.message.human"]!).waitFor({ timeout: 15_000 });

    // The visitor sees the reply live, as a person's, as text.
    const human = page.getByTestId("chat-human-reply");
    await human.waitFor({ timeout: 20_000 });
    await human.getByText(m["chat.human.from"]!).waitFor();
    assert.match((await human.textContent()) ?? "", /Hallo, hier ist Olivia\. <b>Wie<\/b> kann ich helfen\?/);
    assert.equal(await human.locator("b").count(), 0);
    await page.screenshot({ path: path.join(ARTIFACTS, "power-ups-handoff-visitor-de.png"), fullPage: true });
    await ownerPage.screenshot({ path: path.join(ARTIFACTS, "power-ups-handoff-owner-de.png"), fullPage: true });
    assert.equal(await page.getByTestId("chat-answer").count(), 1);

    // Handed back, the bot answers the next message again.
    await ownerPage.getByRole("button", { name: mc["conversations.handoff.handBack"] }).click();
    await ownerPage.getByText(mc["conversations.handoff.waiting"]!).waitFor({ state: "detached", timeout: 15_000 });
    // The visitor's page learns it live (the chat row's change), before writing again.
    await page.getByText(m["chat.handoff.active"]!).waitFor({ state: "detached", timeout: 15_000 });
    await ask(page, m, "How do I share a notebook?", 2);
    assert.deepEqual(ownerErrors, []);
    await owner.close();
    assert.deepEqual(errors, []);
    await context.close();
  });
});
