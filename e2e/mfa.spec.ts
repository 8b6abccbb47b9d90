// Two-factor authentication on a real stack, in Chromium: an account enrols an authenticator app
// (TOTP) in /app/account (QR code and key shown, the first code confirms it); its next password
// sign-in stops at the code step, which offers signing out, refuses a wrong code and lets the
// right one in. A platform administrator without a factor is refused the admin area and led to
// set one up, after which it opens. The password is changed with a code mailed by
// auth.reauthenticate() (secure password change is on in supabase/config.toml).
// Run: node --import tsx --test e2e/mfa.spec.ts (builds frontend/dist when missing).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, watchErrors } from "./lib/browser.ts";
import { repoRoot } from "./lib/app.ts";
import { startFullApp, type FullApp } from "./lib/stack.ts";
import { passwordSession, totp, wrongTotp } from "./lib/totp.ts";

const messagesDir = path.join(repoRoot, "frontend", "src", "i18n", "messages");
const read = (f: string) => JSON.parse(fs.readFileSync(path.join(messagesDir, f), "utf8")) as Record<string, string>;
/** The app's English texts, so the journey asserts what a person reads. */
const t = { ...read("en.json"), ...read("auth/en.json"), ...read("account/en.json") };

const ADMIN = { email: "platform-admin@parley.test", password: "parley-demo-123" };

let app: FullApp;
let browser: Browser;

before(async () => {
  app = await startFullApp();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await app?.stop();
});

/** A confirmed account of its own for one journey (through auth's admin API). */
async function newAccount(): Promise<{ email: string; password: string }> {
  const who = { email: `mfa-${crypto.randomUUID()}@parley.test`, password: "first-pass-123" };
  const res = await fetch(`${app.apiUrl}/auth/v1/admin/users`, {
    method: "POST",
    headers: { apikey: app.serviceRoleKey, authorization: `Bearer ${app.serviceRoleKey}`, "content-type": "application/json" },
    body: JSON.stringify({ ...who, email_confirm: true }),
  });
  assert.equal(res.status, 200, await res.clone().text());
  return who;
}

async function signedInPage(who: { email: string; password: string }): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ locale: "en-US" });
  await context.addCookies(await app.sessionCookies(who.email, who.password));
  const page = await context.newPage();
  return { page, errors: watchErrors(page) };
}

/** The cookie banner floats over the page's lower part: choose "necessary only" once it shows. */
async function dismissConsent(page: Page) {
  const necessary = page.getByRole("button", { name: "Necessary only" });
  if (await necessary.isVisible()) await necessary.click();
}

async function signInWithPassword(page: Page, who: { email: string; password: string }, redirect: string) {
  await page.goto(`${app.appUrl}/app/auth/login?redirect=${encodeURIComponent(redirect)}`);
  await page.locator("input[name=email]").fill(who.email);
  await page.locator("input[name=password]").fill(who.password);
  await page.locator("form.auth-form button[type=submit]").first().click();
}

/** Enrols an authenticator app in /app/account as a person does; returns the key shown. */
async function enrolInAccount(page: Page): Promise<string> {
  const panel = page.getByTestId("two-factor-panel");
  await panel.waitFor({ timeout: 20_000 });
  await dismissConsent(page);
  await panel.getByText(t["account.mfa.none"]!).waitFor({ timeout: 20_000 });
  await panel.getByLabel(t["account.mfa.nameLabel"]!).fill("Phone");
  await panel.getByRole("button", { name: t["account.mfa.add"]! }).click();
  const qr = panel.getByRole("img", { name: t["account.mfa.qrAlt"]! });
  await qr.waitFor();
  assert.match((await qr.getAttribute("src")) ?? "", /^data:image\/svg\+xml/, "the QR code is auth's SVG");
  assert.ok(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), "the QR code renders (its SVG escaped for the data URI)");
  const secret = (await panel.getByTestId("mfa-secret").textContent())!.trim();
  assert.match(secret, /^[A-Z2-7]{16,}$/, "the key to type by hand");
  await panel.getByLabel(t["account.mfa.codeLabel"]!).fill(totp(secret));
  await panel.getByRole("button", { name: t["account.mfa.verify"]! }).click();
  await panel.getByText(t["account.mfa.added"]!).waitFor({ timeout: 20_000 });
  await panel.getByTestId("mfa-factor").getByText("Phone").waitFor();
  return secret;
}

describe("two-factor authentication", () => {
  it("enrol in /app/account; the next sign-in asks for the code: sign out is offered, a wrong code is refused, the right one enters", async () => {
    const who = await newAccount();
    const { page, errors } = await signedInPage(who);
    await page.goto(`${app.appUrl}/app/account`);
    const secret = await enrolInAccount(page);
    await page.context().close();

    const context = await browser.newContext({ locale: "en-US" });
    const step = await context.newPage();
    const stepErrors = watchErrors(step);
    await signInWithPassword(step, who, "/app/account");
    await step.waitForURL(/\/app\/auth\/mfa\?redirect=%2Fapp%2Faccount$/, { timeout: 20_000 });
    await step.getByText(t["auth.mfa.lead"]!).waitFor();
    // Someone without the phone can leave: signing out ends at the login, and the app stays closed.
    await step.getByRole("button", { name: t["auth.mfa.signOut"]! }).click();
    await step.waitForURL(/\/app\/auth\/login$/);
    await step.goto(`${app.appUrl}/app/account`);
    await step.waitForURL(/\/app\/auth\/login\?redirect=/);

    await signInWithPassword(step, who, "/app/account");
    await step.waitForURL(/\/app\/auth\/mfa\?/, { timeout: 20_000 });
    const code = step.getByLabel(t["auth.mfa.codeLabel"]!);
    await code.fill(wrongTotp(secret));
    await step.keyboard.press("Enter");
    await step.getByText(t["auth.mfa.codeWrong"]!).waitFor({ timeout: 20_000 });
    assert.equal(await code.getAttribute("aria-invalid"), "true");
    assert.match(step.url(), /\/app\/auth\/mfa\?/, "a wrong code does not let anyone in");
    // The app's pages stay closed meanwhile: the guard sends the aal1 session back to the code step.
    await step.goto(`${app.appUrl}/app/bots`);
    await step.waitForURL(/\/app\/auth\/mfa\?redirect=%2Fapp%2Fbots$/);
    await step.getByLabel(t["auth.mfa.codeLabel"]!).fill(totp(secret));
    await step.getByRole("button", { name: t["auth.mfa.submit"]! }).click();
    await step.waitForURL(`${app.appUrl}/app/bots`, { timeout: 20_000 });
    await step.goto(`${app.appUrl}/app/account`);
    await step.getByTestId("mfa-factor").getByText("Phone").waitFor({ timeout: 20_000 });
    assert.deepEqual([...errors, ...stepErrors].filter((e) => !/status of 422/.test(e)), []);
    await context.close();
  });

  it("a platform administrator without a second factor is refused the admin area and led to set one up", async () => {
    const aal1 = await passwordSession(app, ADMIN);
    const rpc = await fetch(`${app.apiUrl}/rest/v1/rpc/admin_dashboard_totals`, {
      method: "POST",
      headers: { apikey: app.anonKey, authorization: `Bearer ${aal1.access_token}`, "content-type": "application/json" },
      body: JSON.stringify({ days: 7 }),
    });
    assert.equal(rpc.status, 403, "the database refuses an administrator at aal1");

    const { page } = await signedInPage(ADMIN);
    await page.goto(`${app.appUrl}/app/admin/users`);
    await page.waitForURL(/\/app\/auth\/mfa\?redirect=%2Fapp%2Fadmin%2Fusers&reason=admin$/, { timeout: 20_000 });
    await page.getByRole("heading", { level: 1, name: t["auth.mfa.adminTitle"]! }).waitFor({ timeout: 20_000 });
    await page.getByTestId("mfa-admin-required").getByText(t["auth.mfa.adminNeedsFactor"]!).waitFor();
    assert.equal(await page.locator("table").count(), 0, "no admin list is shown");
    await page.getByRole("link", { name: t["auth.mfa.setUp"]! }).click();
    await page.waitForURL(/\/app\/account#two-factor$/);
    await enrolInAccount(page);
    // Confirming the first code stepped this session up (aal2): the admin area opens.
    await page.goto(`${app.appUrl}/app/admin/users`);
    await page.waitForURL(`${app.appUrl}/app/admin/users`);
    await page.locator("table").first().waitFor({ timeout: 20_000 });
    await page.context().close();
  });

  it("changes the password with a code sent by e-mail instead of the current password", async () => {
    const who = await newAccount();
    const { page, errors } = await signedInPage(who);
    await page.goto(`${app.appUrl}/app/account`);
    await page.getByLabel(t["account.password.current"]!).waitFor({ timeout: 20_000 });
    await dismissConsent(page);
    await page.getByRole("button", { name: t["account.password.sendCode"]! }).click();
    const codeField = page.getByLabel(t["account.password.code"]!);
    await codeField.waitFor({ timeout: 20_000 });
    const mail = await app.waitForMail(who.email, /Your verification code/);
    const code = /<strong>\s*(\d{6,10})\s*<\/strong>/.exec(mail.html)?.[1];
    assert.ok(code, "the mail carries the code");
    await codeField.fill(code);
    await page.getByLabel(t["account.password.new"]!, { exact: true }).fill("second-pass-456");
    await page.getByLabel(t["account.password.repeat"]!).fill("second-pass-456");
    await page.getByRole("button", { name: t["account.password.submit"]! }).click();
    await page.getByText(t["account.password.changed"]!).waitFor({ timeout: 20_000 });
    await assert.rejects(passwordSession(app, who), /400/, "the old password no longer signs in");
    assert.ok((await passwordSession(app, { ...who, password: "second-pass-456" })).access_token, "the new one does");
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});
