// Auth in Chromium against the real stack: register → confirm from the dev mailbox →
// signed in → reload → sign out → wrong then right password → forgotten password → reset
// from the mailbox link → sign in with the new password; in English and German (the emails
// arrive in the user's language). Plus: an auth-guarded page sends to login and back, and
// the admin area refuses a team owner but admits the platform administrator.
// Run: node --import tsx --test e2e/auth.spec.ts
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, watchErrors } from "./lib/browser.ts";
import { startFullApp, type FullApp } from "./lib/stack.ts";
import { repoRoot } from "./lib/app.ts";
import { enrollTotp, totp } from "./lib/totp.ts";

const artifacts = path.join(repoRoot, "e2e", "artifacts");
const messagesDir = path.join(repoRoot, "frontend", "src", "i18n", "messages");

/** The app's own texts, so the journey asserts what a person reads in each language. */
function messages(code: string): (id: string, values?: Record<string, string>) => string {
  const read = (f: string) => JSON.parse(fs.readFileSync(f, "utf8")) as Record<string, string>;
  const all = {
    ...read(path.join(messagesDir, `${code}.json`)),
    ...read(path.join(messagesDir, "auth", `${code}.json`)),
  };
  return (id, values = {}) => {
    const text = all[id];
    assert.ok(text, `no message ${id} in ${code}`);
    return text.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? "");
  };
}

const MAIL = {
  en: { confirm: /Confirm your signup/, recovery: /Reset your password/ },
  de: { confirm: /Bestätigen Sie Ihre Registrierung/, recovery: /Setzen Sie Ihr Passwort zurück/ },
} as const;

let app: FullApp;
let browser: Browser;

before(async () => {
  fs.mkdirSync(artifacts, { recursive: true });
  app = await startFullApp();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await app?.stop();
});

async function see(page: Page, text: string) {
  await page.getByText(text, { exact: false }).first().waitFor({ timeout: 20_000 });
}

async function heading(page: Page): Promise<string> {
  const h = page.getByRole("heading", { level: 1 }).first();
  await h.waitFor({ timeout: 20_000 });
  return (await h.textContent()) ?? "";
}

/** Answer the cookie banner as a person would, so it covers nothing. */
async function dismissConsent(page: Page, t: ReturnType<typeof messages>) {
  const banner = page.getByTestId("consent-banner");
  await banner.waitFor({ timeout: 10_000 });
  await banner.getByRole("button", { name: t("consent.necessaryOnly"), exact: true }).click();
  await banner.waitFor({ state: "detached" });
}

async function submit(page: Page) {
  await page.locator("form.auth-form button[type=submit]").first().click();
}

async function signIn(page: Page, email: string, password: string) {
  await page.locator("input[name=email]").fill(email);
  await page.locator("input[name=password]").fill(password);
  await submit(page);
}

async function signOut(page: Page, t: ReturnType<typeof messages>) {
  await page.getByTestId("account-menu").getByRole("button").first().click();
  await page.getByRole("menuitem", { name: t("auth.menu.signOut") }).click();
}

describe("auth journeys in Chromium", () => {
  for (const [code, prefix] of [
    ["en", ""],
    ["de", "/de"],
  ] as const) {
    it(`register, confirm, stay signed in, sign out, sign in, reset the password (${code})`, async () => {
      const t = messages(code);
      const email = `e2e-${code}-${Date.now()}@example.test`;
      const name = `Tester ${code.toUpperCase()}`;
      const context = await browser.newContext({
        locale: code === "de" ? "de-DE" : "en-US",
        colorScheme: code === "de" ? "dark" : "light",
      });
      const page = await context.newPage();
      const errors = watchErrors(page);

      // Register: validation first, then the real thing.
      await page.goto(`${app.appUrl}${prefix}/app/auth/register`);
      assert.equal(await heading(page), t("page.auth.register.title"));
      await dismissConsent(page, t);
      await submit(page);
      await see(page, t("auth.validation.emailRequired"));
      await page.locator("input[name=name]").fill(name);
      await page.locator("input[name=email]").fill(email);
      await page.locator("input[name=password]").fill("short");
      await submit(page);
      await see(page, t("auth.validation.passwordTooShort", { min: "8" }));
      await page.locator("input[name=password]").fill("first-pass-123");
      await page.screenshot({ path: path.join(artifacts, `auth-register-${code}.png`) });
      await submit(page);
      await see(page, t("auth.register.checkInboxTitle"));

      // The confirmation email, in the user's language; open its link in this browser.
      const mail = await app.waitForMail(email, MAIL[code].confirm);
      await page.goto(app.linkIn(mail, /\/app\/auth\/confirm-email#token_hash=[0-9a-z_]+&type=signup$/));
      await page.waitForURL(new RegExp(`${prefix}/app/auth/confirm-email$`));
      await see(page, t("auth.confirm.success", { email }));

      // Signed in: the account menu shows the name; a reload keeps the session (cookies).
      await page.goto(`${app.appUrl}${prefix}/app/bots`);
      await page.getByTestId("account-menu").getByText(name).waitFor({ timeout: 20_000 });
      await page.reload();
      await page.getByTestId("account-menu").getByText(name).waitFor({ timeout: 20_000 });
      assert.match(page.url(), new RegExp(`${prefix}/app/bots$`));

      // Sign out → home, signed out.
      await signOut(page, t);
      await page.waitForURL(new RegExp(`${app.appUrl}${prefix}/?$`));
      await page
        .getByRole("link", { name: t("nav.login") })
        .first()
        .waitFor();

      // Wrong password, then the right one.
      await page.goto(`${app.appUrl}${prefix}/app/auth/login`);
      await signIn(page, email, "wrong-password-1");
      await see(page, t("auth.login.failed"));
      await see(page, t("auth.error.invalidCredentials"));
      await page.screenshot({ path: path.join(artifacts, `auth-login-error-${code}.png`) });
      await signIn(page, email, "first-pass-123");
      await page.waitForURL(new RegExp(`${prefix}/app/bots$`));
      await signOut(page, t);
      await page.waitForURL(new RegExp(`${app.appUrl}${prefix}/?$`));

      // Forgotten password → the recovery email → set a new password. In English the link is
      // opened on another device (a fresh browser context: the token hash needs nothing this
      // browser kept); in German the six-digit code from the e-mail is typed on the same page.
      await page.goto(`${app.appUrl}${prefix}/app/auth/forgotten-password`);
      await page.locator("input[name=email]").fill(email);
      await submit(page);
      await see(page, t("auth.forgot.sent"));
      const recovery = await app.waitForMail(email, MAIL[code].recovery);
      const otherDevice = await browser.newContext({ locale: code === "de" ? "de-DE" : "en-US" });
      const resetPage = code === "en" ? await otherDevice.newPage() : page;
      if (code === "en") {
        await resetPage.goto(app.linkIn(recovery, /\/app\/auth\/reset#token_hash=[0-9a-z_]+&type=recovery$/));
        await dismissConsent(resetPage, t);
      } else {
        const otp = /<strong>(\d{6})<\/strong>/.exec(recovery.html)?.[1];
        assert.ok(otp, "the recovery e-mail carries a six-digit code");
        await page.getByLabel(t("auth.code.label")).fill("000000");
        await page.getByRole("button", { name: t("auth.code.submit") }).click();
        await see(page, t("auth.code.invalid"));
        await page.getByLabel(t("auth.code.label")).fill(`${otp!.slice(0, 3)} ${otp!.slice(3)}`);
        await page.getByRole("button", { name: t("auth.code.submit") }).click();
      }
      await resetPage.waitForURL(new RegExp(`${prefix}/app/auth/reset$`));
      await see(resetPage, t("auth.reset.lead", { email }));
      await resetPage.locator("input[name=new-password]").fill("second-pass-456");
      await resetPage.locator("input[name=confirm-password]").fill("second-pass-789");
      await submit(resetPage);
      await see(resetPage, t("auth.validation.passwordsMismatch"));
      await resetPage.locator("input[name=confirm-password]").fill("second-pass-456");
      await submit(resetPage);
      await see(resetPage, t("auth.reset.done"));
      await otherDevice.close();

      // The old password no longer works; the new one does.
      if (code !== "en") {
        await page.goto(`${app.appUrl}${prefix}/app/bots`);
        await signOut(page, t);
        await page.waitForURL(new RegExp(`${app.appUrl}${prefix}/?$`));
      }
      await page.goto(`${app.appUrl}${prefix}/app/auth/login`);
      await signIn(page, email, "first-pass-123");
      await see(page, t("auth.login.failed"));
      await signIn(page, email, "second-pass-456");
      await page.waitForURL(new RegExp(`${prefix}/app/bots$`));
      await page.getByTestId("account-menu").getByText(name).waitFor();

      // Signing up again with the same address (another browser): the screen says what it says to
      // everyone, and the address's owner gets "you already have an account" in their language.
      const again = await browser.newContext();
      const againPage = await again.newPage();
      await againPage.goto(`${app.appUrl}${prefix}/app/auth/register`);
      await dismissConsent(againPage, t);
      await againPage.locator("input[name=name]").fill(name);
      await againPage.locator("input[name=email]").fill(email);
      await againPage.locator("input[name=password]").fill("third-pass-789");
      await submit(againPage);
      await see(againPage, t("auth.register.checkInboxTitle"));
      const notice = await app.waitForMail(email, code === "de" ? /bereits ein Parley-Konto/ : /already have a Parley account/);
      assert.match(app.linkIn(notice, /\/app\/auth\/forgotten-password$/), new RegExp(`${prefix}/app/auth/forgotten-password$`));
      await again.close();

      // Only the expected 400s of the wrong-password attempts (and, in German, the 403 of the
      // wrong code) reach the console.
      assert.deepEqual(
        errors.filter((e) => !/status of 400/.test(e) && !(code === "de" && /status of 403/.test(e))),
        [],
      );
      await context.close();
    });
  }

  for (const [code, prefix] of [
    ["en", ""],
    ["de", "/de"],
  ] as const) {
    it(`an auth-guarded page sends to login and back after sign-in (${code})`, async () => {
      const t = messages(code);
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${app.appUrl}${prefix}/app/my-chats`);
      await page.waitForURL(
        new RegExp(`${prefix}/app/auth/login\\?redirect=${encodeURIComponent(`${prefix}/app/my-chats`)}$`),
      );
      assert.equal(await heading(page), t("page.auth.login.title"));
      await signIn(page, "owner@parley.test", "parley-demo-123");
      await page.waitForURL(new RegExp(`${prefix}/app/my-chats$`));
      await context.close();
    });
  }

  it("never redirects off-site after sign-in", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${app.appUrl}/app/auth/login?redirect=${encodeURIComponent("//evil.example/steal")}`);
    await signIn(page, "owner@parley.test", "parley-demo-123");
    await page.waitForURL(`${app.appUrl}/app/bots`);
    await context.close();
  });

  it("the admin area refuses the team owner and admits the platform administrator after the code step", async () => {
    // Platform administrators act only at aal2: the seeded one gets an authenticator app first.
    const secret = await enrollTotp(app, { email: "platform-admin@parley.test", password: "parley-demo-123" });
    for (const [email, admitted] of [
      ["owner@parley.test", false],
      ["platform-admin@parley.test", true],
    ] as const) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${app.appUrl}/app/admin/dashboard`);
      await page.waitForURL(/\/app\/auth\/login\?redirect=/);
      await signIn(page, email, "parley-demo-123");
      if (admitted) {
        await page.waitForURL(/\/app\/auth\/mfa\?redirect=%2Fapp%2Fadmin%2Fdashboard/);
        await page.locator("input[name=totp-code]").fill(totp(secret));
        await submit(page);
      }
      await page.waitForURL(`${app.appUrl}/app/admin/dashboard`);
      // The login form's heading may still be on screen while the admin guard asks the database.
      await page.waitForFunction(() => {
        const h1 = document.querySelector("h1")?.textContent?.trim();
        return !!h1 && h1 !== "Log in";
      }, null, { timeout: 20_000 });
      const h = await heading(page);
      if (admitted) assert.notEqual(h, "Forbidden");
      else assert.equal(h, "Forbidden");
      await context.close();
    }
  });
});
