// A signed-in browser context without the login screen (the session comes from the real
// auth service and goes into the app's cookie, as @supabase/ssr writes it), and failure
// reports for the data-source journeys.
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { FullApp } from "../stack.ts";

export const SEED_OWNER = { email: "owner@parley.test", password: "parley-demo-123" };

export const authCookieName = (app: FullApp) => `sb-${new URL(app.apiUrl).hostname.split(".")[0]}-auth-token`;

/** A browser context signed in as the seeded owner (FullApp.sessionCookies). */
export async function signedInContext(browser: Browser, app: FullApp, colorScheme: "light" | "dark" = "light"): Promise<BrowserContext> {
  const context = await browser.newContext({ colorScheme });
  await context.addCookies(await app.sessionCookies(SEED_OWNER.email, SEED_OWNER.password));
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
