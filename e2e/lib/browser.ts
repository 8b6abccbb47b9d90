// Debian's Chromium driven by playwright-core (no browser download).
import fs from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function chromiumPath(): string {
  const found = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => p && fs.existsSync(p));
  if (!found) throw new Error("Chromium not found: install Debian's chromium package or set CHROMIUM_PATH");
  return found;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
}

/**
 * Collects console errors and uncaught page errors of a page. Chromium's own line for a
 * page document answered with 404 is left out: the app server answers unknown paths with
 * 404 on purpose (the SPA shows its "Page not found"); tests check that status themselves.
 */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    if (/^Failed to load resource: .* status of 404\b/.test(msg.text()) && msg.location().url === page.mainFrame().url()) return;
    // A failed load names its address, so a report says which request failed.
    const where = /^Failed to load resource/.test(msg.text()) && msg.location().url ? ` (${msg.location().url})` : "";
    errors.push(`console: ${msg.text()}${where}`);
  });
  page.on("pageerror", (err) => errors.push(`pageerror: ${err.message}`));
  return errors;
}
