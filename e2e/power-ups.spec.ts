// Power-ups as the visitor sees them, in Chromium on a real stack with the extractive default
// (no model): the seeded public bot's example phrases offer a link button and a lead form
// (English), and hand the chat to a person of the team, who finds it among the waiting ones (the
// nav's badge counts it until someone answers), replies (the visitor sees it live) and hands it
// back (German). Then the owner creates every type of power-up from the templates (German
// defaults), pointing the order lookup at a fake shop API on 127.0.0.1, and a tool-calling fake
// model (OpenAI-compatible, the real streaming wire format) calls it: the visitor sees the
// action and the answer, the owner sees the call in the conversation view while the answer is
// still being written, and a reader of the shared chat sees the same action line (English).
// Run: node --import tsx --test e2e/power-ups.spec.ts
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { IntlMessageFormat } from "intl-messageformat";
import { launchBrowser, watchErrors } from "./lib/browser.ts";
import { repoRoot } from "./lib/app.ts";
import { serveFake, type Served } from "./lib/fakes/serve.ts";
import { startFullApp, type FullApp } from "./lib/stack.ts";
import { fakeProviderHandler } from "../supabase/functions/_shared/providers/fake-servers.ts";

const HELP_BOT = "c0000000-0000-4000-8000-000000000001";
const ARTIFACTS = path.join(repoRoot, "e2e", "artifacts");
const HANDOFF_TEXT = "Someone from Acme Support will answer here within one business day.";

type Msgs = Record<string, string>;
const MESSAGES = path.join(repoRoot, "frontend", "src", "i18n", "messages");
/** The messages of one area (or the shared ones: area ""). */
const area = (name: string, locale: string): Msgs => JSON.parse(fs.readFileSync(path.join(MESSAGES, name, `${locale}.json`), "utf8"));
const base = (locale: string) => area("", locale);
const powerUpMessages = (locale: string) => area("powerUps", locale);
const conversationMessages = (locale: string) => area("conversations", locale);

/** What the visitor's chat page says: shared messages and the chat's. */
function messages(locale: string): Msgs {
  return { ...base(locale), ...area("chat", locale) };
}


let app: FullApp;
let browser: Browser;

/** Where the fake shop API (the order lookup's target) records its calls. */
const shopHits: { path: string; auth: string | null }[] = [];
let shop: Served;

before(async () => {
  // Power-ups and the fake model live on 127.0.0.1: the dev setting lets the functions reach them.
  app = await startFullApp({ env: { PARLEY_FETCH_ALLOW_PRIVATE: "1" } });
  shop = await serveFake((req) => {
    const url = new URL(req.url);
    shopHits.push({ path: url.pathname, auth: req.headers.get("authorization") });
    const id = decodeURIComponent(url.pathname.split("/").pop() ?? "");
    return Response.json({ order: { id, status: "shipped", carrier: "DHL" } });
  });
  browser = await launchBrowser();
  fs.mkdirSync(ARTIFACTS, { recursive: true });
});

after(async () => {
  await shop?.close();
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
    // The nav counts the chats waiting for a person (this one: the seeded one has Olivia's answer),
    // the number read out with its meaning.
    const waiting = new IntlMessageFormat(mc["conversations.needsHuman.count"]!, "de").format({ count: 1 }) as string;
    const navLink = ownerPage.getByRole("link", { name: `${base("de")["appNav.conversations"]} ${waiting}`, exact: true });
    await navLink.waitFor({ timeout: 20_000 });
    assert.equal(await navLink.getByTestId("nav-waiting-for-human").locator("[aria-hidden=true]").textContent(), "1");
    await ownerPage.goto(`${app.appUrl}/de/app/conversations/all/chat/${chatId}?human=1`);
    const thread = ownerPage.getByRole("list", { name: mc["conversations.view.messages"] });
    await thread.getByText("Hallo, ist jemand da?", { exact: true }).waitFor({ timeout: 20_000 });
    await ownerPage.getByText(mc["conversations.handoff.waiting"]!).waitFor();
    await ownerPage.getByRole("textbox", { name: mc["conversations.handoff.replyLabel"] }).fill("Hallo, hier ist Olivia. <b>Wie</b> kann ich helfen?");
    await ownerPage.getByRole("button", { name: mc["conversations.handoff.send"] }).click();
    await thread.getByText(mc["conversations.message.human"]!).waitFor({ timeout: 15_000 });
    // Answered: the chat is still with a person but waits no more; the badge goes, live.
    await ownerPage.getByTestId("nav-waiting-for-human").waitFor({ state: "detached", timeout: 15_000 });

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

/** Waits for a condition outside the page (a fake's record, a row), checked every 50 ms, up to 20 s. */
async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A row through the REST API as the service role (test setup and checks). */
async function rest(pathAndQuery: string, init: { method?: string; body?: unknown; prefer?: string } = {}): Promise<any> {
  const res = await fetch(`${app.apiUrl}/rest/v1/${pathAndQuery}`, {
    method: init.method ?? "GET",
    headers: {
      apikey: app.serviceRoleKey,
      authorization: `Bearer ${app.serviceRoleKey}`,
      "content-type": "application/json",
      ...(init.prefer ? { prefer: init.prefer } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${pathAndQuery}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

describe("power-ups the owner creates, called by a tool-calling model", () => {
  const TOOL_BOT = "c0000000-0000-4000-8000-0000000000e2";
  const SHOP_KEY = "s3cret-shop-key-e2e";
  let model: Served;
  /** Replies of the fake model: first a call of lookup_order, then the answer. */
  let hold: { first: Promise<void>; releaseFirst: () => void; second: Promise<void>; releaseSecond: () => void };
  let modelRequests: { body: Record<string, any> }[];

  before(async () => {
    const [help] = await rest(`bots?select=team_id&id=eq.${HELP_BOT}`);
    await rest("bots", {
      method: "POST",
      prefer: "return=minimal",
      body: { id: TOOL_BOT, team_id: help.team_id, name: "Acme Orders", visibility: "public", language: "en", model_provider: "openai_compatible", model: "fake-model" },
    });
    let releaseFirst!: () => void;
    let releaseSecond!: () => void;
    const first = new Promise<void>((r) => (releaseFirst = r));
    const second = new Promise<void>((r) => (releaseSecond = r));
    hold = { first, releaseFirst, second, releaseSecond };
    const fake = fakeProviderHandler("openai", [
      { kind: "tools", calls: [{ name: "lookup_order", arguments: { order_id: "A-1001" } }] },
      { kind: "stream", tokens: ["Your order A-1001 ", "has shipped ", "with DHL."] },
    ], { beforeReply: (i) => (i === 0 ? hold.first : hold.second) });
    modelRequests = fake.received;
    model = await serveFake(fake.handle);
    await rest("team_provider_keys?on_conflict=team_id,provider", {
      method: "POST",
      prefer: "resolution=merge-duplicates,return=minimal",
      body: { team_id: help.team_id, provider: "openai_compatible", api_key: "sk-fake", base_url: `${model.url}/v1` },
    });
  });

  after(async () => {
    await model?.close();
  });

  it("the owner creates every type from its template, with the defaults in the interface language (de)", async () => {
    const pm = powerUpMessages("de");
    const owner = await browser.newContext();
    await owner.addCookies(await app.sessionCookies("owner@parley.test", "parley-demo-123"));
    const page = await owner.newPage();
    const errors = watchErrors(page);
    const created: Record<string, string> = {};

    /** Picks a template on /power-ups/new and lands on the new power-up's settings page. */
    async function fromTemplate(template: string, title: string): Promise<void> {
      await page.goto(`${app.appUrl}/de/app/bots/${TOOL_BOT}/power-ups/new`);
      await page.getByRole("heading", { name: pm["powerUps.new.title"] }).waitFor({ timeout: 20_000 });
      const card = page.getByRole("button", { name: new RegExp(`^${title}`) });
      await page.waitForFunction((t) => !document.querySelector<HTMLButtonElement>(`[data-template=${t}]`)?.disabled, template, { timeout: 15_000 });
      await card.click();
      await page.waitForURL(/\/de\/app\/bots\/[0-9a-f-]{36}\/power-ups\/[0-9a-f-]{36}\/settings$/, { timeout: 15_000 });
      created[template] = page.url().split("/").at(-2)!;
      await page.getByRole("textbox", { name: pm["powerUps.settings.label"] }).waitFor({ timeout: 15_000 });
    }
    async function save() {
      await page.getByRole("button", { name: pm["powerUps.settings.save"], exact: true }).click();
      await page.getByRole("status").getByText(pm["powerUps.settings.saved"]!).waitFor({ timeout: 15_000 });
    }
    const field = (name: string) => page.getByRole("textbox", { name, exact: true });

    // HTTP action (order lookup): German texts, the URL pointed at the shop, its secret set.
    await fromTemplate("order", pm["powerUps.template.order.title"]!);
    assert.equal(await field(pm["powerUps.settings.label"]!).inputValue(), pm["powerUps.template.order.label"]);
    assert.equal(await page.getByRole("textbox", { name: pm["powerUps.settings.phrases"], exact: true }).inputValue(), pm["powerUps.template.order.phrases"]);
    await field(pm["powerUps.settings.url"]!).fill(`${shop.url}/orders/{{order_id}}`);
    await save();
    const secret = page.locator("[data-secret=API_KEY]");
    await secret.getByText(pm["powerUps.secrets.notSet"]!).waitFor();
    await secret.getByLabel(pm["powerUps.secrets.value"]!.replace("{name}", "API_KEY")).fill(SHOP_KEY);
    await secret.getByRole("button", { name: pm["powerUps.secrets.save"] }).click();
    await secret.getByText(new RegExp(`: ${pm["powerUps.secrets.set"]}$`)).waitFor({ timeout: 15_000 });

    // Lead capture: the phone field added.
    await fromTemplate("lead", pm["powerUps.template.lead.title"]!);
    assert.equal(await field(pm["powerUps.settings.label"]!).inputValue(), pm["powerUps.template.lead.label"]);
    await page.getByRole("checkbox", { name: pm["powerUps.field.phone"] }).check();
    await save();

    // Link button: the German button text, the owner's booking URL.
    await fromTemplate("booking", pm["powerUps.template.booking.title"]!);
    assert.equal(await field(pm["powerUps.settings.linkLabel"]!).inputValue(), pm["powerUps.template.booking.linkLabel"]);
    await field(pm["powerUps.settings.linkUrl"]!).fill("https://cal.example.com/acme-orders");
    await save();

    // Human handoff: the German sentence.
    await fromTemplate("handoff", pm["powerUps.template.handoff.title"]!);
    assert.equal(await field(pm["powerUps.settings.handoffText"]!).inputValue(), pm["powerUps.template.handoff.sentence"]);
    await save();

    // A blank HTTP action.
    await fromTemplate("blank", pm["powerUps.template.blank.title"]!);
    await field(pm["powerUps.settings.url"]!).fill(`${shop.url}/ping`);
    await save();

    // The list shows all five with their types; the database holds what the owner saved.
    await page.goto(`${app.appUrl}/de/app/bots/${TOOL_BOT}/power-ups`);
    const table = page.getByRole("table", { name: pm["powerUps.list.title"] });
    await table.waitFor({ timeout: 20_000 });
    const rows: [string, string][] = [["lookup_order", "http"], ["contact_sales", "lead"], ["book_meeting", "link"], ["talk_to_human", "handoff"], ["my_action", "http"]];
    for (const [name, type] of rows) {
      await table.locator(`tr[data-power-up=${name}]`).getByText(pm[`powerUps.type.${type}`]!, { exact: true }).waitFor();
    }
    await page.screenshot({ path: path.join(ARTIFACTS, "power-ups-created-de.png"), fullPage: true });
    const stored = await rest(`power_ups?select=name,type,label,example_phrases,settings&bot_id=eq.${TOOL_BOT}&order=created_at`);
    assert.deepEqual(stored.map((p: { name: string; type: string }) => [p.name, p.type]), rows);
    const byName = Object.fromEntries(stored.map((p: { name: string }) => [p.name, p]));
    assert.equal(byName.lookup_order.settings.url, `${shop.url}/orders/{{order_id}}`);
    assert.deepEqual(byName.lookup_order.example_phrases, pm["powerUps.template.order.phrases"]!.split("\n"));
    assert.deepEqual(byName.contact_sales.settings.fields, ["name", "email", "company", "message", "phone"]);
    assert.equal(byName.book_meeting.settings.link_url, "https://cal.example.com/acme-orders");
    assert.equal(byName.book_meeting.settings.link_label, pm["powerUps.template.booking.linkLabel"]);
    assert.equal(byName.talk_to_human.settings.handoff_text, pm["powerUps.template.handoff.sentence"]);
    assert.equal(byName.my_action.settings.url, `${shop.url}/ping`);
    assert.deepEqual(await rest(`power_up_secrets?select=name,value&power_up_id=eq.${created.order}`), [{ name: "API_KEY", value: SHOP_KEY }]);
    assert.deepEqual(errors, []);
    await owner.close();
  });

  it("the model calls the order lookup: the visitor sees the action and the answer, the owner the call as it happens, a reader the same action (en)", async () => {
    const m = messages("en");
    const mc = conversationMessages("en");
    const actionLine = m["chat.tool.done"]!.replace("{label}", powerUpMessages("de")["powerUps.template.order.label"]!);
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${app.appUrl}/bots/${TOOL_BOT}`);
    await page.getByRole("heading", { name: "Acme Orders" }).waitFor({ timeout: 20_000 });
    await page.getByRole("button", { name: m["consent.necessaryOnly"], exact: true }).click();
    const box = page.getByRole("textbox", { name: m["chat.composer.label"] });
    await box.fill("Where is my order A-1001?");
    await box.press("Enter");
    // The chat and the visitor's turn are stored while the model still thinks.
    let chatId = "";
    await until(async () => {
      chatId = (await rest(`chats?select=id&bot_id=eq.${TOOL_BOT}`))[0]?.id ?? "";
      return chatId !== "";
    }, "the visitor's chat");

    // The owner opens the conversation before the model has asked for anything.
    const owner = await browser.newContext();
    await owner.addCookies(await app.sessionCookies("owner@parley.test", "parley-demo-123"));
    const ownerPage = await owner.newPage();
    const ownerErrors = watchErrors(ownerPage);
    await ownerPage.goto(`${app.appUrl}/app/conversations/all/chat/${chatId}`);
    const thread = ownerPage.getByRole("list", { name: mc["conversations.view.messages"] });
    await thread.getByText("Where is my order A-1001?", { exact: true }).waitFor({ timeout: 20_000 });
    assert.equal(await thread.getByTestId("conv-pending-calls").count(), 0);

    // The model asks for lookup_order; the engine calls the shop; the model's answer is held back.
    hold.releaseFirst();
    const pending = thread.getByTestId("conv-pending-calls");
    await pending.waitFor({ timeout: 20_000 });
    await pending.getByText(new IntlMessageFormat(mc["conversations.calls.live"]!, "en").format({ count: 1 }) as string).waitFor();
    await pending.getByText("lookup_order", { exact: true }).waitFor();
    const sent = await pending.locator("pre").allTextContents();
    assert.ok(sent.some((t) => t.includes(`GET ${shop.url}/orders/A-1001`) && t.includes("Authorization: Bearer ••••••")), `request shown masked: ${sent.join(" | ")}`);
    assert.ok(!sent.join("").includes(SHOP_KEY), "the secret never reaches the page");
    await ownerPage.screenshot({ path: path.join(ARTIFACTS, "power-ups-live-call-owner-en.png"), fullPage: true });
    // The visitor already sees the action line, before any answer text.
    await page.getByText(actionLine, { exact: true }).waitFor({ timeout: 15_000 });
    await until(() => modelRequests.length === 2, "the model's second step (held back) to arrive");
    assert.deepEqual(shopHits.filter((h) => h.path === "/orders/A-1001"), [{ path: "/orders/A-1001", auth: `Bearer ${SHOP_KEY}` }]);
    assert.match(JSON.stringify(modelRequests[1]!.body.messages), /shipped/, "the model reads the shop's answer");

    // The answer: the visitor reads it; the owner's view moves the call under it, live.
    hold.releaseSecond();
    await page.getByText("Your order A-1001 has shipped with DHL.").waitFor({ timeout: 20_000 });
    await page.waitForFunction(() => !document.querySelector("[aria-busy=true]"), null, { timeout: 30_000 });
    await thread.getByText("Your order A-1001 has shipped with DHL.").waitFor({ timeout: 20_000 });
    await pending.waitFor({ state: "detached", timeout: 15_000 });
    await thread.getByText(new IntlMessageFormat(mc["conversations.calls.summary"]!, "en").format({ count: 1 }) as string).waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, "power-ups-tool-call-visitor-en.png"), fullPage: true });
    // Done, the visitor's page moves to the chat's own address.
    await page.waitForURL(new RegExp(`/bots/${TOOL_BOT}/chats/${chatId}$`), { timeout: 10_000 });

    // Shared, the chat shows a reader the same action line and answer, and nothing of the call.
    await rest(`chats?id=eq.${chatId}`, { method: "PATCH", prefer: "return=minimal", body: { shared: true } });
    const readerContext = await browser.newContext();
    const reader = await readerContext.newPage();
    const readerErrors = watchErrors(reader);
    await reader.goto(`${app.appUrl}/bots/${TOOL_BOT}/chats/${chatId}`);
    await reader.getByText(m["chat.shared.readOnly"]!).waitFor({ timeout: 20_000 });
    await reader.getByText(actionLine, { exact: true }).waitFor();
    await reader.getByText("Your order A-1001 has shipped with DHL.").waitFor();
    const shown = await reader.locator("body").innerText();
    assert.ok(!shown.includes("/orders/A-1001") && !shown.includes("lookup_order"), "the reader sees no request and no tool name");

    assert.deepEqual(errors, []);
    assert.deepEqual(ownerErrors, []);
    assert.deepEqual(readerErrors, []);
    await readerContext.close();
    await owner.close();
    await context.close();
  });
});
