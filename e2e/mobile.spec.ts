// Phones (390×844) in Chromium against the real stack: public pages in four languages, the
// app signed in and a visitor's bot chat fit the viewport (no sideways scrolling), keep the
// header's account or log-in control on screen, open the navigation menu from the keyboard
// and log no console errors; the cookie banner leaves the hosted chat's composer free (de, el);
// in the dark scheme a "white" button follows the theme.
// Screenshots go to e2e/artifacts/mobile-*.png.
// Run: node --import tsx --test --test-concurrency=1 e2e/mobile.spec.ts (needs a built frontend).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchBrowser, watchErrors } from "./lib/browser.ts";
import { repoRoot } from "./lib/app.ts";
import { startFullApp, type FullApp } from "./lib/stack.ts";

const BOT = "c0000000-0000-4000-8000-000000000001";
const PASSWORD = "parley-demo-123";
const VIEWPORT = { width: 390, height: 844 };
const artifacts = process.env.PARLEY_MOBILE_SHOTS ?? path.join(repoRoot, "e2e", "artifacts");

let app: FullApp;
let browser: Browser;

before(async () => {
  app = await startFullApp();
  browser = await launchBrowser();
  fs.mkdirSync(artifacts, { recursive: true });
});

after(async () => {
  await browser?.close();
  await app?.stop();
});

async function phone(opts: { signedInAs?: string; colorScheme?: "light" | "dark" } = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: VIEWPORT, locale: "en-US", colorScheme: opts.colorScheme ?? "light", hasTouch: true });
  if (opts.signedInAs) await context.addCookies(await app.sessionCookies(opts.signedInAs, PASSWORD));
  return context;
}

/** Waits until the app is interactive and the page's own content (a heading) is shown. */
async function ready(page: Page): Promise<void> {
  await page.waitForSelector("html[data-hydrated]", { state: "attached", timeout: 20_000 });
  await page.locator("main h1, main h2").first().waitFor({ state: "visible", timeout: 20_000 });
  await page.waitForLoadState("networkidle").catch(() => {});
}

/** Problems with the page at phone width, with the elements that stick out named. */
function layoutProblems(page: Page, accountSelector: string | null): Promise<string[]> {
  return page.evaluate((accountSel) => {
    const problems: string[] = [];
    const vw = window.innerWidth;
    if (document.documentElement.scrollWidth > vw) {
      const wide = [...document.querySelectorAll("body *")]
        .filter((el) => {
          const r = el.getBoundingClientRect();
          return r.width > 0 && r.right > vw + 1;
        })
        .slice(0, 6)
        // (No helper functions in here: tsx would wrap them in a __name() the page lacks.)
        .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join(".")} right=${Math.round(el.getBoundingClientRect().right)}`);
      problems.push(`scrollWidth ${document.documentElement.scrollWidth} > ${vw}: ${wide.join(", ")}`);
    }
    if (accountSel) {
      const control = document.querySelector(accountSel);
      if (!control) problems.push(`no ${accountSel}`);
      else {
        const r = control.getBoundingClientRect();
        if (r.left < 0 || r.right > vw || r.width === 0) problems.push(`${accountSel} at ${Math.round(r.left)}–${Math.round(r.right)} (viewport ${vw})`);
      }
    }
    return problems;
  }, accountSelector);
}

/** Opens the header's menu with the keyboard, checks the links show, closes it with Escape. */
async function menuWorks(page: Page, hrefs: string[]): Promise<string[]> {
  const toggle = page.locator("header .primary-nav__toggle");
  if (!(await toggle.isVisible())) return ["menu button not visible"];
  await toggle.focus();
  await page.keyboard.press("Enter");
  const problems: string[] = [];
  if ((await toggle.getAttribute("aria-expanded")) !== "true") problems.push("aria-expanded not true after Enter");
  const panelId = await toggle.getAttribute("aria-controls");
  const panel = page.locator(`[id="${panelId}"]`);
  for (const href of hrefs) {
    const link = panel.locator(`a[href="${href}"]`);
    if (!(await link.isVisible())) problems.push(`link ${href} not shown in the open menu`);
  }
  const focusedInPanel = await page.evaluate((id) => !!document.getElementById(id!)?.contains(document.activeElement), panelId);
  if (!focusedInPanel) problems.push("focus did not move into the menu");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  if (overflow) problems.push("open menu widens the page");
  await page.keyboard.press("Escape");
  if ((await toggle.getAttribute("aria-expanded")) !== "false") problems.push("Escape did not close the menu");
  if (!(await toggle.evaluate((el) => el === document.activeElement))) problems.push("focus not back on the menu button");
  return problems;
}

const SITE_LINKS = (prefix: string) => ["/features", "/gallery", "/docs", "/blog"].map((p) => prefix + p);
const APP_LINKS = ["/app/bots", "/app/conversations/all", "/app/my-chats", "/app/account"];

describe("phone layout", () => {
  it("public pages in en, de, jp and el fit 390px, keep Log in visible and open the menu; the cookie banner leaves the chat usable in de and el", { timeout: 90_000 }, async () => {
    const context = await phone();
    const page = await context.newPage();
    const errors = watchErrors(page);
    const failures: string[] = [];
    for (const [url, prefix] of [["/", ""], ["/gallery", ""], ["/de/", "/de"], ["/jp/", "/jp"], ["/el/", "/el"]] as const) {
      errors.length = 0;
      await page.goto(app.appUrl + url);
      await ready(page);
      // Log in stays in the header; the cookie banner is shown on a first visit.
      await page.locator("[data-testid=consent-banner]").waitFor({ timeout: 10_000 });
      for (const p of await layoutProblems(page, `header a[href="${prefix}/app/auth/login"]`)) failures.push(`${url}: ${p}`);
      const banner = await page.locator("[data-testid=consent-banner]").boundingBox();
      if (banner && banner.height > VIEWPORT.height * 0.25) failures.push(`${url}: cookie banner is ${Math.round(banner.height)}px high`);
      await page.screenshot({ path: path.join(artifacts, `mobile-${url.replace(/\W+/g, "_") || "home"}.png`) });
      for (const p of await menuWorks(page, SITE_LINKS(prefix))) failures.push(`${url} menu: ${p}`);
      if (url === "/") {
        // The home page is always dark: its colour-mode button says so and does nothing.
        const toggle = page.locator("header .color-mode-switcher");
        if ((await toggle.getAttribute("aria-disabled")) !== "true") failures.push("/: colour-mode button not disabled on a forced-dark page");
        if ((await toggle.getAttribute("title")) !== "This page is always dark") failures.push(`/: colour-mode title "${await toggle.getAttribute("title")}"`);
        await toggle.focus();
        await page.keyboard.press("Enter");
        if (await page.evaluate(() => localStorage.getItem("parley-color-mode"))) failures.push("/: the disabled colour-mode button stored a preference");
      }
      if (errors.length) failures.push(`${url}: ${errors.join(" | ")}`);
    }
    // The page can be scrolled so that its end sits above the banner.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const covered = await page.evaluate(() => {
      const banner = document.querySelector("[data-testid=consent-banner]")!.getBoundingClientRect();
      const footer = document.querySelector(".site-footer__bottom")!.getBoundingClientRect();
      return footer.bottom > banner.top + 1;
    });
    if (covered) failures.push("/el/: the footer's end stays under the cookie banner");

    // A visitor's chat with the banner shown, in German and in Greek (long words, the hosted
    // bot page the issue names): the composer sits above it; the options menu ("⋯") keeps each
    // entry on one line and stays on screen.
    for (const lang of ["de", "el"] as const) {
      errors.length = 0;
      const where = `/${lang}/bots`;
      await page.goto(`${app.appUrl}/${lang}/bots/${BOT}`);
      const composer = page.locator("textarea").first();
      await composer.waitFor({ timeout: 20_000 });
      await page.locator("[data-testid=consent-banner]").waitFor();
      await page.waitForLoadState("networkidle").catch(() => {});
      const composerBox = (await composer.boundingBox())!;
      const composerBottom = composerBox.y + composerBox.height;
      const bannerTop = (await page.locator("[data-testid=consent-banner]").boundingBox())!.y;
      if (composerBottom > bannerTop) failures.push(`${where}: composer (bottom ${Math.round(composerBottom)}) under the cookie banner (top ${Math.round(bannerTop)})`);
      await page.screenshot({ path: path.join(artifacts, `mobile-${lang}-chat-banner.png`) });
      await page.locator(".chat-options .menu__button").click();
      const items = page.locator(".chat-options [role=menuitem]");
      await items.first().waitFor();
      for (const box of await items.evaluateAll((els) => els.map((el) => { const r = el.getBoundingClientRect(); return { text: el.textContent, h: r.height, l: r.left, r: r.right }; }))) {
        if (box.h > 40) failures.push(`${where} menu: "${box.text}" wraps (${Math.round(box.h)}px high)`);
        if (box.l < 0 || box.r > VIEWPORT.width) failures.push(`${where} menu: "${box.text}" off screen`);
      }
      await page.screenshot({ path: path.join(artifacts, `mobile-${lang}-chat-menu.png`) });
      await page.keyboard.press("Escape");
      if (errors.length) failures.push(`${where}: ${errors.join(" | ")}`);
    }
    await context.close();
    assert.deepEqual(failures, []);
  });

  it("the app signed in and a visitor's chat fit 390px, light and dark", { timeout: 60_000 }, async () => {
    const failures: string[] = [];
    for (const scheme of ["light", "dark"] as const) {
      const context = await phone({ signedInAs: "owner@parley.test", colorScheme: scheme });
      // A returning visitor: no cookie banner in the way of the screenshots.
      await context.addCookies([{ name: "parley_consent", value: encodeURIComponent(JSON.stringify({ version: 1, accepted: [] })), url: app.appUrl }]);
      const page = await context.newPage();
      const errors = watchErrors(page);
      const pages = [
        "/app/bots",
        `/app/bots/${BOT}`,
        `/app/bots/${BOT}/data-sources`,
        "/app/conversations/all",
      ];
      for (const url of pages) {
        errors.length = 0;
        await page.goto(app.appUrl + url);
        await ready(page);
        for (const p of await layoutProblems(page, "header [data-testid=account-menu] .menu__button")) failures.push(`${scheme} ${url}: ${p}`);
        await page.screenshot({ path: path.join(artifacts, `mobile-${scheme}${url.replace(/\W+/g, "_").replace(/c0000000_0000_4000_8000_000000000001/, "bot")}.png`) });
        if (scheme === "light") for (const p of await menuWorks(page, APP_LINKS)) failures.push(`${url} menu: ${p}`);
        if (errors.length) failures.push(`${scheme} ${url}: ${errors.join(" | ")}`);
        if (url === `/app/bots/${BOT}/data-sources`) {
          const region = page.locator(".ks-table-wrap[role=region]");
          if ((await region.count()) && (await region.getAttribute("tabindex")) !== "0") failures.push("the table region is not focusable");
        }
        if (url === `/app/bots/${BOT}` && scheme === "dark") {
          // Settings / Data sources links are "white" buttons: in the dark scheme they must not be bright blocks.
          const bg = await page.locator(".btn--white").first().evaluate((el) => getComputedStyle(el).backgroundColor);
          const [r, g, b] = (bg.match(/\d+(\.\d+)?/g) ?? []).map(Number);
          if (r === undefined || r! + g! + b! > 3 * 200) failures.push(`dark .btn--white background ${bg}`);
        }
      }
      // The visitor's chat page of the public bot (signed in as the owner it is the same page).
      errors.length = 0;
      await page.goto(`${app.appUrl}/bots/${BOT}`);
      await page.waitForSelector("html[data-hydrated]", { state: "attached" });
      await page.locator("textarea, [contenteditable=true]").first().waitFor({ timeout: 20_000 });
      await page.waitForLoadState("networkidle").catch(() => {});
      for (const p of await layoutProblems(page, null)) failures.push(`${scheme} visitor chat: ${p}`);
      await page.screenshot({ path: path.join(artifacts, `mobile-${scheme}-chat.png`) });
      if (errors.length) failures.push(`${scheme} visitor chat: ${errors.join(" | ")}`);
      await context.close();
    }
    assert.deepEqual(failures, []);
  });

  it("a platform administrator finds Admin in the app menu; others do not", { timeout: 30_000 }, async () => {
    const context = await phone({ signedInAs: "platform-admin@parley.test" });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${app.appUrl}/app/my-chats`);
    await ready(page);
    await page.locator("header .primary-nav__toggle").click();
    await page.locator('header .primary-nav a[href="/app/admin"]').waitFor({ timeout: 10_000 });
    await context.close();
    const owner = await phone({ signedInAs: "owner@parley.test" });
    const ownerPage = await owner.newPage();
    await ownerPage.goto(`${app.appUrl}/app/my-chats`);
    await ready(ownerPage);
    await ownerPage.locator("header .primary-nav__toggle").click();
    await ownerPage.locator('header .primary-nav a[href="/app/account"]').waitFor();
    assert.equal(await ownerPage.locator('header .primary-nav a[href="/app/admin"]').count(), 0);
    await owner.close();
    assert.deepEqual(errors, []);
  });
});
