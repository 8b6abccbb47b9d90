// Resumable uploads of data-source files on a real stack: above the threshold the app sends
// a file through Storage's TUS endpoint (tus-js-client), shows the progress with its
// percentage, and after a dropped connection asks Storage where to go on and sends only the
// rest. The threshold comes from the app's runtime configuration (/config.js,
// PARLEY_RESUMABLE_UPLOAD_THRESHOLD), lowered here to 1 MB so the first file stays small;
// the second is larger than one 6 MB part, so it takes a POST and a PATCH.
import assert from "node:assert/strict";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, Page, Request } from "playwright-core";
import { launchBrowser, watchErrors } from "./lib/browser.ts";
import { explain as explainFailure, signedInContext, waitForJob } from "./lib/fakes/owner-session.ts";
import { startFullApp, type FullApp } from "./lib/stack.ts";

const BOT = "c0000000-0000-4000-8000-000000000002"; // "Acme Internal", team "Acme Support"
const ART = path.join(import.meta.dirname, "artifacts");
const THRESHOLD = 1024 * 1024;

type Msgs = Record<string, string>;
const readMessages = (code: string): Msgs =>
  JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "..", "frontend", "src", "i18n", "messages", "sources", `${code}.json`), "utf8")) as Msgs;

let app: FullApp;
let browser: Browser;
let previousThreshold: string | undefined;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "parley-upload-"));

before(async () => {
  // The app server reads it for each /config.js (the stack runs in this process).
  previousThreshold = process.env.PARLEY_RESUMABLE_UPLOAD_THRESHOLD;
  process.env.PARLEY_RESUMABLE_UPLOAD_THRESHOLD = String(THRESHOLD);
  app = await startFullApp();
  browser = await launchBrowser();
  fs.mkdirSync(ART, { recursive: true });
});

after(async () => {
  await browser?.close();
  await app?.stop();
  if (previousThreshold === undefined) delete process.env.PARLEY_RESUMABLE_UPLOAD_THRESHOLD;
  else process.env.PARLEY_RESUMABLE_UPLOAD_THRESHOLD = previousThreshold;
  fs.rmSync(tmp, { recursive: true, force: true });
});

const explain = <T,>(page: Page, name: string, body: () => Promise<T>) => explainFailure(page, ART, `upload-${name}`, body);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A Markdown file of `bytes` bytes: two short sections and blank padding (read as two passages). */
function markdownFile(name: string, bytes: number): string {
  const head = "# Returns\n\nLamps can be returned within 30 days in their original box.\n";
  const tail = "\n## Refunds\n\nRefunds reach your card within five days.\n";
  const file = path.join(tmp, name);
  fs.writeFileSync(file, head + " ".repeat(bytes - Buffer.byteLength(head) - Buffer.byteLength(tail)) + tail);
  return file;
}

/** The object the new source points at, downloaded as the service role. */
async function uploadedObject(sourceId: string): Promise<Buffer> {
  const headers = { apikey: app.serviceRoleKey, authorization: `Bearer ${app.serviceRoleKey}` };
  const rows = (await (await fetch(`${app.apiUrl}/rest/v1/data_sources?id=eq.${sourceId}&select=settings`, { headers })).json()) as { settings: { files: { path: string }[] } }[];
  const objectPath = rows[0]!.settings.files[0]!.path;
  const res = await fetch(`${app.apiUrl}/storage/v1/object/data-sources/${objectPath}`, { headers });
  assert.equal(res.status, 200);
  return Buffer.from(await res.arrayBuffer());
}

const isTus = (r: Request) => r.url().includes("/storage/v1/upload/resumable");
const sha = (b: Buffer) => crypto.createHash("sha256").update(b).digest("hex");

async function chooseAndSubmit(page: Page, m: Msgs, base: string, file: string) {
  await page.goto(`${base}/data-sources/new?type=file`);
  await page.waitForLoadState("networkidle");
  await page.getByLabel(m["sources.file.choose"]!, { exact: true }).setInputFiles(file);
  await page.getByText(path.basename(file)).first().waitFor();
  await page.getByRole("button", { name: m["sources.new.submit"] }).click();
}

async function sourceReady(page: Page, m: Msgs): Promise<string> {
  await page.waitForURL(/\/data-source\/[0-9a-f-]{36}$/, { timeout: 30_000 });
  await waitForJob(page);
  await page.getByText(m["sources.job.status.succeeded"]!, { exact: true }).first().waitFor();
  await page.getByTestId("document-count").filter({ hasText: "1" }).waitFor({ timeout: 20_000 });
  return /\/data-source\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
}

describe("resumable uploads of data-source files", () => {
  it("sends a file above the configured threshold through TUS with its progress, and the source becomes ready (en)", async () => {
    const m = readMessages("en");
    const context = await signedInContext(browser, app);
    const page = await context.newPage();
    const errors = watchErrors(page);
    const file = markdownFile("returns-policy.md", Math.round(1.5 * THRESHOLD));
    const tus: string[] = [];
    page.on("request", (r) => {
      if (isTus(r)) tus.push(r.method());
    });
    // Storage's answer to the upload waits a little, so the bar can be seen.
    await page.route("**/storage/v1/upload/resumable", async (route) => {
      const res = await route.fetch();
      await sleep(1500);
      await route.fulfill({ response: res });
    });
    await explain(page, "threshold-en", async () => {
      await chooseAndSubmit(page, m, `${app.appUrl}/app/bots/${BOT}`, file);
      const bar = page.getByRole("progressbar", { name: m["sources.file.uploading"]!.replace("{name}", "returns-policy.md") });
      await bar.waitFor();
      await page.getByText(/^\d+\s?%$/).first().waitFor();
      await page.screenshot({ path: path.join(ART, "upload-progress-en.png"), fullPage: true });
      const id = await sourceReady(page, m);
      assert.deepEqual(tus, ["POST"]); // one part: created with its data (creation-with-upload)
      assert.equal(sha(await uploadedObject(id)), sha(fs.readFileSync(file)));
      await page.getByRole("link", { name: m["sources.tab.content"] }).click();
      await page.getByTestId("document-text").filter({ hasText: "returned within 30 days" }).waitFor({ timeout: 20_000 });
    });
    assert.deepEqual(errors, []);
    await context.close();
  });

  it("keeps going after the connection drops mid-upload: HEAD, then only the rest (de)", async () => {
    const m = readMessages("de");
    const context = await signedInContext(browser, app);
    const page = await context.newPage();
    const errors = watchErrors(page);
    const file = markdownFile("ruecksendungen.md", Math.round(6.6 * 1024 * 1024)); // a 6 MB part and the rest
    const tus: string[] = [];
    page.on("request", (r) => {
      if (isTus(r)) tus.push(r.method());
    });
    // The first part's answer waits (the bar stands between 0 and 100 %); the first PATCH never
    // arrives (the connection is reset); the HEAD that follows waits (the screen says it retries).
    let patches = 0;
    await page.route("**/storage/v1/upload/resumable**", async (route) => {
      const method = route.request().method();
      if (method === "PATCH" && ++patches === 1) return route.abort("connectionreset");
      if (method === "POST" || method === "HEAD") {
        const res = await route.fetch();
        await sleep(1500);
        return route.fulfill({ response: res });
      }
      return route.continue();
    });
    await explain(page, "dropped-de", async () => {
      await chooseAndSubmit(page, m, `${app.appUrl}/de/app/bots/${BOT}`, file);
      await page.waitForFunction(() => {
        const v = Number(document.querySelector(".ks-files [role=progressbar]")?.getAttribute("aria-valuenow") ?? "0");
        return v > 0 && v < 100;
      }, undefined, { timeout: 20_000 });
      await page.screenshot({ path: path.join(ART, "upload-progress-de.png"), fullPage: true });
      await page.getByText(m["sources.file.retrying"]!).waitFor({ timeout: 20_000 });
      await page.screenshot({ path: path.join(ART, "upload-retrying-de.png"), fullPage: true });
      const id = await sourceReady(page, m);
      // Resumed, not restarted: one creation, the lost PATCH, HEAD for the offset, the rest.
      assert.deepEqual(tus, ["POST", "PATCH", "HEAD", "PATCH"]);
      assert.equal(sha(await uploadedObject(id)), sha(fs.readFileSync(file)));
    });
    // Chromium logs the reset it was told to simulate; nothing else may be logged.
    assert.deepEqual(errors.filter((e) => !/ERR_CONNECTION_RESET/.test(e)), []);
    await context.close();
  });
});
