// Data sources on a real stack, in two languages: an owner adds a website served on
// 127.0.0.1, watches the progress bar reach done, reads its documents and their text,
// re-syncs without duplicates, adds a Markdown file, and deletes a source.
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, watchErrors } from "./lib/browser.ts";
import { explain as explainFailure, signedInContext as signedIn, waitForJob } from "./lib/fakes/owner-session.ts";
import { startFullApp, type FullApp } from "./lib/stack.ts";

const BOT = "c0000000-0000-4000-8000-000000000002"; // "Acme Internal", team "Acme Support"
const ART = path.join(import.meta.dirname, "artifacts");

type Msgs = Record<string, string>;
const readMessages = (code: string): Msgs =>
  JSON.parse(
    fs.readFileSync(
      path.join(import.meta.dirname, "..", "frontend", "src", "i18n", "messages", "sources", `${code}.json`),
      "utf8",
    ),
  ) as Msgs;

// A three-page site with a sitemap, as the crawler will see it.
const PAGES: Record<string, { title: string; body: string; links: string[] }> = {
  "/": {
    title: "Lumen Lamps",
    body: "Lumen Lamps makes reading lamps with warm amber light.",
    links: ["/warranty", "/shipping"],
  },
  "/warranty": {
    title: "Warranty",
    body: "Every Lumen lamp carries a seven year warranty on the brass arm.",
    links: ["/"],
  },
  "/shipping": { title: "Shipping", body: "Orders ship from Rotterdam within two working days.", links: ["/"] },
};

function startSite(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const p = new URL(req.url ?? "/", "http://x").pathname;
    const page = PAGES[p];
    if (!page) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    const links = page.links.map((l) => `<li><a href="${l}">${PAGES[l]!.title}</a></li>`).join("");
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(
      `<!doctype html><html><head><title>${page.title}</title></head><body><nav><ul>${links}</ul></nav><main><h1>${page.title}</h1><p>${page.body}</p></main></body></html>`,
    );
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(() => r())) });
    }),
  );
}

let app: FullApp;
let browser: Browser;
let site: { url: string; close: () => Promise<void> };

before(async () => {
  site = await startSite();
  app = await startFullApp({ env: { PARLEY_FETCH_ALLOW_PRIVATE: "1" } });
  browser = await launchBrowser();
  fs.mkdirSync(ART, { recursive: true });
});

after(async () => {
  await browser?.close();
  await app?.stop();
  await site?.close();
});

const signedInContext = (colorScheme: "light" | "dark") => signedIn(browser, app, colorScheme);
const explain = <T,>(page: Page, name: string, body: () => Promise<T>) => explainFailure(page, ART, `sources-${name}`, body);

for (const [prefix, code] of [
  ["", "en"],
  ["/de", "de"],
] as const) {
  describe(`data sources (${code})`, () => {
    const m = readMessages(code);
    it("adds a website, watches it ingest, reads its documents, re-syncs without duplicates", async () => {
      const context = await signedInContext(code === "de" ? "dark" : "light");
      const page = await context.newPage();
      const errors = watchErrors(page);
      const base = `${app.appUrl}${prefix}/app/bots/${BOT}`;
      await explain(page, `web-${code}`, async () => {
        await page.goto(`${base}/data-sources/new`);
        await page.getByRole("heading", { name: m["sources.new.title"] }).waitFor({ timeout: 20_000 });
        await page.waitForLoadState("networkidle");
        await page.getByLabel(m["sources.type.web"]!, { exact: false }).first().check();
        const nameField = page.getByLabel(m["sources.form.name"]!, { exact: true });
        const urlField = page.getByLabel(m["sources.web.startUrl"]!);
        await nameField.fill(`Lumen site ${code}`);
        await urlField.fill(site.url);
        assert.equal(await nameField.inputValue(), `Lumen site ${code}`);
        assert.equal(await urlField.inputValue(), site.url);
        await page.screenshot({ path: path.join(ART, `sources-new-${code}.png`), fullPage: true });
        await page.getByRole("button", { name: m["sources.new.submit"] }).click();

        await page.waitForURL(/\/data-source\/[0-9a-f-]{36}$/, { timeout: 20_000 });
        await page.getByRole("heading", { name: `Lumen site ${code}` }).waitFor();
        await waitForJob(page);
        await page.getByText(m["sources.job.status.succeeded"]!, { exact: true }).first().waitFor();
        await page.getByTestId("document-count").filter({ hasText: "3" }).waitFor({ timeout: 20_000 });
        await page.screenshot({ path: path.join(ART, `sources-overview-${code}.png`), fullPage: true });
        const sourceUrl = page.url();

        // content: the documents and their extracted text
        await page.getByRole("link", { name: m["sources.tab.content"] }).click();
        await page.getByRole("tab", { name: m["sources.tab.content"], selected: true }).waitFor();
        await page.getByRole("button", { name: /Warranty/ }).click();
        await page.getByTestId("document-text").filter({ hasText: "seven year warranty" }).waitFor();
        await page.screenshot({ path: path.join(ART, `sources-content-${code}.png`), fullPage: true });

        // syncing: sync now, then two finished runs in the history and still three documents
        await page.getByRole("tab", { name: m["sources.tab.syncing"] }).click();
        await page
          .getByRole("button", { name: m["sources.action.syncNamed"]!.replace("{name}", `Lumen site ${code}`) })
          .click();
        await page.locator("tbody tr").nth(1).waitFor({ timeout: 20_000 });
        await page.waitForFunction(
          () => {
            const bars = [...document.querySelectorAll("tbody [role=progressbar]")];
            return bars.length === 2 && bars.every((b) => b.getAttribute("data-status") === "succeeded");
          },
          undefined,
          { timeout: 60_000 },
        );
        await page.screenshot({ path: path.join(ART, `sources-syncing-${code}.png`), fullPage: true });
        await page.goto(sourceUrl);
        await page.getByTestId("document-count").waitFor();
        assert.equal((await page.getByTestId("document-count").textContent())?.trim(), "3");

        // documents tab lists exactly three, searchable
        await page.goto(`${sourceUrl}/settings/documents`);
        await page
          .getByRole("button", { name: m["sources.documents.deleteNamed"]!.replace("{name}", "Shipping") })
          .waitFor();
        assert.equal(await page.locator("tbody tr").count(), 3);
        await page.getByLabel(m["sources.documents.search"]!).fill("warranty");
        await page.waitForFunction(() => document.querySelectorAll("tbody tr").length === 1, undefined, {
          timeout: 10_000,
        });

        // the list shows it with its counts and a finished progress bar
        await page.goto(`${base}/data-sources`);
        const row = page.locator("tr", { hasText: `Lumen site ${code}` });
        await row.locator("[role=progressbar][data-status=succeeded]").waitFor({ timeout: 20_000 });
        await page.screenshot({ path: path.join(ART, `sources-list-${code}.png`), fullPage: true });
      });
      assert.deepEqual(errors, []);
      await context.close();
    });

    it("uploads a Markdown file, sees it ingested, deletes the source", async () => {
      const context = await signedInContext("light");
      const page = await context.newPage();
      const errors = watchErrors(page);
      const base = `${app.appUrl}${prefix}/app/bots/${BOT}`;
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "parley-md-")), `returns-${code}.md`);
      fs.writeFileSync(
        file,
        "# Returns\n\nLamps can be returned within 30 days in their original box.\n\n## Refunds\n\nRefunds reach your card within five days.\n",
      );
      await explain(page, `file-${code}`, async () => {
        await page.goto(`${base}/data-sources/new?type=file`);
        await page.waitForLoadState("networkidle");
        await page.getByLabel(m["sources.file.choose"]!, { exact: true }).setInputFiles(file);
        await page.getByText(`returns-${code}.md`).first().waitFor();
        await page.getByRole("button", { name: m["sources.new.submit"] }).click();
        await page.waitForURL(/\/data-source\/[0-9a-f-]{36}$/, { timeout: 20_000 });
        await waitForJob(page);
        await page.getByTestId("document-count").filter({ hasText: "1" }).waitFor({ timeout: 20_000 });
        await page.getByRole("link", { name: m["sources.tab.content"] }).click();
        await page
          .getByTestId("document-text")
          .filter({ hasText: "returned within 30 days" })
          .waitFor({ timeout: 20_000 });

        await page.getByRole("link", { name: m["sources.detail.overview"] }).click();
        await page.getByRole("button", { name: m["sources.action.delete"], exact: true }).click();
        const dialog = page.getByRole("dialog");
        await dialog.getByRole("button", { name: m["sources.delete.confirm"], exact: true }).click();
        await page.waitForURL(/\/data-sources$/, { timeout: 20_000 });
        await page.getByRole("heading", { name: m["sources.list.title"] }).waitFor();
        await page.waitForFunction((name) => !document.body.innerText.includes(name), `returns-${code}.md`, {
          timeout: 10_000,
        });
      });
      assert.deepEqual(errors, []);
      await context.close();
    });
  });
}
