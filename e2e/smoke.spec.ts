// The whole path on a real stack: Chromium → the built app → supabase-js → the gateway →
// PostgREST → Postgres with RLS. The gallery shows exactly the seeded public bot.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Browser } from "playwright-core";
import { launchBrowser, watchErrors } from "./lib/browser.ts";
import { startFullApp, type FullApp } from "./lib/stack.ts";

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

describe("the app on a real stack", () => {
  it("serves the runtime configuration of this stack", async () => {
    const js = await (await fetch(`${app.appUrl}/config.js`)).text();
    assert.match(js, new RegExp(app.apiUrl.replace(/[.:/]/g, "\\$&")));
    assert.match(js, /supabaseAnonKey/);
  });

  for (const prefix of ["", "/de"]) {
    it(`lists the public gallery bot read through supabase-js (${prefix || "/"})`, async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(`${app.appUrl}${prefix}/gallery`);
      await page.getByText("Acme Help Center").first().waitFor({ timeout: 15_000 });
      // The password-protected bot is not listed in the gallery, so RLS hid it from anon.
      assert.equal(await page.getByText("Acme Internal").count(), 0);
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
});
