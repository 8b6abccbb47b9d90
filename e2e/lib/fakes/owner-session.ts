// A signed-in browser context without the login screen (the session comes from the real
// auth service and goes into the app's cookie, as @supabase/ssr writes it), and failure
// reports for the data-source journeys.
import assert from "node:assert/strict";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { FullApp } from "../stack.ts";

export const SEED_OWNER = { email: "owner@parley.test", password: "parley-demo-123" };

export const authCookieName = (app: FullApp) => `sb-${new URL(app.apiUrl).hostname.split(".")[0]}-auth-token`;

/** Signs in through the real auth service and hands the session to the app's cookie. */
export async function signedInContext(browser: Browser, app: FullApp, colorScheme: "light" | "dark" = "light"): Promise<BrowserContext> {
  const res = await fetch(`${app.apiUrl}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { apikey: app.anonKey, "content-type": "application/json" },
    body: JSON.stringify(SEED_OWNER),
  });
  assert.equal(res.status, 200, await res.clone().text());
  const session = (await res.json()) as Record<string, unknown>;
  const value = `base64-${Buffer.from(JSON.stringify(session)).toString("base64url")}`;
  // @supabase/ssr splits cookies over 3180 characters into name.0, name.1, ...
  const name = authCookieName(app);
  const parts = value.length <= 3180 ? [[name, value]] : (value.match(/.{1,3180}/g) ?? []).map((v, i) => [`${name}.${i}`, v]);
  const context = await browser.newContext({ colorScheme });
  await context.addCookies(parts.map(([n, v]) => ({ name: n!, value: v!, url: app.appUrl })));
  return context;
}

/** The session the app keeps in its cookie right now (joined from its chunks). */
export async function cookieSession(context: BrowserContext, app: FullApp): Promise<{ user: { id: string; email: string } } & Record<string, unknown>> {
  const name = authCookieName(app);
  const cookies = (await context.cookies(app.appUrl)).filter((c) => c.name === name || c.name.startsWith(`${name}.`));
  cookies.sort((a, b) => a.name.localeCompare(b.name, "en", { numeric: true }));
  const value = decodeURIComponent(cookies.map((c) => c.value).join(""));
  return JSON.parse(Buffer.from(value.replace(/^base64-/, ""), "base64url").toString("utf8"));
}

/** On failure: a screenshot and what the page said, so a red run explains itself. */
export async function explain<T>(page: Page, artifacts: string, name: string, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (e) {
    await page.screenshot({ path: path.join(artifacts, `${name}-failure.png`), fullPage: true }).catch(() => {});
    const text = await page.locator("body").innerText().catch(() => "");
    throw new Error(`${(e as Error).message}\n--- at ${page.url()}:\n${text.slice(0, 2000)}`);
  }
}

export async function waitForJob(page: Page, status = "succeeded") {
  await page.locator(`[role=progressbar][data-status=${status}]`).first().waitFor({ timeout: 60_000 });
}
