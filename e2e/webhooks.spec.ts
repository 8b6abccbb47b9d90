// Webhooks and tasks on a real stack, in two languages: an owner adds an endpoint pointing at a
// receiver on 127.0.0.1 that checks the Standard Webhooks signature, shows the secret, sends a
// test event and sees it delivered in the log; then creates an "ask" task, runs it by hand and
// reads the run log, and finds it in the task list with its next run.
import assert from "node:assert/strict";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser } from "playwright-core";
import { launchBrowser, watchErrors } from "./lib/browser.ts";
import { explain as explainFailure, signedInContext as signedIn } from "./lib/fakes/owner-session.ts";
import { startFullApp, type FullApp } from "./lib/stack.ts";

const BOT = "c0000000-0000-4000-8000-000000000002"; // "Acme Internal", team "Acme Support"
const ART = path.join(import.meta.dirname, "artifacts");

type Msgs = Record<string, string>;
const readMessages = (area: string, code: string): Msgs =>
  JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "..", "frontend", "src", "i18n", "messages", area, `${code}.json`), "utf8")) as Msgs;

/** A receiver that verifies webhook-signature (HMAC-SHA256 of "id.timestamp.body" with the secret's key). */
function startReceiver() {
  const state = { secret: "", verified: [] as { id: string; type: string }[], refused: 0 };
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const id = String(req.headers["webhook-id"]);
      const ts = String(req.headers["webhook-timestamp"]);
      const key = Buffer.from(state.secret.replace(/^whsec_/, ""), "base64");
      const expected = crypto.createHmac("sha256", key).update(`${id}.${ts}.${body}`).digest("base64");
      const given = String(req.headers["webhook-signature"]).split(" ").map((s) => s.split(",")[1]);
      if (!given.includes(expected)) {
        state.refused++;
        res.writeHead(400).end("bad signature");
        return;
      }
      state.verified.push({ id, type: (JSON.parse(body) as { type: string }).type });
      res.writeHead(200).end("ok");
    });
  });
  return new Promise<{ url: string; state: typeof state; close: () => Promise<void> }>((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${port}/hook`, state, close: () => new Promise((r) => server.close(() => r())) });
    }),
  );
}

let app: FullApp;
let browser: Browser;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

before(async () => {
  receiver = await startReceiver();
  app = await startFullApp({ env: { PARLEY_FETCH_ALLOW_PRIVATE: "1" } });
  browser = await launchBrowser();
  fs.mkdirSync(ART, { recursive: true });
});

after(async () => {
  await browser?.close();
  await app?.stop();
  await receiver?.close();
});

for (const [prefix, code] of [
  ["", "en"],
  ["/de", "de"],
] as const) {
  describe(`webhooks and tasks (${code})`, () => {
    const w = readMessages("webhooks", code);
    const t = readMessages("tasks", code);

    it("adds an endpoint, shows its secret, sends a test event and sees it delivered, signed", async () => {
      const context = await signedIn(browser, app, "light");
      const page = await context.newPage();
      page.on("dialog", (d) => void d.accept());
      const errors = watchErrors(page);
      const url = `${receiver.url}?lang=${code}`;
      await explainFailure(page, ART, `webhooks-${code}`, async () => {
        await page.goto(`${app.appUrl}${prefix}/app/bots/${BOT}/webhooks`);
        await page.getByRole("heading", { name: w["webhooks.title"], level: 1 }).waitFor({ timeout: 20_000 });
        const form = page.getByRole("form", { name: w["webhooks.form.title"] });
        await form.getByLabel(w["webhooks.form.url"]!).fill(url);
        await form.getByLabel(w["webhooks.form.description"]!).fill(`Receiver ${code}`);
        await form.getByLabel("chat.created").check();
        await form.getByRole("button", { name: w["webhooks.form.add"] }).click();
        const card = page.getByRole("article", { name: url });
        await card.waitFor({ timeout: 20_000 });
        await card.getByRole("button", { name: w["webhooks.endpoint.showSecret"] }).click();
        const secret = (await card.getByTestId("webhook-secret").textContent())?.trim() ?? "";
        assert.match(secret, /^whsec_/);
        receiver.state.secret = secret;
        const before = receiver.state.verified.length;
        await card.getByRole("button", { name: w["webhooks.endpoint.test"] }).click();
        await card.getByText(w["webhooks.endpoint.testQueued"]!).waitFor();
        await card.getByRole("button", { name: w["webhooks.endpoint.showLog"] }).click();
        // the e2e stack runs no schedules: the test ticks the deliver worker as the scheduler would
        const tick = await fetch(`${app.apiUrl}/functions/v1/deliver/tick`, {
          method: "POST",
          headers: { authorization: `Bearer ${app.serviceRoleKey}`, apikey: app.anonKey, "content-type": "application/json" },
          body: "{}",
        });
        assert.equal(tick.status, 200, await tick.text());
        // the log refreshes every 5 s while a delivery is pending
        await page.locator("tr[data-delivery-status=succeeded]").first().waitFor({ timeout: 60_000 });
        await page.getByText(w["webhooks.status.succeeded"]!, { exact: true }).first().waitFor();
        await page.screenshot({ path: path.join(ART, `webhooks-${code}.png`), fullPage: true });
        assert.equal(receiver.state.verified.length, before + 1);
        assert.equal(receiver.state.verified.at(-1)?.type, "webhook.test");
        assert.equal(receiver.state.refused, 0);
      });
      assert.deepEqual(errors, []);
      await context.close();
    });

    it("creates an ask task, runs it by hand, reads the run log and the next run", async () => {
      const context = await signedIn(browser, app, "dark");
      const page = await context.newPage();
      page.on("dialog", (d) => void d.accept());
      const errors = watchErrors(page);
      const name = `Weekly answer ${code}`;
      await explainFailure(page, ART, `tasks-${code}`, async () => {
        await page.goto(`${app.appUrl}${prefix}/app/bots/${BOT}/tasks/new`);
        await page.getByRole("heading", { name: t["tasks.newTitle"], level: 1 }).waitFor({ timeout: 20_000 });
        await page.locator("[data-task-type=ask]").click();
        assert.equal(await page.getByRole("radio", { name: new RegExp(`^${t["tasks.type.ask"]}`) }).getAttribute("aria-checked"), "true");
        await page.getByLabel(t["tasks.form.name"]!, { exact: true }).fill(name);
        await page.getByLabel(t["tasks.form.scheduleKind"]!).selectOption("interval");
        await page.getByLabel(t["tasks.form.everyHours"]!).fill("12");
        await page.getByLabel(t["tasks.form.prompt"]!).fill("What does Acme sell?");
        await page.getByRole("button", { name: t["tasks.form.save"] }).click();
        await page.waitForURL(/\/tasks\/[0-9a-f-]{36}\/settings$/, { timeout: 20_000 });
        await page.getByRole("heading", { name, level: 1 }).waitFor();
        await page.getByRole("button", { name: t["tasks.runNow"] }).click();
        await page.locator("tr[data-run-status=succeeded]").first().waitFor({ timeout: 60_000 });
        await page.screenshot({ path: path.join(ART, `tasks-settings-${code}.png`), fullPage: true });

        await page.goto(`${app.appUrl}${prefix}/app/bots/${BOT}/tasks`);
        const row = page.locator("tr", { hasText: name });
        await row.waitFor({ timeout: 20_000 });
        assert.match((await row.textContent()) ?? "", new RegExp(t["tasks.type.ask"]!));
        assert.match((await row.textContent()) ?? "", new RegExp(t["tasks.status.succeeded"]!));
      });
      assert.deepEqual(errors, []);
      await context.close();
    });
  });
}
