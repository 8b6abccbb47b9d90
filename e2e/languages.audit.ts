// Every language whole, at every width: the public routes and the signed-in app's main routes
// in all ten languages at 360, 390 and 1366 px, against the real stack. Each page must not
// scroll sideways, the header's row of links must not be cut off (it fits or collapses into
// the menu), and a page in another language must show no English text of the message
// catalogues or of the English content files. One page load per route, language and width;
// one browser context per width and role, reused.
// Run: node --import tsx --test --test-concurrency=1 e2e/languages.audit.ts (needs a built frontend).
// NOT YET PART OF `npm test`: an audit that did not pass everywhere when written (issue 16); its
// layout fixes landed untested at every width, and a full run takes 20+ minutes on two cores.
// It becomes e2e/languages.spec.ts once it passes and is fast enough for CI.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchBrowser } from "./lib/browser.ts";
import { repoRoot } from "./lib/app.ts";
import { startFullApp, type FullApp } from "./lib/stack.ts";
import { LOCALE_CODES } from "../frontend/src/i18n/locales.ts";
import { CONSENT_COOKIE, serializeConsent } from "../frontend/src/lib/consent.ts";

const BOT = "c0000000-0000-4000-8000-000000000001";
const TEAM = "b0000000-0000-4000-8000-000000000001";
const SOURCE = "e7000000-0000-4000-8000-000000000001";
// PARLEY_LANGUAGE_WIDTHS=360,1366 runs some widths only (a quicker local check); all three by default.
const WIDTHS = (process.env.PARLEY_LANGUAGE_WIDTHS ?? "360,390,1366").split(",").map(Number);

const PUBLIC = [
  "/", "/faq", "/features", "/models", "/channels", "/channels/slack", "/data-sources", "/data-sources/web",
  "/blog", "/blog/introducing-parley", "/docs", "/docs/getting-started", "/docs/data-sources", "/docs/self-hosting",
  "/legal/privacy", "/legal/terms", "/launch-week/day-1", "/use-cases/author", "/pages/about", "/gallery", "/app/auth/login",
];
const APP = ["/app/bots", `/app/bots/${BOT}`, `/app/bots/${BOT}/data-sources`, `/app/bots/${BOT}/data-source/${SOURCE}`, `/app/teams/${TEAM}`, "/app/account", "/app/my-chats"];

// --- what counts as English text -------------------------------------------------------------

const messagesDir = path.join(repoRoot, "frontend", "src", "i18n", "messages");
function catalogue(code: string): Record<string, string> {
  const all: Record<string, string> = JSON.parse(fs.readFileSync(path.join(messagesDir, `${code}.json`), "utf8"));
  for (const area of fs.readdirSync(messagesDir, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    const file = path.join(messagesDir, area.name, `${code}.json`);
    if (fs.existsSync(file)) Object.assign(all, JSON.parse(fs.readFileSync(file, "utf8")));
  }
  return all;
}
const english = catalogue("en");

/** Sentences of the English content files (prose only: no code, tables or front matter). */
function contentSentences(): string[] {
  const root = path.join(repoRoot, "frontend", "content");
  const out: string[] = [];
  for (const dir of fs.readdirSync(root)) {
    for (const file of fs.readdirSync(path.join(root, dir)).filter((f) => !/\.[a-z]{2}\.md$/.test(f))) {
      const body = fs.readFileSync(path.join(root, dir, file), "utf8").replace(/^---[\s\S]*?---/, "").replace(/```[\s\S]*?```/g, "");
      for (const line of body.split("\n")) {
        if (/^\s*\|/.test(line)) continue;
        const text = line.replace(/[*_`>#]|\[([^\]]*)\]\([^)]*\)/g, "$1").trim();
        for (const sentence of text.split(/(?<=[.:!?])\s+/)) if (sentence.length >= 30 && / \w+ \w+ /.test(sentence)) out.push(sentence);
      }
    }
  }
  return out;
}
const englishContent = contentSentences();

/** English catalogue texts that locale `code` translates differently (whole sentences, no arguments). */
function englishOnlyTexts(code: string): string[] {
  const own = catalogue(code);
  return Object.entries(english)
    .filter(([id, text]) => own[id] !== undefined && own[id] !== text && !/[{<]/.test(text) && text.length >= 12 && / \S+ /.test(text))
    .map(([, text]) => text);
}

// --- the browser -----------------------------------------------------------------------------

let app: FullApp;
let browser: Browser;
const contexts = new Map<string, { context: BrowserContext; page: Page }>();

before(async () => {
  app = await startFullApp();
  browser = await launchBrowser();
});

after(async () => {
  for (const { context } of contexts.values()) await context.close();
  await browser?.close();
  await app?.stop();
});

/** One reused page per width and role (a visitor, or the seeded owner signed in). */
async function pageFor(width: number, signedIn: boolean): Promise<Page> {
  const key = `${width}:${signedIn}`;
  let entry = contexts.get(key);
  if (!entry) {
    const context = await browser.newContext({ viewport: { width, height: 800 }, locale: "en-US", colorScheme: "light" });
    // Consent decided, so the banner does not cover the page (its own spec tests it).
    await context.addCookies([{ name: CONSENT_COOKIE, value: encodeURIComponent(serializeConsent([])), url: app.appUrl }]);
    if (signedIn) await context.addCookies(await app.sessionCookies("owner@parley.test", "parley-demo-123"));
    entry = { context, page: await context.newPage() };
    contexts.set(key, entry);
  }
  return entry.page;
}

interface Findings {
  overflow: string | null;
  cutHeader: string | null;
  text: string;
}

async function inspect(page: Page, url: string): Promise<Findings> {
  await page.goto(app.appUrl + url, { waitUntil: "domcontentloaded" });
  await page.waitForSelector("html[data-hydrated]", { state: "attached", timeout: 20_000 });
  // The screen's heading: data pages show it once their query answered (a loading state has none).
  await page.locator("main h1, main h2").first().waitFor({ state: "visible", timeout: 15_000 }).catch(() => {});
  // Two frames: the header measures itself after layout and may collapse its links.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page.evaluate(() => {
    const vw = window.innerWidth;
    let overflow: string | null = null;
    if (document.documentElement.scrollWidth > vw + 1) {
      const wide = [...document.querySelectorAll<HTMLElement>("body *")]
        .filter((el) => el.getBoundingClientRect().right > vw + 1 && el.getClientRects().length)
        .slice(0, 3)
        .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}`);
      overflow = `page is ${document.documentElement.scrollWidth}px wide: ${wide.join(", ")}`;
    }
    let cutHeader: string | null = null;
    for (const list of document.querySelectorAll<HTMLElement>("header .primary-nav__list")) {
      if (list.offsetParent !== null && list.scrollWidth > list.clientWidth + 1) cutHeader = `nav links need ${list.scrollWidth}px, have ${list.clientWidth}px`;
    }
    for (const inner of document.querySelectorAll<HTMLElement>(".site-header__inner, .app-header__inner")) {
      const box = inner.getBoundingClientRect();
      for (const child of inner.children) {
        const r = child.getBoundingClientRect();
        if (r.width && (r.right > Math.min(box.right, vw) + 1 || r.left < box.left - 1)) cutHeader = `${child.className} sticks out of the header`;
      }
    }
    // Text a person reads: the page without code samples and user content (bot names, chats).
    const clone = document.body.cloneNode(true) as HTMLElement;
    clone.querySelectorAll("code, pre, script, style, [data-user-content]").forEach((el) => el.remove());
    return { overflow, cutHeader, text: (clone.innerText || "").replace(/\s+/g, " ") };
  });
}

for (const width of WIDTHS) {
  describe(`${width}px`, () => {
    for (const code of LOCALE_CODES) {
      const prefix = code === "en" ? "" : `/${code}`;
      const foreign = code === "en" ? [] : [...englishOnlyTexts(code), ...englishContent];
      for (const [role, routes] of [["visitor", PUBLIC], ["owner", APP]] as const) {
        it(`${code}: ${role} pages fit and speak ${code}`, async () => {
          const page = await pageFor(width, role === "owner");
          const problems: string[] = [];
          for (const route of routes) {
            const url = prefix + (route === "/" && prefix ? "" : route);
            const f = await inspect(page, url);
            if (f.overflow) problems.push(`${url}: ${f.overflow}`);
            if (f.cutHeader) problems.push(`${url}: ${f.cutHeader}`);
            const found = foreign.filter((t) => f.text.includes(t));
            if (found.length) problems.push(`${url}: English text ${found.slice(0, 3).map((t) => JSON.stringify(t)).join(", ")}`);
          }
          assert.deepEqual(problems, []);
        });
      }
    }
  });
}
