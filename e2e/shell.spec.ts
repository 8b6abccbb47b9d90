// The app shell in Chromium: every public route in three languages, the 404s, the error
// page, colour mode, consent, a forced-dark page and the prerendered HTML.
// Run: node --import tsx --test e2e/shell.spec.ts (builds frontend/dist when missing).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { routeTable, type RouteDef } from "../frontend/src/app/routes.ts";
import { launchBrowser, watchErrors } from "./lib/browser.ts";
import { ensureBuild, repoRoot, startShellApp, type ShellApp } from "./lib/app.ts";

const SAMPLE_BOT = "6f1c1a4e-9a56-4e55-8a39-0d3c3c1d9a11";
const PREFIXES = ["", "/de", "/jp"];
const artifacts = path.join(repoRoot, "e2e", "artifacts");

function firstSlug(collection: string): string {
  const dir = path.join(repoRoot, "frontend", "content", collection);
  const file = fs.readdirSync(dir).find((f) => /^[a-z0-9-]+\.md$/.test(f));
  assert.ok(file, `no content in ${collection}`);
  return file.replace(/\.md$/, "");
}

/** A concrete URL for a route table entry, with valid sample params. */
function sampleUrl(def: RouteDef): string {
  return def.path
    .replace(":slug", firstSlug(def.meta?.collection ?? "blog"))
    .replace(/:[A-Za-z]+Id/g, SAMPLE_BOT)
    .replace("*", "about");
}

let app: ShellApp;
let browser: Browser;

async function freshPage(): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ locale: "en-US", colorScheme: "light" });
  const page = await context.newPage();
  return { context, page, errors: watchErrors(page) };
}

/** The page's main heading, once the app is interactive (prerendered HTML shows earlier). */
async function h1(page: Page): Promise<string> {
  await page.waitForSelector("html[data-hydrated]", { state: "attached", timeout: 15_000 });
  const el = page.locator("h1").first();
  await el.waitFor({ state: "visible", timeout: 15_000 });
  return (await el.textContent())?.trim() ?? "";
}

const isDark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains("dark"));

before(async () => {
  ensureBuild();
  app = await startShellApp();
  browser = await launchBrowser();
  fs.mkdirSync(artifacts, { recursive: true });
});

after(async () => {
  await browser?.close();
  await app?.close();
});

describe("public routes", () => {
  // The public site this shell owns: marketing, content, legal and gallery pages. Bot, auth
  // and test pages need a real backend and are covered by their own journeys.
  const publicRoutes = routeTable.filter((d) => d.guard === undefined && (d.prerender || d.layout === "gallery"));

  for (const prefix of PREFIXES) {
    it(`every registered public route renders under "${prefix || "/"}" without console errors`, { timeout: 400_000 }, async () => {
      const { context, page, errors } = await freshPage();
      const failures: string[] = [];
      for (const def of publicRoutes) {
        const url = prefix + (def.path === "/" && prefix ? "" : sampleUrl(def));
        errors.length = 0;
        await page.goto(app.baseUrl + url);
        const heading = await h1(page).catch((e: Error) => `NO H1 (${e.message.split("\n")[0]})`);
        if (/NO H1|Page not found|Page Not Found|Seite nicht gefunden|ページが見つかりません/.test(heading)) failures.push(`${url}: ${heading}`);
        if (errors.length) failures.push(`${url}: ${errors.join(" | ")}`);
      }
      await context.close();
      assert.deepEqual(failures, []);
    });
  }

  it("pages are in the language of their prefix, with lang, title, canonical and hreflang", async () => {
    const { context, page, errors } = await freshPage();
    await page.goto(`${app.baseUrl}/jp/faq`);
    assert.equal(await h1(page), "よくある質問");
    assert.equal(await page.getAttribute("html", "lang"), "ja");
    assert.equal(await page.title(), "よくある質問 | Parley");
    await page.waitForFunction((href) => document.querySelector('link[rel="canonical"]')?.getAttribute("href") === href, `${app.baseUrl}/jp/faq`);
    assert.equal(await page.locator('link[rel="alternate"][hreflang="zh"]').getAttribute("href"), `${app.baseUrl}/cn/faq`);
    assert.deepEqual(errors, []);
    await context.close();
  });
});

describe("errors", () => {
  it("an unknown route shows 'Page not found: {path}'", async () => {
    const { context, page } = await freshPage();
    await page.goto(`${app.baseUrl}/no/such/page`);
    assert.equal(await h1(page), "Page not found: /no/such/page");
    await context.close();
  });

  it("a failed validation rule shows 'Page Not Found: {path}'", async () => {
    const { context, page } = await freshPage();
    await page.goto(`${app.baseUrl}/gallery/not-a-uuid`);
    assert.equal(await h1(page), "Page Not Found: /gallery/not-a-uuid");
    await context.close();
  });

  it("the error page's one button returns to the home page", async () => {
    const { context, page, errors } = await freshPage();
    await page.goto(`${app.baseUrl}/missing`);
    await h1(page);
    await page.screenshot({ path: path.join(artifacts, "shell-404.png") });
    const buttons = page.locator("main.error-page button");
    assert.equal(await buttons.count(), 1);
    await buttons.getByText("Return to home").click();
    await page.waitForURL(`${app.baseUrl}/`);
    assert.equal(await h1(page), "A chatbot that answers from your own data");
    assert.deepEqual(errors, []);
    await context.close();
  });
});

describe("preferences", () => {
  it("colour mode persists across reloads", async () => {
    const { context, page } = await freshPage();
    await page.goto(`${app.baseUrl}/faq`);
    await h1(page);
    assert.equal(await isDark(page), false);
    const toggle = page.locator(".color-mode-switcher").first();
    await page.waitForSelector(".color-mode-switcher[data-preference]");
    // system → light → dark
    await toggle.click();
    await toggle.click();
    await page.waitForFunction(() => document.documentElement.classList.contains("dark"));
    await page.reload();
    await h1(page);
    assert.equal(await isDark(page), true);
    assert.equal(await page.evaluate(() => localStorage.getItem("parley-color-mode")), "dark");
    await context.close();
  });

  it("a forced-dark page stays dark whatever the preference, and others follow it", async () => {
    const { context, page } = await freshPage();
    await page.goto(`${app.baseUrl}/faq`);
    await h1(page);
    await page.evaluate(() => localStorage.setItem("parley-color-mode", "light"));
    await page.goto(`${app.baseUrl}/`);
    await h1(page);
    assert.equal(await isDark(page), true);
    await page.reload();
    await h1(page);
    assert.equal(await isDark(page), true);
    await page.screenshot({ path: path.join(artifacts, "shell-home-dark.png") });
    // Client-side navigation to an unforced page applies the stored preference again.
    await page.locator(".site-nav a[href='/faq'], footer a[href='/faq']").first().click();
    await page.waitForURL(`${app.baseUrl}/faq`);
    await page.waitForFunction(() => !document.documentElement.classList.contains("dark"));
    await context.close();
  });

  it("cookie consent: asked once, remembered across reloads, page views only after consent", async () => {
    const { context, page } = await freshPage();
    const before = app.events.length;
    await page.goto(`${app.baseUrl}/features`);
    await h1(page);
    const banner = page.getByTestId("consent-banner");
    await banner.waitFor({ state: "visible" });
    await page.screenshot({ path: path.join(artifacts, "shell-consent.png") });
    assert.equal(app.events.length, before, "no page view before consent");
    await page.getByRole("button", { name: "Accept all" }).click();
    await banner.waitFor({ state: "detached" });
    await page.reload();
    await h1(page);
    await page.waitForTimeout(300); // the banner would mount right after hydration
    assert.equal(await banner.count(), 0);
    const cookie = (await context.cookies()).find((c) => c.name === "parley_consent");
    assert.ok(cookie, "consent cookie stored");
    assert.equal(cookie.sameSite, "Lax");
    const deadline = Date.now() + 5000;
    while (app.events.length === before && Date.now() < deadline) await page.waitForTimeout(50);
    const ev = app.events.at(-1)!;
    assert.equal(ev.body.name, "pageview");
    assert.equal(ev.body.url, `${app.baseUrl}/features`);
    assert.equal(ev.headers.apikey, "anon-test-key");
    await context.close();
  });

  it("the language switcher keeps the page and remembers the choice", async () => {
    const { context, page } = await freshPage();
    await page.goto(`${app.baseUrl}/channels/slack`);
    await h1(page);
    await page.locator(".site-header .language-switcher .menu__button").click();
    await page.getByRole("menuitem", { name: "Deutsch" }).click();
    await page.waitForURL(`${app.baseUrl}/de/channels/slack`);
    // <html lang> follows once the German messages are in (an effect after the navigation).
    await page.waitForFunction(() => document.documentElement.lang === "de", null, { timeout: 10_000 });
    assert.equal(await page.getAttribute("html", "lang"), "de");
    const cookie = (await context.cookies()).find((c) => c.name === "parley_locale");
    assert.equal(cookie?.value, "de");
    assert.ok(cookie && cookie.expires - Date.now() / 1000 > 364 * 86400);
    await page.goto(`${app.baseUrl}/`);
    await page.waitForURL(`${app.baseUrl}/de`);
    assert.equal(await h1(page), "Ein Chatbot, der aus Ihren eigenen Daten antwortet");
    await context.close();
  });
});

describe("prerendering", () => {
  it("public pages are static HTML with translated text, canonical and hreflang links", async () => {
    const res = await fetch(`${app.baseUrl}/de/faq`);
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /<html lang="de">/);
    assert.match(html, /<title>Häufige Fragen \| Parley<\/title>/);
    assert.match(html, /<h1 class="hero__title">Häufige Fragen<\/h1>/);
    assert.match(html, /Was ist Parley\?/);
    assert.match(html, /<link rel="canonical" href="https?:\/\/[^"]+\/de\/faq"/);
    for (const [lang, prefix] of [["en", ""], ["ja", "/jp"], ["zh", "/cn"], ["x-default", ""]]) {
      assert.match(html, new RegExp(`<link rel="alternate" hreflang="${lang}" href="https?://[^"]+${prefix}/faq"`));
    }
    const forced = await (await fetch(`${app.baseUrl}/es`)).text();
    assert.match(forced, /<html lang="es" data-forced-color-mode="dark">/);
  });

  it("signed-in pages are not prerendered (the SPA shell renders them)", async () => {
    const html = await (await fetch(`${app.baseUrl}/app/bots`)).text();
    assert.doesNotMatch(html, /data-prerendered="\/app\/bots"/);
  });
});
