// A browser tab that knows when a page has settled: interactive, a heading shown, nothing
// "Loading..." and no fetch/XHR in flight after its last render. Shared by the route and
// language walks (e2e/routes.spec.ts, e2e/languages.spec.ts).
import type { Browser, BrowserContext, Page, Request } from "playwright-core";
import { watchErrors } from "./browser.ts";

export interface Tab {
  context: BrowserContext;
  page: Page;
  errors: string[];
  /** Resolves when no fetch/XHR of the page is in flight. */
  idle(timeoutMs: number): Promise<void>;
  pending(): string[];
}

/** A new context and page, with the given cookies (a session, a consent choice) set first. */
export async function openTab(
  browser: Browser,
  options: { cookies?: { name: string; value: string; url: string }[]; viewport?: { width: number; height: number } } = {},
): Promise<Tab> {
  const context = await browser.newContext({ locale: "en-US", colorScheme: "light", ...(options.viewport ? { viewport: options.viewport } : {}) });
  if (options.cookies?.length) await context.addCookies(options.cookies);
  const page = await context.newPage();
  const errors = watchErrors(page);
  const inflight = new Set<Request>();
  let waiters: (() => void)[] = [];
  const counted = (r: Request) => r.resourceType() === "fetch" || r.resourceType() === "xhr";
  page.on("request", (r) => counted(r) && inflight.add(r));
  const done = (r: Request) => {
    if (!inflight.delete(r) || inflight.size) return;
    for (const w of waiters) w();
    waiters = [];
  };
  page.on("requestfinished", done);
  page.on("requestfailed", done);
  return {
    context,
    page,
    errors,
    idle: (timeoutMs) =>
      inflight.size === 0
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`requests still in flight after ${timeoutMs} ms: ${[...inflight].map((r) => r.url()).join(", ")}`)), timeoutMs);
            waiters.push(() => {
              clearTimeout(timer);
              resolve();
            });
          }),
    pending: () => [...inflight].map((r) => r.url()),
  };
}

// A string, not a function: the test runner's transpiler would add helpers the page lacks.
// Pages of the layout "none" (embeds, sdk, tests) need no main landmark, only a heading.
const settled = (needsMain: boolean) => `(() => {
  const visible = (el) => !!el && el.getClientRects().length > 0;
  if (!("hydrated" in document.documentElement.dataset)) return false;
  const main = document.querySelector("main, [role=main]");
  if (${needsMain} && !visible(main)) return false;
  if (!visible((main ?? document.getElementById("root")).querySelector("h1"))) return false;
  return ![...document.querySelectorAll(".loading, [aria-busy=true]")].some(visible);
})()`;

/**
 * Waits until the page has settled: interactive, a main landmark with a heading, no
 * "Loading..." left, and no request in flight after the last render.
 */
export async function settle(t: Tab, needsMain: boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  const left = () => Math.max(1, end - Date.now());
  for (;;) {
    await t.page.waitForFunction(settled(needsMain), undefined, { timeout: left(), polling: "raf" });
    await t.idle(left());
    // One more frame: a response may render something that asks for more.
    await t.page.evaluate("new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))");
    if (t.pending().length === 0) return;
  }
}
