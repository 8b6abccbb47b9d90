// The admin area on a real stack: a signed-out visitor is sent to the login and a signed-in
// non-administrator gets 403; the seeded platform administrator finds a user by search, opens
// them, bans them (auth then refuses their sign-in) and unbans them (auth lets them in again),
// moves their team to another plan, exports the list as CSV and finds every action in the audit
// log; one list is used in German (headers, sorting with aria-sort). The administrator has an
// authenticator app (TOTP, enrolled in before()) and each session passed its code step (aal2).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, watchErrors } from "./lib/browser.ts";
import { explain, SEED_OWNER } from "./lib/fakes/owner-session.ts";
import { startFullApp, type FullApp } from "./lib/stack.ts";
import { aal2Session, enrollTotp } from "./lib/totp.ts";

const ADMIN = { email: "platform-admin@parley.test", password: "parley-demo-123" };
const TARGET = { email: "visitor@parley.test", password: "parley-demo-123" };
const ART = path.join(import.meta.dirname, "artifacts");

type Msgs = Record<string, string>;
const messages = (code: string): Msgs =>
  JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "..", "frontend", "src", "i18n", "messages", "admin", `${code}.json`), "utf8")) as Msgs;
const en = messages("en");
const de = messages("de");
const fill = (text: string, values: Record<string, string>) => text.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? "");

let app: FullApp;
let browser: Browser;

/** The administrator's authenticator secret: platform administrators act only after the code step (aal2). */
let adminTotp = "";

before(async () => {
  app = await startFullApp();
  browser = await launchBrowser();
  adminTotp = await enrollTotp(app, ADMIN);
  fs.mkdirSync(ART, { recursive: true });
});

after(async () => {
  await browser?.close();
  await app?.stop();
});

async function pageAs(who: { email: string; password: string } | null): Promise<Page> {
  const context = await browser.newContext({ acceptDownloads: true });
  if (who === ADMIN) await context.addCookies(app.cookiesOf(await aal2Session(app, { ...ADMIN, totpSecret: adminTotp })));
  else if (who) await context.addCookies(await app.sessionCookies(who.email, who.password));
  return context.newPage();
}

/** Does auth accept this password sign-in right now? */
async function canSignIn(who: { email: string; password: string }): Promise<boolean> {
  const res = await fetch(`${app.apiUrl}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { apikey: app.anonKey, "content-type": "application/json" },
    body: JSON.stringify(who),
  });
  return res.ok;
}

async function confirmIn(page: Page, label: string) {
  await page.getByRole("button", { name: label, exact: true }).first().click();
  const dialog = page.getByRole("dialog");
  await dialog.waitFor();
  await dialog.getByRole("button", { name: label, exact: true }).click();
  await dialog.waitFor({ state: "hidden" });
}

describe("admin area", () => {
  it("sends a signed-out visitor to the login and answers 403 to a signed-in non-administrator", async () => {
    const anon = await pageAs(null);
    await anon.goto(`${app.appUrl}/app/admin/users`);
    await anon.waitForURL(/\/app\/auth\/login\?redirect=%2Fapp%2Fadmin%2Fusers$/);
    await anon.context().close();

    const owner = await pageAs(SEED_OWNER);
    await explain(owner, ART, "admin-403", async () => {
      await owner.goto(`${app.appUrl}/app/admin`);
      await owner.locator('main.error-page[data-status="403"]').waitFor();
      assert.equal(await owner.getByRole("heading", { name: en["admin.home.title"] }).count(), 0);
    });
    await owner.context().close();
  });

  it("finds a user, bans and unbans them, moves their team's plan, exports CSV, and sees it all in the audit log", async () => {
    const page = await pageAs(ADMIN);
    const errors = watchErrors(page);
    await explain(page, ART, "admin-journey", async () => {
      // The landing page: quick search.
      await page.goto(`${app.appUrl}/app/admin`);
      await page.getByRole("heading", { level: 1, name: en["admin.home.title"] }).waitFor();
      await page.getByLabel(en["admin.home.searchLabel"]).fill("visitor@parley");
      await page.getByRole("button", { name: en["admin.search.submit"] }).click();
      await page.getByRole("link", { name: TARGET.email }).waitFor();

      // The users list: server-side search, then open the user.
      await page.goto(`${app.appUrl}/app/admin/users`);
      await page.getByRole("table").waitFor();
      await page.getByLabel(en["admin.search.users"]).fill(TARGET.email);
      await page.getByRole("button", { name: en["admin.search.submit"] }).click();
      await page.waitForURL(/q=visitor%40parley\.test/);
      // The previous page stays (aria-busy) until the search's answer replaces it.
      await page.locator('table.admin-table:not([aria-busy="true"])').waitFor();
      await page.waitForFunction(() => document.querySelectorAll("table.admin-table tbody tr").length === 1);
      assert.match(await page.locator("table.admin-table tbody tr").innerText(), /visitor@parley\.test/, "the search finds exactly that user");

      // CSV of the current filter.
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: en["admin.export.csv"] }).click()]);
      const csv = fs.readFileSync(await download.path(), "utf8");
      assert.match(csv.split("\r\n")[0]!, /^id,email,display_name,sign_in_methods,/);
      assert.equal(csv.trim().split("\r\n").length, 2, "header and the one matching user");
      assert.match(csv, /visitor@parley\.test/);

      await page.getByRole("link", { name: TARGET.email }).click();
      await page.getByRole("heading", { level: 1, name: TARGET.email }).waitFor();

      // Ban: auth refuses the user's sign-in.
      await confirmIn(page, en["admin.user.ban"]!);
      await page.getByText(fill(en["admin.user.bannedUntil"]!, { until: "" }).trim()).waitFor();
      assert.equal(await canSignIn(TARGET), false, "a banned user cannot sign in");

      // Unban: they can again.
      await confirmIn(page, en["admin.user.unban"]!);
      await page.getByRole("button", { name: en["admin.user.ban"], exact: true }).waitFor();
      assert.equal(await canSignIn(TARGET), true, "an unbanned user signs in again");

      // Move the user's (personal) team to the Pro plan.
      const team = page.locator(".admin-team-list li").first();
      await team.locator("select").selectOption("pro");
      await team.getByRole("button", { name: en["admin.plan.move"] }).click();
      await team.getByRole("status").waitFor();

      // The audit log: every action, with who did it.
      await page.getByRole("link", { name: en["admin.nav.auditLog"] }).click();
      await page.getByRole("heading", { level: 1, name: en["admin.nav.auditLog"] }).waitFor();
      for (const action of ["user.ban", "user.unban", "team.plan_change"]) {
        const row = page.locator("table.admin-table tbody tr", { hasText: action });
        await row.first().waitFor();
        const text = await row.first().innerText();
        assert.match(text, /platform-admin@parley\.test/);
        assert.ok(text.includes(en[`admin.action.${action.replace(/_/g, "-")}`]!), `${action} named in the reader's language: ${text}`);
      }
      const planRow = await page.locator("table.admin-table tbody tr", { hasText: "team.plan_change" }).first().innerText();
      assert.match(planRow, /"plan_id":"free"[\s\S]*"plan_id":"pro"/, "before and after");
    });
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it("shows a list in German with sortable headers (aria-sort) and keyboard-reachable sort buttons", async () => {
    const page = await pageAs(ADMIN);
    await explain(page, ART, "admin-de", async () => {
      await page.goto(`${app.appUrl}/de/app/admin/teams`);
      await page.getByRole("heading", { level: 1, name: de["admin.nav.teams"] }).waitFor();
      await page.locator("caption", { hasText: fill(de["admin.table.caption"]!, { list: de["admin.nav.teams"]!, page: "1" }) }).waitFor();
      const created = page.getByRole("columnheader", { name: de["admin.col.created"] });
      assert.equal(await created.getAttribute("aria-sort"), "descending");
      const byName = page.getByRole("button", { name: fill(de["admin.table.sortBy"]!, { column: de["admin.col.name"]! }) });
      await byName.focus();
      await page.keyboard.press("Enter");
      await page.waitForURL(/sort=name/);
      const nameHeader = page.getByRole("columnheader", { name: de["admin.col.name"] });
      await page.locator('th[aria-sort="descending"]', { hasText: de["admin.col.name"] }).waitFor();
      assert.equal(await nameHeader.getAttribute("aria-sort"), "descending");
      assert.equal(await created.getAttribute("aria-sort"), "none");
      await page.keyboard.press("Enter");
      await page.waitForURL(/dir=asc/);
      await page.locator('th[aria-sort="ascending"]', { hasText: de["admin.col.name"] }).waitFor();
      assert.equal(await nameHeader.getAttribute("aria-sort"), "ascending");
      const names = await page.locator("table.admin-table tbody tr td:first-child").allInnerTexts();
      assert.ok(names.length > 1);
      assert.deepEqual(names, [...names].sort((a, b) => a.localeCompare(b)), "sorted by name, ascending");
      await page.getByRole("link", { name: de["admin.nav.auditLog"] }).waitFor();
    });
    await page.context().close();
  });
  it("opens a bot from the bots list, unlists it from the gallery and deletes another after typing its name", async () => {
    const page = await pageAs(ADMIN);
    await explain(page, ART, "admin-bot", async () => {
      await page.goto(`${app.appUrl}/app/admin/bots?listed=true`);
      await page.getByRole("link", { name: "Acme Help Center" }).click();
      await page.getByRole("heading", { level: 1, name: "Acme Help Center" }).waitFor();
      await confirmIn(page, en["admin.bot.unlist"]!);
      await page.locator("table.admin-table tbody tr", { hasText: "bot.unlist" }).waitFor();
      assert.equal(await page.getByRole("button", { name: en["admin.bot.unlist"], exact: true }).count(), 0, "no longer listed");
      await page.goto(`${app.appUrl}/app/admin/bots?listed=true`);
      await page.locator('table.admin-table:not([aria-busy="true"])').waitFor();
      assert.equal(await page.getByRole("link", { name: "Acme Help Center" }).count(), 0, "gone from the gallery filter");

      await page.goto(`${app.appUrl}/app/admin/bots?q=Acme%20Internal`);
      await page.getByRole("link", { name: "Acme Internal" }).click();
      await page.getByRole("heading", { level: 1, name: "Acme Internal" }).waitFor();
      await page.getByRole("button", { name: en["admin.bot.delete"], exact: true }).click();
      const dialog = page.getByRole("dialog");
      const confirm = dialog.getByRole("button", { name: en["admin.bot.delete"], exact: true });
      assert.equal(await confirm.isDisabled(), true, "locked until the name is typed");
      await dialog.getByRole("textbox").fill("Acme Internal");
      await confirm.click();
      await page.waitForURL(/\/app\/admin\/bots$/);
      await page.goto(`${app.appUrl}/app/admin/audit-log?q=bot.delete`);
      const row = page.locator("table.admin-table tbody tr", { hasText: "bot.delete" });
      await row.waitFor();
      assert.match(await row.innerText(), /"name":"Acme Internal"/);
    });
    await page.context().close();
  });
});
