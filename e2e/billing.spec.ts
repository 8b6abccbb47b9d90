// Billing on a real stack with the fake Stripe (e2e/lib/fakes/stripe.ts): the pricing page reads
// the plans table; a new owner on free meets the bot limit through the REST API, upgrades through
// the fake's checkout page (which "pays", sends signed webhooks and returns to the success page),
// sees the limits lift, cancels at the period's end, and when Stripe ends the subscription sees
// the team back on free with its bots kept. In German (the journey) and English (pricing).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser } from "playwright-core";
import { launchBrowser, watchErrors } from "./lib/browser.ts";
import { serveFake, type Served } from "./lib/fakes/serve.ts";
import { explain } from "./lib/fakes/owner-session.ts";
import { fakeStripe, type FakeStripe } from "./lib/fakes/stripe.ts";
import { startFullApp, type FullApp } from "./lib/stack.ts";

const ART = path.join(import.meta.dirname, "artifacts");
const PASSWORD = "billing-demo-123";
type Msgs = Record<string, string>;
const messages = (area: string, code: string): Msgs =>
  JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "..", "frontend", "src", "i18n", "messages", area, `${code}.json`), "utf8")) as Msgs;

let app: FullApp;
let browser: Browser;
let stripe: FakeStripe;
let served: Served;

async function rest(pathAndQuery: string, init: RequestInit & { token?: string } = {}) {
  const res = await fetch(`${app.apiUrl}${pathAndQuery}`, {
    ...init,
    headers: {
      apikey: app.anonKey,
      authorization: `Bearer ${init.token ?? app.serviceRoleKey}`,
      "content-type": "application/json",
      prefer: "return=representation",
      ...(init.headers as Record<string, string> | undefined),
    },
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

before(async () => {
  stripe = fakeStripe({ secretKey: "sk_test_e2e_billing", webhookSecret: "whsec_e2e_billing" });
  served = await serveFake(stripe.handle);
  app = await startFullApp({
    env: { PARLEY_STRIPE_API_BASE: served.url, PARLEY_STRIPE_SECRET_KEY: "sk_test_e2e_billing", PARLEY_STRIPE_WEBHOOK_SECRET: "whsec_e2e_billing" },
  });
  stripe.setWebhookUrl(`${app.apiUrl}/functions/v1/stripe-webhook`);
  browser = await launchBrowser();
  fs.mkdirSync(ART, { recursive: true });
});

after(async () => {
  await browser?.close();
  await app?.stop();
  await served?.close();
});

describe("billing", () => {
  it("pricing (en) shows the plans and prices from the plans table", async () => {
    const m = messages("billing", "en");
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = watchErrors(page);
    await explain(page, ART, "pricing-en", async () => {
      await page.goto(`${app.appUrl}/pricing`);
      await page.getByRole("heading", { name: m["pricing.title"], level: 1 }).waitFor({ timeout: 20_000 });
      const pro = page.locator('[data-plan="pro"]');
      await pro.getByText("$19.00").waitFor();
      await pro.getByText("20 bots").waitFor();
      await page.getByRole("button", { name: m["billing.interval.year"] }).click();
      await pro.getByText("$190.00").waitFor();
      await page.locator('[data-plan="free"]').getByText("3 bots").waitFor();
    });
    assert.deepEqual(errors, []);
    await context.close();
  });

  it("free → upgrade through checkout → limits lift → cancel → free at the period's end (de)", async () => {
    const m = messages("billing", "de");
    const email = `billing-${Date.now()}@parley.test`;
    const created = await rest("/auth/v1/admin/users", { method: "POST", body: JSON.stringify({ email, password: PASSWORD, email_confirm: true }) });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const userId = created.body.id as string;
    const team = (await rest(`/rest/v1/team_members?select=team_id&user_id=eq.${userId}`)).body[0].team_id as string;
    for (const name of ["Eins", "Zwei", "Drei"]) {
      assert.equal((await rest("/rest/v1/bots", { method: "POST", body: JSON.stringify({ team_id: team, name }) })).status, 201);
    }
    // The 4th bot through the REST API, as the owner: the plan limit error.
    const login = await fetch(`${app.apiUrl}/auth/v1/token?grant_type=password`, {
      method: "POST", headers: { apikey: app.anonKey, "content-type": "application/json" }, body: JSON.stringify({ email, password: PASSWORD }),
    });
    const token = ((await login.json()) as { access_token: string }).access_token;
    const fourth = await rest("/rest/v1/bots", { method: "POST", token, body: JSON.stringify({ team_id: team, name: "Vier" }) });
    assert.equal(fourth.status, 402);
    assert.equal(fourth.body.code, "PT402");
    assert.equal(fourth.body.details, "bots");

    const context = await browser.newContext();
    await context.addCookies(await app.sessionCookies(email, PASSWORD));
    const page = await context.newPage();
    const errors = watchErrors(page);
    const botsMeter = page.locator('[data-limit="bots"]');
    const bots = messages("bots", "de");
    await explain(page, ART, "billing-limit-de", async () => {
      // The same limit in the app: the wizard's 4th bot is refused, saying which limit, with a way out.
      await page.goto(`${app.appUrl}/de/app/bots/wizard`);
      await page.getByLabel(bots["bots.field.name"]!).fill("Vier");
      for (let i = 0; i < 4; i++) await page.getByRole("button", { name: bots["bots.wizard.next"] }).click();
      await page.getByRole("button", { name: bots["bots.wizard.create"] }).click();
      await page.getByText(m["billing.error.planLimit"]!.replace(/\{limit, select.*\}\}/, "Bots")).waitFor({ timeout: 20_000 });
      await page.getByRole("link", { name: m["billing.error.upgradeLink"] }).click();
      await page.waitForURL(/\/de\/app\/billing$/, { timeout: 20_000 });
    });
    await explain(page, ART, "billing-de", async () => {
      await page.goto(`${app.appUrl}/de/app/billing`);
      await page.getByRole("heading", { name: m["billing.title"], level: 1 }).waitFor({ timeout: 20_000 });
      await page.getByTestId("current-plan").getByText("Kostenlos").waitFor();
      await botsMeter.getByText("3 / 3").waitFor();
      assert.equal(await botsMeter.getAttribute("data-full"), "true");

      await page.getByRole("button", { name: m["billing.action.upgrade"]!.replace("{plan}", "Pro") }).click();
      await page.waitForURL(/\/checkout\/cs_test_/, { timeout: 20_000 });
      await page.getByRole("button", { name: "Pay" }).click();
      await page.waitForURL(/\/de\/app\/billing\/success/, { timeout: 20_000 });
      await page.getByTestId("success-plan").getByText("Pro").waitFor({ timeout: 20_000 });
      await page.screenshot({ path: path.join(ART, "billing-success-de.png"), fullPage: true });

      await page.getByRole("link", { name: m["billing.back"] }).click();
      await page.getByTestId("current-plan").getByText("Pro").waitFor({ timeout: 20_000 });
      await botsMeter.getByText("3 / 20").waitFor();
      await page.getByTestId("renewal").waitFor();
      await page.getByRole("cell", { name: m["billing.invoices.status.paid"] }).waitFor();
    });
    const lifted = await rest("/rest/v1/bots", { method: "POST", token, body: JSON.stringify({ team_id: team, name: "Vier" }) });
    assert.equal(lifted.status, 201, "on pro the 4th bot is created");

    await explain(page, ART, "billing-cancel-de", async () => {
      await page.reload();
      await botsMeter.getByText("4 / 20").waitFor({ timeout: 20_000 });
      await page.getByRole("button", { name: m["billing.action.downgrade"] }).click();
      await page.getByRole("button", { name: m["billing.action.resume"] }).waitFor({ timeout: 20_000 });
      await page.getByTestId("renewal").getByText(/Endet am/).waitFor();
    });

    // The period ends: Stripe deletes the subscription and tells the webhook.
    const sub = (await rest(`/rest/v1/subscriptions?select=stripe_subscription_id&team_id=eq.${team}`)).body[0].stripe_subscription_id as string;
    await stripe.endPeriod(sub);
    assert.equal(stripe.sent.at(-1)?.status, 200);

    await explain(page, ART, "billing-downgraded-de", async () => {
      await page.reload();
      await page.getByTestId("current-plan").getByText("Kostenlos").waitFor({ timeout: 20_000 });
      await botsMeter.getByText("4 / 3").waitFor();
      await page.screenshot({ path: path.join(ART, "billing-downgraded-de.png"), fullPage: true });
    });
    const kept = await rest(`/rest/v1/bots?select=id&team_id=eq.${team}`);
    assert.equal(kept.body.length, 4, "the downgrade deleted nothing");
    // The wizard's refused insert is the one failed request the browser logs (402, expected).
    assert.deepEqual(errors.filter((e) => !/status of 402/.test(e)), []);
    assert.equal(errors.length, 1);
    await context.close();
  });
});
