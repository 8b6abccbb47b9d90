// The widget loader (sdk/src/widget.ts) on a customer's plain HTML page in Chromium, against a
// real stack: position as documented, warnings for unknown values, greeting bubble, hidden
// paths, brand colour and icon, the JavaScript API and its events (identify reaching the chat,
// the answer's text in `message`), the chat kept across reloads until a new one, the unread badge.
// The customer's site is on `localhost`, another site than the app's 127.0.0.1 (cookies are per
// site, ports do not count), as a real shop's page is: the chat works there with its session in the
// frame's own storage, and a password bot asks for its password inside the widget.
// Run: npm run build --workspace frontend && node --import tsx --test e2e/widget.spec.ts
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { launchBrowser } from "./lib/browser.ts";
import { startFullApp, type FullApp } from "./lib/stack.ts";

const HELP_BOT = "c0000000-0000-4000-8000-000000000001";
/** The seeded password-protected bot (password `open-sesame`). */
const INTERNAL_BOT = "c0000000-0000-4000-8000-000000000002";
const ICON = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

let app: FullApp;
let browser: Browser;
let site: http.Server;
let siteUrl: string;

before(async () => {
  app = await startFullApp();
  browser = await launchBrowser();
  // A customer's site on another site than the app's: every path is a page with the script tag,
  // whose data-* attributes come from the query (?position=bottom-left&greeting=Hi ..., ?bot-id=).
  site = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/icon.png") {
      res.setHeader("content-type", "image/png");
      res.end(Buffer.from(ICON.split(",")[1]!, "base64"));
      return;
    }
    const botId = url.searchParams.get("bot-id") ?? HELP_BOT;
    url.searchParams.delete("bot-id");
    const attrs = [...url.searchParams].map(([k, v]) => ` data-${k}="${v.replace(/"/g, "&quot;")}"`).join("");
    res.setHeader("content-type", "text/html; charset=utf-8");
    res.end(`<!doctype html><html><head><title>Shop</title></head><body><h1>Our shop</h1>
<script src="${app.appUrl}/widget.js" data-bot-id="${botId}"${attrs} async></script></body></html>`);
  });
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  // `localhost` (Chromium resolves it to the loopback) is cross-site to the app on 127.0.0.1.
  siteUrl = `http://localhost:${(site.address() as AddressInfo).port}`;
  assert.notEqual(new URL(siteUrl).hostname, new URL(app.appUrl).hostname);
});

after(async () => {
  site?.close();
  await browser?.close();
  await app?.stop();
});

async function openPage(path: string): Promise<{ page: Page; logs: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const logs: string[] = [];
  page.on("console", (msg) => logs.push(`${msg.type()}: ${msg.text()}`));
  page.on("pageerror", (err) => logs.push(`pageerror: ${err.message}`));
  await page.goto(`${siteUrl}${path}`);
  return { page, logs, close: () => context.close() };
}

const bubble = (page: Page) => page.getByRole("button", { name: /Open chat|Close chat/ });

describe("the widget on a customer's page", () => {
  it("sits bottom-left as the docs say, and warns clearly about unknown values", async () => {
    const left = await openPage("/?position=bottom-left&color=%23b91c1c");
    await bubble(left.page).waitFor({ timeout: 15_000 });
    const root = left.page.locator("[data-parley-widget]");
    assert.match((await root.getAttribute("style")) ?? "", /left: 20px/);
    assert.equal(await bubble(left.page).evaluate((b) => getComputedStyle(b).backgroundColor), "rgb(185, 28, 28)");
    const box = (await bubble(left.page).boundingBox())!;
    assert.ok(box.x < 100, `the bubble is on the left: x=${box.x}`);
    assert.deepEqual(left.logs.filter((l) => /parley widget/.test(l)), []);
    await left.close();

    const odd = await openPage("/?position=top-middle&greeting-delay=soon&icon=javascript:alert(1)");
    await bubble(odd.page).waitFor({ timeout: 15_000 });
    const warnings = odd.logs.filter((l) => /\[parley widget\]/.test(l)).join("\n");
    assert.match(warnings, /data-position must be "bottom-right" or "bottom-left", got "top-middle"; using "bottom-right"/);
    assert.match(warnings, /data-greeting-delay must be seconds/);
    assert.match(warnings, /data-icon must be an https:\/\/ or \/path image URL/);
    assert.match((await odd.page.locator("[data-parley-widget]").getAttribute("style")) ?? "", /right: 20px/);
    await odd.close();
  });

  it("shows a greeting after N seconds that opens the chat, and a brand icon", async () => {
    const context = await browser.newContext();
    // When the widget was added, and when its greeting appeared (page time, ms).
    await context.addInitScript(() => {
      const w = window as unknown as { __mounted?: number; __greeted?: number };
      new MutationObserver(() => {
        const root = document.querySelector("[data-parley-widget]");
        if (root && w.__mounted === undefined) w.__mounted = performance.now();
        const g = root?.querySelector("[role=status]") as HTMLElement | null;
        if (g && g.style.display === "block" && w.__greeted === undefined) w.__greeted = performance.now();
      }).observe(document, { subtree: true, childList: true, attributes: true });
    });
    const page = await context.newPage();
    const icon = encodeURIComponent(`${siteUrl}/icon.png`.replace("http:", "https:"));
    await page.goto(`${siteUrl}/?greeting=Questions%3F%20Ask%20us!&greeting-delay=2&icon=${icon}`);
    await bubble(page).waitFor({ timeout: 15_000 });
    assert.match((await bubble(page).locator("img").getAttribute("src")) ?? "", /\/icon\.png$/);
    const greeting = page.getByText("Questions? Ask us!");
    await greeting.waitFor({ state: "visible", timeout: 10_000 });
    const t = await page.evaluate(() => {
      const w = window as unknown as { __mounted: number; __greeted: number };
      return w.__greeted - w.__mounted;
    });
    assert.ok(t >= 1900, `shown after its delay: ${t} ms`);
    await greeting.click();
    await page.frameLocator("iframe").getByRole("heading", { name: "Acme Help Center" }).waitFor({ timeout: 20_000 });
    assert.equal(await greeting.isVisible(), false);
    await context.close();
  });

  it("stays hidden on the chosen paths, opens on load where asked", async () => {
    const hidden = await openPage("/checkout/pay?hide-on=/checkout*,/admin");
    await hidden.page.waitForFunction(() => "Parley" in window, null, { timeout: 15_000 });
    assert.equal(await hidden.page.locator("[data-parley-widget]").count(), 0);
    await hidden.close();
    const shown = await openPage("/products?hide-on=/checkout*&open=true");
    await shown.page.frameLocator("iframe").getByRole("heading", { name: "Acme Help Center" }).waitFor({ timeout: 20_000 });
    await shown.close();
  });

  it("has a JavaScript API: open, close, toggle, identify and events", async () => {
    const { page, close } = await openPage("/");
    await bubble(page).waitFor({ timeout: 15_000 });
    await page.evaluate(() => {
      const w = window as unknown as { Parley: { on: (n: string, f: (d: unknown) => void) => void }; __events: string[] };
      w.__events = [];
      for (const n of ["open", "close", "message", "chat"]) w.Parley.on(n, () => w.__events.push(n));
    });
    await page.evaluate(() => (window as unknown as { Parley: { open: () => void } }).Parley.open());
    assert.equal(await page.locator("iframe").isVisible(), true);
    await page.evaluate(() => (window as unknown as { Parley: { identify: (u: object) => void } }).Parley.identify({ name: "Ada" }));
    await page.evaluate(() => (window as unknown as { Parley: { close: () => void } }).Parley.close());
    assert.equal(await page.locator("iframe").isVisible(), false);
    await page.evaluate(() => (window as unknown as { Parley: { toggle: () => void } }).Parley.toggle());
    assert.equal(await page.locator("iframe").isVisible(), true);
    assert.deepEqual(await page.evaluate(() => (window as unknown as { __events: string[] }).__events), ["open", "close", "open"]);
    await close();
  });

  it("passes identify() into the chat, where the team sees it, and sends each answer's text with the message event", async () => {
    const { page, close } = await openPage("/");
    await bubble(page).waitFor({ timeout: 15_000 });
    // Given before the chat's frame exists: the frame asks for it when its app listens.
    await page.evaluate(() => {
      const w = window as unknown as { Parley: { on: (n: string, f: (d: unknown) => void) => void; identify: (u: object) => void }; __messages: unknown[] };
      w.__messages = [];
      w.Parley.on("message", (d) => w.__messages.push(d));
      w.Parley.identify({ name: "Ada Lovelace", email: "ada@example.com", plan: "gold", "<bad key>": "dropped", nested: { no: 1 } });
    });
    await bubble(page).click();
    const frame = page.frameLocator("iframe");
    await frame.getByRole("button", { name: "What does the Pro plan include?" }).click();
    await page.waitForFunction(() => (window as unknown as { __messages: unknown[] }).__messages.length > 0, null, { timeout: 30_000 });
    const [event] = await page.evaluate(() => (window as unknown as { __messages: Array<{ botId: string; text: string }> }).__messages);
    assert.equal(event!.botId, HELP_BOT);
    assert.ok(event!.text.trim().length > 20, `the message event carries the answer's text: ${JSON.stringify(event)}`);
    const chatId = await page.evaluate((bot) => localStorage.getItem(`parley:${bot}:chat`), HELP_BOT);
    assert.match(chatId ?? "", /^[0-9a-f-]{36}$/);
    // What the team reads (service role here): the site's word, cleaned, on the visitor's chat.
    let visitor: unknown = null;
    for (let i = 0; i < 50 && !visitor; i++) {
      const res = await fetch(`${app.apiUrl}/rest/v1/chats?id=eq.${chatId}&select=visitor`, {
        headers: { apikey: app.serviceRoleKey, authorization: `Bearer ${app.serviceRoleKey}` },
      });
      visitor = ((await res.json()) as Array<{ visitor: unknown }>)[0]?.visitor ?? null;
      if (!visitor) await new Promise((r) => setTimeout(r, 200));
    }
    assert.deepEqual(visitor, { name: "Ada Lovelace", email: "ada@example.com", plan: "gold" });
    await close();
  });

  it("keeps the visitor's chat across reloads until they start a new one, and badges answers that arrive while closed", async () => {
    const { page, close } = await openPage("/");
    await bubble(page).click();
    const frame = page.frameLocator("iframe");
    await frame.getByRole("button", { name: "What does the Pro plan include?" }).click();
    // Closed while the bot answers: the unread badge counts the answer.
    await bubble(page).click();
    const badge = page.locator("[data-parley-unread]");
    await badge.waitFor({ state: "visible", timeout: 30_000 });
    assert.equal(await badge.textContent(), "1");
    const kept = await page.evaluate((bot) => localStorage.getItem(`parley:${bot}:chat`), HELP_BOT);
    assert.match(kept ?? "", /^[0-9a-f-]{36}$/);
    await bubble(page).click();
    assert.equal(await badge.isVisible(), false, "opening reads the answer");

    // Another page of the site: the same chat, with its question.
    await page.goto(`${siteUrl}/pricing`);
    await bubble(page).click();
    assert.match((await page.locator("iframe").getAttribute("src")) ?? "", new RegExp(`chat=${kept}`));
    await frame.getByText("What does the Pro plan include?").first().waitFor({ timeout: 20_000 });

    // A new chat forgets it.
    await frame.getByRole("button", { name: /options|Options/ }).first().click().catch(() => {});
    const newChat = frame.getByRole("button", { name: "New chat" }).or(frame.getByRole("menuitem", { name: "New chat" }));
    await newChat.first().click();
    await page.waitForFunction((bot) => localStorage.getItem(`parley:${bot}:chat`) === null, HELP_BOT, { timeout: 10_000 });
    await close();
  });

  it("chats on a customer's site that is another site than the app's, and a reload keeps the chat and the visitor", async () => {
    const usersBefore = await userCount();
    const { page, logs, close } = await openPage("/");
    await bubble(page).click();
    const frame = page.frameLocator("iframe");
    await frame.getByRole("button", { name: "What does the Pro plan include?" }).click();
    // The answer, stored (its feedback buttons come with the stored message's id).
    await frame.getByRole("button", { name: "Helpful" }).first().waitFor({ timeout: 30_000 });
    assert.match(await frame.locator(".chat-msg--bot").first().innerText(), /Pro/);
    assert.equal(await frame.getByText("Your session has expired").count(), 0);
    // The app's SameSite=Lax session cookies do not stick in this frame (it is cross-site); the
    // visitor's session is where the frame may keep it.
    const first = await frameSession(page);
    assert.equal(first.laxCookieSticks, false, "the frame is cross-site");
    assert.notEqual(first.where, "none");
    assert.match(first.userId ?? "", UUID);
    const chatId = await page.evaluate((bot) => localStorage.getItem(`parley:${bot}:chat`), HELP_BOT);
    assert.match(chatId ?? "", UUID);
    assert.equal(await chatOwner(chatId!), first.userId, "the chat is that visitor's");

    // A reload of the customer's page: the same visitor continues the same chat.
    await page.reload();
    await bubble(page).click();
    assert.match((await page.locator("iframe").getAttribute("src")) ?? "", new RegExp(`chat=${chatId}`));
    await frame.getByText("What does the Pro plan include?").first().waitFor({ timeout: 20_000 });
    assert.equal((await frameSession(page)).userId, first.userId);
    const composer = frame.locator(".chat-composer__input");
    await composer.fill("Why are my notes not syncing?");
    await composer.press("Enter");
    await frame.locator(".chat-msg--bot").nth(1).getByText(/sync/i).first().waitFor({ timeout: 30_000 });
    assert.equal(await frame.getByText("Your session has expired").count(), 0);
    assert.equal(await page.evaluate((bot) => localStorage.getItem(`parley:${bot}:chat`), HELP_BOT), chatId);
    assert.equal(await userCount(), usersBefore + 1, "one visitor, made once");
    assert.deepEqual(logs.filter((l) => /^pageerror/.test(l)), []);
    await close();
  });

  it("asks for a password bot's password inside the widget on the customer's site, then chats", async () => {
    const { page, logs, close } = await openPage(`/?bot-id=${INTERNAL_BOT}&open=true`);
    const frame = page.frameLocator("iframe");
    const password = frame.getByLabel("Password");
    await password.waitFor({ timeout: 20_000 });
    await password.fill("open-says-me");
    await frame.getByRole("button", { name: "Continue" }).click();
    await frame.getByText("Incorrect password").waitFor({ timeout: 15_000 });
    await password.fill("open-sesame");
    await frame.getByRole("button", { name: "Continue" }).click();
    const composer = frame.locator(".chat-composer__input");
    await composer.waitFor({ timeout: 20_000 });
    assert.equal(await password.count(), 0);
    await composer.fill("How do I request leave?");
    await composer.press("Enter");
    await frame.getByRole("button", { name: "Helpful" }).first().waitFor({ timeout: 30_000 });
    assert.match(await frame.locator(".chat-msg--bot").first().innerText(), /leave/i);
    // All in the embed: the frame never went to the login page (which refuses to be framed).
    assert.match(page.frames().find((f) => f !== page.mainFrame())?.url() ?? "", new RegExp(`/bots/${INTERNAL_BOT}/embed\\?`));
    const { userId } = await frameSession(page, INTERNAL_BOT);
    const chatId = await page.evaluate((bot) => localStorage.getItem(`parley:${bot}:chat`), INTERNAL_BOT);
    assert.equal(await chatOwner(chatId!), userId);

    // The grant is the visitor's, kept with their session: after a reload no password again.
    await page.reload();
    await frame.getByText("How do I request leave?").first().waitFor({ timeout: 20_000 });
    await composer.waitFor();
    assert.equal(await password.count(), 0);
    assert.deepEqual(logs.filter((l) => /^pageerror/.test(l)), []);
    await close();
  });
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * In the widget's frame: whether a SameSite=Lax cookie (the app's session cookies) sticks there,
 * and the user of the session the frame keeps (lib/frame-storage.ts): auth-js' JSON under
 * sb-*-auth-token in its localStorage or, where the browser blocks storage in third-party frames
 * (this Chromium does), in partitioned cookies (@supabase/ssr's base64url chunks).
 */
async function frameSession(page: Page, botId = HELP_BOT): Promise<{ laxCookieSticks: boolean; where: string; userId: string | null }> {
  const embed = page.frames().find((f) => f.url().includes(`/bots/${botId}/embed`));
  assert.ok(embed, "the widget's frame");
  return embed.evaluate(() => {
    document.cookie = "lax-probe=1; Path=/; SameSite=Lax; Max-Age=60";
    const laxCookieSticks = /(?:^|; )lax-probe=1/.test(document.cookie);
    let raw: string | null = null;
    let where = "none";
    try {
      const key = Object.keys(localStorage).find((k) => /^sb-.+-auth-token$/.test(k));
      if (key) [raw, where] = [localStorage.getItem(key), "localStorage"];
    } catch {
      // Blocked in this frame.
    }
    if (!raw) {
      const chunks = document.cookie.split("; ").filter((c) => /^sb-[^=]+-auth-token(?:\.\d+)?=/.test(c));
      chunks.sort((a, b) => Number(/\.(\d+)=/.exec(a)?.[1] ?? -1) - Number(/\.(\d+)=/.exec(b)?.[1] ?? -1));
      const value = chunks.map((c) => c.slice(c.indexOf("=") + 1)).join("");
      if (value.startsWith("base64-")) {
        const b64 = value.slice(7).replace(/-/g, "+").replace(/_/g, "/");
        raw = new TextDecoder().decode(Uint8Array.from(atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4)), (ch) => ch.charCodeAt(0)));
        where = "partitioned cookies";
      }
    }
    const session = raw ? (JSON.parse(raw) as { user?: { id?: string } }) : null;
    return { laxCookieSticks, where, userId: session?.user?.id ?? null };
  });
}

async function serviceGet<T>(path: string): Promise<T> {
  const res = await fetch(`${app.apiUrl}/rest/v1/${path}`, { headers: { apikey: app.serviceRoleKey, authorization: `Bearer ${app.serviceRoleKey}` } });
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()) as T;
}

/** Who owns a chat (what the team's Conversations read). */
async function chatOwner(chatId: string): Promise<string | undefined> {
  return (await serviceGet<Array<{ user_id: string }>>(`chats?id=eq.${chatId}&select=user_id`))[0]?.user_id;
}

/** How many users auth has (each new anonymous visitor is one more). */
async function userCount(): Promise<number> {
  const res = await fetch(`${app.apiUrl}/auth/v1/admin/users?per_page=1`, { headers: { apikey: app.serviceRoleKey, authorization: `Bearer ${app.serviceRoleKey}` } });
  assert.equal(res.status, 200);
  await res.body?.cancel();
  return Number(res.headers.get("x-total-count"));
}
