// Teams in Chromium, in two languages, against the real stack: a new user signs in, creates a
// team and invites an admin; the admin accepts from the mailbox and creates a bot in the
// wizard; the owner promotes, demotes and removes them. Then the seeded owner edits a bot's
// settings and sets its chat password.
// Run: node --import tsx --test e2e/teams.spec.ts (builds frontend/dist when missing).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchBrowser, watchErrors } from "./lib/browser.ts";
import { startFullApp, type FullApp } from "./lib/stack.ts";
import { CONSENT_COOKIE, serializeConsent } from "../frontend/src/lib/consent.ts";

type Msgs = Record<string, string>;
const ART = path.join(import.meta.dirname, "artifacts");
const MSG_DIR = path.join(import.meta.dirname, "..", "frontend", "src", "i18n", "messages");
const readMessages = (code: string): Msgs =>
  Object.assign({}, ...["teams", "bots", "account", "auth"].map((area) => JSON.parse(fs.readFileSync(path.join(MSG_DIR, area, `${code}.json`), "utf8")) as Msgs));
const fill = (text: string, values: Record<string, string>) => text.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? "");

const BOT_PUBLIC = "c0000000-0000-4000-8000-000000000001";
const BOT_PASSWORD = "c0000000-0000-4000-8000-000000000002";
const PASSWORD = "correct-horse-9";

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

async function service(pathAndQuery: string, init: RequestInit = {}) {
  const res = await fetch(`${app.apiUrl}${pathAndQuery}`, {
    ...init,
    headers: { apikey: app.serviceRoleKey, authorization: `Bearer ${app.serviceRoleKey}`, "content-type": "application/json", ...(init.headers ?? {}) },
  });
  const body = await res.text();
  assert.ok(res.ok, `${pathAndQuery}: ${res.status} ${body}`);
  return body ? JSON.parse(body) : null;
}

/** A fresh, confirmed user made through the admin API. */
async function freshUser(tag: string): Promise<string> {
  const email = `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@parley.test`;
  await service("/auth/v1/admin/users", { method: "POST", body: JSON.stringify({ email, password: PASSWORD, email_confirm: true }) });
  return email;
}

/** A browser context signed in as the seeded owner through the real auth service. */
async function seededOwnerContext(colorScheme: "light" | "dark"): Promise<BrowserContext> {
  const context = await newContext(colorScheme);
  await context.addCookies(await app.sessionCookies("owner@parley.test", "parley-demo-123"));
  return context;
}

/** A browser context with the cookie choice already made, so the banner does not cover the forms. */
async function newContext(colorScheme: "light" | "dark"): Promise<BrowserContext> {
  const context = await browser.newContext({ colorScheme });
  await context.addCookies([{ name: CONSENT_COOKIE, value: encodeURIComponent(serializeConsent([])), url: app.appUrl }]);
  return context;
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: path.join(ART, `teams-${name}.png`), fullPage: true });
}

function assertNoErrors(errors: string[]) {
  // A refused request is shown in the page; the browser also logs the HTTP status, which is expected.
  assert.deepEqual(errors.filter((e) => !/Failed to load resource/.test(e)), []);
}

for (const [prefix, code] of [["", "en"], ["/de", "de"]] as const) {
  describe(`teams (${code})`, () => {
    const m = readMessages(code);

    it("create a team, invite an admin who accepts from the mailbox and builds a bot, then demote and remove them", async () => {
      const ownerEmail = await freshUser(`owner-${code}`);
      const adminEmail = `admin-${code}-${Date.now()}@parley.test`; // no account yet: gets auth's invite mail
      const teamName = `Crew ${code} ${Date.now() % 100000}`;

      // The owner signs in on the login page and lands on "new team".
      const ownerCtx = await newContext(code === "de" ? "dark" : "light");
      const owner = await ownerCtx.newPage();
      const ownerErrors = watchErrors(owner);
      await owner.goto(`${app.appUrl}${prefix}/app/auth/login?redirect=${encodeURIComponent(`${prefix}/app/teams/new`)}`);
      await owner.getByLabel(m["auth.field.email"]!).fill(ownerEmail);
      await owner.getByLabel(m["auth.field.password"]!, { exact: true }).fill(PASSWORD);
      await owner.getByRole("button", { name: m["auth.login.submit"], exact: true }).click();
      await owner.getByRole("heading", { name: m["teams.new.title"] }).waitFor({ timeout: 20_000 });

      await owner.getByLabel(m["teams.new.name"]!).fill(teamName);
      await owner.getByRole("button", { name: m["teams.new.submit"] }).click();
      await owner.waitForURL(/\/app\/teams\/[0-9a-f-]{36}$/, { timeout: 20_000 });
      const teamId = owner.url().split("/").pop()!;
      await owner.getByRole("heading", { name: teamName }).waitFor();

      // Invite the admin.
      await owner.getByLabel(m["teams.invite.email"]!).fill(adminEmail);
      await owner.getByRole("button", { name: m["teams.invite.submit"] }).click();
      await owner.getByText(fill(m["teams.invite.sent"]!, { email: adminEmail })).waitFor({ timeout: 20_000 });
      await owner.locator(`[data-invitation="${adminEmail}"]`).waitFor();
      await shot(owner, `team-owner-${code}`);

      // The admin follows the link in auth's invite mail and joins.
      const mail = await app.waitForMail(adminEmail);
      const link = app.linkIn(mail, /\/app\/auth\/invite\?token=[^#]+#token_hash=[0-9a-z_]+&type=invite$/);
      const adminCtx = await newContext("light");
      const admin = await adminCtx.newPage();
      const adminErrors = watchErrors(admin);
      await admin.goto(link);
      await admin.waitForURL(new RegExp(`${prefix}/app/auth/invite\\?token=`), { timeout: 20_000 });
      await admin.getByText(teamName).waitFor({ timeout: 20_000 });
      await admin.getByRole("button", { name: m["auth.invite.accept"] }).click();
      await admin.waitForURL(new RegExp(`${prefix}/app/teams/${teamId}$`), { timeout: 20_000 });
      // An admin sees the members read-only and no owner sections.
      await admin.getByText(m["teams.members.introAdmin"]!).waitFor();
      assert.equal(await admin.getByRole("heading", { name: m["teams.invite.title"] }).count(), 0);
      assert.equal(await admin.getByRole("heading", { name: m["teams.delete.title"] }).count(), 0);

      // The admin creates a bot in the wizard for the shared team.
      const botName = `Helper ${code} ${Date.now() % 100000}`;
      await admin.goto(`${app.appUrl}${prefix}/app/bots/wizard`);
      await admin.getByRole("heading", { name: m["bots.wizard.title"] }).waitFor({ timeout: 20_000 });
      assert.equal(await admin.locator("#team-switcher").inputValue(), teamId);
      await admin.getByLabel(m["bots.field.name"]!, { exact: true }).fill(botName);
      await admin.getByLabel(m["bots.field.description"]!, { exact: true }).fill("Answers questions about our crew.");
      await shot(admin, `wizard-${code}`);
      for (let i = 0; i < 4; i++) await admin.getByRole("button", { name: m["bots.wizard.next"], exact: true }).click();
      await admin.getByRole("button", { name: m["bots.wizard.create"], exact: true }).click();
      await admin.waitForURL(/\/app\/bots\/[0-9a-f-]{36}$/, { timeout: 20_000 });
      const botId = admin.url().split("/").pop()!;
      const [row] = await service(`/rest/v1/bots?id=eq.${botId}&select=team_id,name,language,model_provider,visibility`);
      assert.deepEqual(row, { team_id: teamId, name: botName, language: code, model_provider: "extractive", visibility: "private" });

      // The owner sees the bot and the new member; promotes, demotes, then removes them.
      await owner.goto(`${app.appUrl}${prefix}/app/bots`);
      await owner.getByText(botName).waitFor({ timeout: 20_000 });
      await owner.goto(`${app.appUrl}${prefix}/app/teams/${teamId}`);
      const row2 = owner.locator(`[data-member="${adminEmail}"]`);
      await row2.waitFor({ timeout: 20_000 });
      const roleSelect = row2.locator("select");
      const roleOf = async () => (await service(`/rest/v1/team_members?team_id=eq.${teamId}&select=role`)) as { role: string }[];
      await roleSelect.selectOption("owner");
      await waitUntil(async () => (await roleOf()).filter((r) => r.role === "owner").length === 2);
      await roleSelect.selectOption("admin");
      await waitUntil(async () => (await roleOf()).filter((r) => r.role === "owner").length === 1);
      await row2.getByRole("button", { name: m["teams.members.remove"], exact: true }).click();
      await owner.getByRole("dialog").getByRole("button", { name: m["teams.members.confirm.remove.action"], exact: true }).click();
      await row2.waitFor({ state: "detached", timeout: 20_000 });
      assert.equal((await roleOf()).length, 1);
      await shot(owner, `team-after-${code}`);

      // Removed: the admin no longer sees the team or its bot.
      await admin.goto(`${app.appUrl}${prefix}/app/bots`);
      await admin.getByRole("heading", { name: m["bots.list.title"], exact: true }).waitFor({ timeout: 20_000 });
      await admin.locator("#team-switcher").waitFor();
      assert.equal(await admin.locator("#team-switcher option", { hasText: teamName }).count(), 0);
      assert.equal(await admin.getByText(botName).count(), 0);

      assertNoErrors(ownerErrors);
      assertNoErrors(adminErrors);
      await ownerCtx.close();
      await adminCtx.close();
    });

    it("the seeded owner edits a bot's settings and sets its chat password", async () => {
      const context = await seededOwnerContext(code === "de" ? "dark" : "light");
      const page = await context.newPage();
      const errors = watchErrors(page);
      const botId = code === "en" ? BOT_PUBLIC : BOT_PASSWORD;
      await page.goto(`${app.appUrl}${prefix}/app/bots/${botId}/settings`);
      const description = page.getByLabel(m["bots.field.description"]!, { exact: true });
      await description.waitFor({ timeout: 20_000 });
      await description.fill(`Edited in ${code}`);
      await page.getByRole("button", { name: m["bots.settings.suggestedAdd"] }).click();
      await page.locator(".list-editor input").last().fill(`Question ${code}?`);
      await page.getByRole("button", { name: m["teams.common.save"], exact: true }).first().click();
      await page.getByText(m["teams.common.saved"]!).first().waitFor({ timeout: 20_000 });
      const [saved] = await service(`/rest/v1/bots?id=eq.${botId}&select=description,suggested_questions`);
      assert.equal(saved.description, `Edited in ${code}`);
      assert.ok((saved.suggested_questions as string[]).includes(`Question ${code}?`));

      const newPassword = `sesame-${code}-42`;
      await page.getByLabel(m["bots.visibility.passwordHint"]!, { exact: false }).check();
      const passwordField = page.getByLabel(code === "en" ? m["bots.field.password"]! : m["bots.settings.passwordChange"]!, { exact: true });
      await passwordField.fill(newPassword);
      await shot(page, `settings-${code}`);
      await page.getByRole("button", { name: m["bots.settings.saveAccess"] }).click();
      await waitUntil(async () => (await service(`/rest/v1/bots?id=eq.${botId}&select=visibility`))[0].visibility === "password");
      // The new password opens the bot (Acme Internal already had one: it is replaced).
      await waitUntil(async () => (await service("/rest/v1/rpc/check_bot_password", { method: "POST", body: JSON.stringify({ bot_id: botId, password: newPassword }) })) === true);
      await page.getByRole("form", { name: m["bots.settings.access"] }).getByText(m["teams.common.saved"]!).waitFor();
      assertNoErrors(errors);
      await context.close();
    });
  });
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 15_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 200));
  }
}
