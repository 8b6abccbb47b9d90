// No dead ends (issue 16), in Chromium against the real stack and its seed: "Open chat" and
// the embed code, opened from a bot's page, lead back to it; a data-source page names its bot
// and leads back; the sole owner of a team is told why she cannot leave it, and a member who
// is offered "Leave team" leaves; a long e-mail address does not widen the team page on a
// phone (German, 360 px).
// Run: node --import tsx --test e2e/dead-ends.spec.ts (builds frontend/dist when missing).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchBrowser, watchErrors } from "./lib/browser.ts";
import { repoRoot } from "./lib/app.ts";
import { startFullApp, type FullApp } from "./lib/stack.ts";
import { PASSWORD, SEED } from "./lib/route-samples.ts";
import { CONSENT_COOKIE, serializeConsent } from "../frontend/src/lib/consent.ts";

const MSG_DIR = path.join(repoRoot, "frontend", "src", "i18n", "messages");
/** One language's messages of the areas used here. */
function messages(code: string): Record<string, string> {
  const all: Record<string, string> = JSON.parse(fs.readFileSync(path.join(MSG_DIR, `${code}.json`), "utf8"));
  for (const area of ["teams", "conversations", "sources"]) Object.assign(all, JSON.parse(fs.readFileSync(path.join(MSG_DIR, area, `${code}.json`), "utf8")));
  return all;
}
const en = messages("en");
const de = messages("de");
const ADMIN = "a0000000-0000-4000-8000-000000000002";

let app: FullApp;
let browser: Browser;
const contexts: BrowserContext[] = [];

before(async () => {
  app = await startFullApp();
  browser = await launchBrowser();
});

after(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
  await app?.stop();
});

/** A page signed in as a seeded user, the cookie choice made (the banner covers nothing). */
async function signedIn(email: string, viewport = { width: 1280, height: 800 }): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport, locale: "en-US" });
  contexts.push(context);
  await context.addCookies([{ name: CONSENT_COOKIE, value: encodeURIComponent(serializeConsent([])), url: app.appUrl }, ...(await app.sessionCookies(email, PASSWORD))]);
  const page = await context.newPage();
  return { page, errors: watchErrors(page) };
}

const pathOf = (page: Page) => new URL(page.url()).pathname + new URL(page.url()).search;

async function service(pathAndQuery: string) {
  const res = await fetch(`${app.apiUrl}${pathAndQuery}`, { headers: { apikey: app.serviceRoleKey, authorization: `Bearer ${app.serviceRoleKey}` } });
  assert.equal(res.status, 200, `${pathAndQuery}: ${res.status}`);
  return res.json();
}

describe("ways back into the app", () => {
  it("the chat page and the embed code, opened from a bot's page, lead back to it", async () => {
    const { page, errors } = await signedIn("owner@parley.test");
    for (const label of [en["conversations.overview.openChat"]!, en["conversations.overview.embed"]!]) {
      await page.goto(`${app.appUrl}/app/bots/${SEED.publicBot}`);
      await page.getByRole("link", { name: label, exact: true }).click();
      await page.waitForURL((u) => u.pathname.startsWith(`/bots/${SEED.publicBot}`));
      assert.match(pathOf(page), /[?&]from=app\b/, `${label} opens ${pathOf(page)}`);
      await page.getByRole("link", { name: en["nav.backToBot"]! }).click();
      await page.waitForURL((u) => u.pathname === `/app/bots/${SEED.publicBot}`);
    }
    // A visitor of a shared link gets no way "back" into an app they are not part of.
    await page.goto(`${app.appUrl}/bots/${SEED.publicBot}/sdk`);
    await page.locator("h1").first().waitFor();
    assert.equal(await page.getByRole("link", { name: en["nav.backToBot"]! }).count(), 0);
    assert.deepEqual(errors.filter((e) => !/Failed to load resource/.test(e)), []);
  });

  it("a data-source page names its bot and leads back to it and to the bot's data sources", async () => {
    const { page } = await signedIn("owner@parley.test");
    await page.goto(`${app.appUrl}/de/app/bots/${SEED.publicBot}/data-source/${SEED.dataSource}`);
    const crumbs = page.getByRole("navigation", { name: de["sources.crumbs"]! });
    await crumbs.getByRole("link", { name: "Acme Help Center" }).waitFor();
    assert.equal(await crumbs.getByRole("link", { name: de["page.app.bot.dataSources.title"]! }).getAttribute("href"), `/de/app/bots/${SEED.publicBot}/data-sources`);
    await crumbs.getByRole("link", { name: "Acme Help Center" }).click();
    await page.waitForURL((u) => u.pathname === `/de/app/bots/${SEED.publicBot}`);
  });
});

describe("leaving a team", () => {
  it("the sole owner is not offered to leave and is told why", async () => {
    const { page } = await signedIn("owner@parley.test");
    await page.goto(`${app.appUrl}/app/teams/${SEED.team}`);
    await page.getByText(en["teams.members.soleOwner"]!).waitFor();
    assert.equal(await page.getByRole("button", { name: en["teams.members.leave"]! }).count(), 0);
  });

  it("a member who is offered to leave leaves, and lands on the bots page", async () => {
    const { page, errors } = await signedIn("admin@parley.test");
    await page.goto(`${app.appUrl}/app/teams/${SEED.team}`);
    await page.getByRole("button", { name: en["teams.members.leave"]! }).click();
    await page.getByRole("dialog").getByRole("button", { name: en["teams.members.confirm.leave.action"]! }).click();
    await page.waitForURL((u) => u.pathname === "/app/bots", { timeout: 10_000 }).catch(async (e) => {
      throw new Error(`${(e as Error).message.split("\n")[0]} on ${pathOf(page)}: ${(await page.getByRole("dialog").innerText().catch(() => "")).replace(/\s+/g, " ")}`);
    });
    assert.deepEqual(await service(`/rest/v1/team_members?team_id=eq.${SEED.team}&user_id=eq.${ADMIN}&select=role`), []);
    assert.deepEqual(errors.filter((e) => !/Failed to load resource/.test(e)), []);
  });
});

describe("long e-mail addresses on a phone", () => {
  it("an invitation to a long address keeps the German team page within 360 px", async () => {
    const { page } = await signedIn("owner@parley.test", { width: 360, height: 800 });
    const email = `ein-sehr-langer-name-fuer-die-einladung-${Date.now()}@kundendienst.abteilung-nord.beispiel-unternehmen.parley.test`;
    await page.goto(`${app.appUrl}/de/app/teams/${SEED.team}`);
    await page.getByLabel(de["teams.invite.email"]!).fill(email);
    await page.getByRole("button", { name: de["teams.invite.submit"]! }).click();
    await page.getByText(de["teams.invite.sent"]!.replace("{email}", email)).waitFor();
    // The pending invitation lists the address too.
    await page.getByText(email, { exact: true }).first().waitFor();
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, viewport: window.innerWidth }));
    assert.ok(widths.page <= widths.viewport, `the page is ${widths.page}px wide at ${widths.viewport}px`);
  });
});
