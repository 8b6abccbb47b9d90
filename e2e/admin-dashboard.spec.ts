// The admin dashboard on a real stack: the seeded platform administrator opens the dashboard and
// sees figures that match what the database holds after the journey adds a bot; edits a plan
// limit and finds it saved; turns link power-ups off and sees the owner's attempt to create one
// refused (and turns them back on); reads the providers (platform key, answers from the seed)
// and data sources (the seed's failed sync) sections; and opens the dashboard once in German.
// The administrator has an authenticator app (TOTP, enrolled in before()); every session of theirs
// passed its code step (aal2), without which the database refuses them.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchBrowser, watchErrors } from "./lib/browser.ts";
import { explain } from "./lib/fakes/owner-session.ts";
import { startFullApp, type FullApp } from "./lib/stack.ts";
import { aal2Session, enrollTotp } from "./lib/totp.ts";

const ART = path.join(import.meta.dirname, "artifacts");
const ADMIN = { email: "platform-admin@parley.test", password: "parley-demo-123" };
const OWNER = { email: "owner@parley.test", password: "parley-demo-123" };
const TEAM = "b0000000-0000-4000-8000-000000000001"; // "Acme Support"
const BOT = "c0000000-0000-4000-8000-000000000001"; // "Acme Help Center"

type Msgs = Record<string, string>;
const messages = (code: string): Msgs =>
  JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "..", "frontend", "src", "i18n", "messages", "adminDashboard", `${code}.json`), "utf8")) as Msgs;
const en = messages("en");

let app: FullApp;
let browser: Browser;

/** The administrator's authenticator secret: platform administrators act only after the code step (aal2). */
let adminTotp = "";

async function token(who: { email: string; password: string }): Promise<string> {
  if (who === ADMIN) return (await aal2Session(app, { ...ADMIN, totpSecret: adminTotp })).access_token;
  const res = await fetch(`${app.apiUrl}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { apikey: app.anonKey, "content-type": "application/json" },
    body: JSON.stringify(who),
  });
  assert.equal(res.status, 200, await res.clone().text());
  return ((await res.json()) as { access_token: string }).access_token;
}

/** PostgREST as a user: GET/POST a path under /rest/v1. */
async function rest(accessToken: string, pathAndQuery: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${app.apiUrl}/rest/v1/${pathAndQuery}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { apikey: app.anonKey, authorization: `Bearer ${accessToken}`, "content-type": "application/json", prefer: "return=representation" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json().catch(() => null) };
}

async function signedInAs(who: { email: string; password: string }): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext();
  await context.addCookies(who === ADMIN ? app.cookiesOf(await aal2Session(app, { ...ADMIN, totpSecret: adminTotp })) : await app.sessionCookies(who.email, who.password));
  const page = await context.newPage();
  return { context, page, errors: watchErrors(page) };
}

/** The cookie banner floats over the page's lower part: choose "necessary only" once it shows. */
async function dismissConsent(page: Page) {
  const necessary = page.getByRole("button", { name: "Necessary only" });
  if (await necessary.isVisible()) await necessary.click();
}

before(async () => {
  app = await startFullApp({ env: { PARLEY_OPENAI_API_KEY: "sk-e2e-platform-key" } });
  browser = await launchBrowser();
  adminTotp = await enrollTotp(app, ADMIN);
  fs.mkdirSync(ART, { recursive: true });
});

after(async () => {
  await browser?.close();
  await app?.stop();
});

describe("admin dashboard", () => {
  it("shows the platform's figures, with the bot the owner just created counted", async () => {
    const owner = await token(OWNER);
    const created = await rest(owner, "bots", { team_id: TEAM, name: "Dashboard e2e bot" });
    assert.equal(created.status, 201, JSON.stringify(created.json));
    const admin = await token(ADMIN);
    const totals = (await rest(admin, "rpc/admin_dashboard_totals", { days: 30 })).json as Array<{ bots: number; users: number }>;
    const dbBots = (await fetch(`${app.apiUrl}/rest/v1/bots?select=id`, { headers: { apikey: app.anonKey, authorization: `Bearer ${app.serviceRoleKey}` } }).then((r) => r.json())) as unknown[];
    assert.equal(totals[0]!.bots, dbBots.length, "the function counts every bot");

    const { context, page, errors } = await signedInAs(ADMIN);
    await explain(page, ART, "admin-dashboard", async () => {
      await page.goto(`${app.appUrl}/app/admin/dashboard`);
      await page.getByRole("heading", { name: en["adminDashboard.overview.title"], level: 1 }).waitFor({ timeout: 20_000 });
      await dismissConsent(page);
      await page.locator(".admin-headline").waitFor({ timeout: 20_000 });
      const bots = page.locator(".admin-headline > div").filter({ has: page.getByRole("term").filter({ hasText: new RegExp(`^${en["adminDashboard.total.bots"]}$`) }) });
      assert.equal((await bots.getByRole("definition").textContent())?.trim(), String(dbBots.length));
      // every chart is a titled figure whose numbers are also in a table
      const tokens = page.getByRole("figure", { name: en["adminDashboard.chart.tokens"] });
      await tokens.waitFor();
      assert.ok(await tokens.locator("table th", { hasText: "openai" }).count(), "the seed's OpenAI answers show as a series");
      for (const id of ["adminDashboard.figure.signups", "adminDashboard.chart.latency", "adminDashboard.chart.problems"]) {
        await page.getByRole("figure", { name: en[id] }).waitFor();
      }
      // the period picker changes the figures' period, kept in the address
      await page.getByRole("button", { name: "7 days" }).click();
      await page.waitForURL(/\?days=7$/);
      await page.locator(".period-switch button[aria-pressed=true]", { hasText: "7 days" }).waitFor();
      await page.getByText(en["adminDashboard.table.show"]!).click();
      assert.equal(await page.getByRole("table", { name: en["adminDashboard.table.caption"] }).locator("tbody tr").count(), 7);
      await page.screenshot({ path: path.join(ART, "admin-dashboard.png"), fullPage: true });
    });
    assert.deepEqual(errors, []);
    await context.close();
  });

  it("edits a plan limit and finds it saved", async () => {
    const { context, page, errors } = await signedInAs(ADMIN);
    await explain(page, ART, "admin-plans", async () => {
      await page.goto(`${app.appUrl}/app/admin/dashboard/plans`);
      await page.getByRole("heading", { name: en["adminDashboard.plans.title"], level: 1 }).waitFor({ timeout: 20_000 });
      await dismissConsent(page);
      const pro = page.getByRole("region", { name: /pro$/ });
      await pro.getByLabel(en["adminDashboard.plans.column.bots"]!, { exact: true }).fill("33");
      await pro.getByRole("button", { name: en["adminDashboard.plans.save"] }).click();
      await pro.getByRole("status").getByText(en["adminDashboard.plans.saved"]!).waitFor({ timeout: 20_000 });
      await page.reload();
      await page.getByRole("region", { name: /pro$/ }).getByLabel(en["adminDashboard.plans.column.bots"]!, { exact: true }).waitFor();
      assert.equal(await page.getByRole("region", { name: /pro$/ }).getByLabel(en["adminDashboard.plans.column.bots"]!, { exact: true }).inputValue(), "33");
    });
    const plan = (await rest(await token(OWNER), "plans?select=bots&id=eq.pro")).json as Array<{ bots: number }>;
    assert.equal(plan[0]!.bots, 33, "anyone reading plans sees the new limit");
    const log = (await rest(await token(ADMIN), "admin_audit_log?select=action,target_id&action=eq.plan.update")).json as Array<{ target_id: string }>;
    assert.deepEqual(log.map((l) => l.target_id), ["pro"]);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it("turns link power-ups off: creating one is refused until they are back on", async () => {
    const { context, page, errors } = await signedInAs(ADMIN);
    const owner = await token(OWNER);
    const link = (name: string) => ({ bot_id: BOT, type: "link", name, settings: { link_label: "Docs", link_url: "https://example.com/docs" } });
    await explain(page, ART, "admin-power-ups", async () => {
      await page.goto(`${app.appUrl}/app/admin/dashboard/power-ups`);
      await page.getByRole("heading", { name: en["adminDashboard.power-up.title"], level: 1 }).waitFor({ timeout: 20_000 });
      await dismissConsent(page);
      const table = page.getByRole("table", { name: en["adminDashboard.power-up.caption"] });
      await table.getByRole("button", { name: "Turn off Link" }).click();
      await page.getByRole("dialog").getByRole("button", { name: en["adminDashboard.feature.confirm"] }).click();
      await table.getByRole("row", { name: /^Link/ }).getByText(en["adminDashboard.feature.off"]!).waitFor({ timeout: 20_000 });

      const refused = await rest(owner, "power_ups", link("docs_off"));
      assert.equal(refused.status, 403);
      assert.equal((refused.json as { code: string }).code, "42501");
      assert.match((refused.json as { message: string }).message, /turned off/);

      await table.getByRole("button", { name: "Turn on Link" }).click();
      await table.getByRole("row", { name: /^Link/ }).getByText(en["adminDashboard.feature.on"]!, { exact: true }).waitFor({ timeout: 20_000 });
      assert.equal((await rest(owner, "power_ups", link("docs_on"))).status, 201);
    });
    assert.deepEqual(errors, []);
    await context.close();
  });

  it("shows the providers' platform keys and answers, and the data sources' failures", async () => {
    const { context, page, errors } = await signedInAs(ADMIN);
    await explain(page, ART, "admin-sections", async () => {
      await page.goto(`${app.appUrl}/app/admin/dashboard/providers`);
      const keys = page.getByRole("table", { name: en["adminDashboard.providers.keysCaption"] });
      await keys.waitFor({ timeout: 20_000 });
      await dismissConsent(page);
      const openai = (table: typeof keys) => table.locator("tr", { has: page.getByRole("rowheader", { name: "OpenAI", exact: true }) });
      assert.equal(await openai(keys).getByRole("cell").first().textContent(), en["adminDashboard.yes"], "the stack's PARLEY_OPENAI_API_KEY");
      const answers = page.getByRole("table", { name: en["adminDashboard.providers.statsCaption"] });
      await openai(answers).waitFor();
      assert.ok(!(await page.content()).includes("sk-e2e-platform-key"), "the key never reaches the browser");

      await page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "Data sources" }).click();
      await page.getByRole("heading", { name: en["adminDashboard.sync.title"], level: 1 }).waitFor({ timeout: 20_000 });
      const failures = page.getByRole("table", { name: en["adminDashboard.sync.failuresCaption"] });
      await failures.getByText("The site answered 503 Service Unavailable").waitFor({ timeout: 20_000 });
      await page.screenshot({ path: path.join(ART, "admin-data-sources.png"), fullPage: true });
    });
    assert.deepEqual(errors, []);
    await context.close();
  });

  it("speaks German under /de", async () => {
    const de = messages("de");
    const { context, page, errors } = await signedInAs(ADMIN);
    await explain(page, ART, "admin-dashboard-de", async () => {
      await page.goto(`${app.appUrl}/de/app/admin/dashboard/channels`);
      await page.getByRole("heading", { name: de["adminDashboard.channel.title"], level: 1 }).waitFor({ timeout: 20_000 });
      await page.getByRole("table", { name: de["adminDashboard.channel.caption"] }).waitFor({ timeout: 20_000 });
      await page.locator(".period-switch button[aria-pressed=true]", { hasText: "30 Tage" }).waitFor();
    });
    assert.deepEqual(errors, []);
    await context.close();
  });
});
