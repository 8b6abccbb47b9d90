// Tests of a bot's answers in Chromium, in two languages, against the real stack with seed data:
// the seeded owner opens "Acme Help Center"'s test cases (seeded cases with tags, search, a
// suggestion accepted, new suggestions from the knowledge), adds a conversation's answer as a test
// case (corrected), its runs (two seeded runs, the trend
// chart), starts a run and watches it finish live, then opens the seeded run after the sync: the
// "new failures" filter shows the regression (its reasons in the page's language) and the diff
// shows what changed in the answer; the test settings (who is told of regressions included) are
// saved; the bot overview links to the
// latest run.
// Run: node --import tsx --test e2e/tests.spec.ts (builds frontend/dist when missing).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchBrowser, watchErrors } from "./lib/browser.ts";
import { startFullApp, type FullApp } from "./lib/stack.ts";

type Msgs = Record<string, string>;
const ART = path.join(import.meta.dirname, "artifacts");
const MSG_DIR = path.join(import.meta.dirname, "..", "frontend", "src", "i18n", "messages");
const readMessages = (code: string): Msgs => JSON.parse(fs.readFileSync(path.join(MSG_DIR, "tests", `${code}.json`), "utf8")) as Msgs;

const BOT = "c0000000-0000-4000-8000-000000000001";
const SYNC_RUN = "f4100000-0000-4000-8000-000000000002";
/** The seeded conversation "Can I get my data out?", answered by the extractive default. */
const DATA_CHAT = "f9000000-0000-4000-8000-000000000002";
/** The seeded regression's phrases reason, as each language says it. */
const MISSING_PHRASE = { en: "Missing required phrase: 50.", de: "Fehlende Pflichtformulierung: 50." } as const;

let app: FullApp;
let browser: Browser;

before(async () => {
  app = await startFullApp();
  browser = await launchBrowser();
  fs.mkdirSync(ART, { recursive: true });
});

after(async () => {
  await browser?.close();
  await app?.stop();
});

async function ownerPage(): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext();
  await context.addCookies(await app.sessionCookies("owner@parley.test", "parley-demo-123"));
  const page = await context.newPage();
  return { context, page, errors: watchErrors(page) };
}

function assertNoErrors(errors: string[]) {
  assert.deepEqual(errors.filter((e) => !/Failed to load resource/.test(e)), []);
}

for (const [code, prefix] of [["en", ""], ["de", "/de"]] as const) {
  describe(`tests (${code})`, () => {
    const m = readMessages(code);

    it("the owner builds the suite: seeded cases, search, suggestions accepted", async () => {
      const { context, page, errors } = await ownerPage();
      await page.goto(`${app.appUrl}${prefix}/app/bots/${BOT}/test-cases`);
      await page.getByRole("heading", { level: 1, name: m["tests.cases.title"] }).waitFor();
      await page.getByRole("cell", { name: "How many tags can a note have?", exact: true }).waitFor();
      await page.getByText("onboarding", { exact: true }).waitFor();
      // Search narrows the list by question or tag.
      await page.getByLabel(m["tests.cases.search"]!).fill("privacy");
      await page.getByRole("cell", { name: "Where are my notes stored?", exact: true }).waitFor();
      await page.waitForFunction(() => document.querySelectorAll("tr[data-case-id]").length === 1);
      await page.getByLabel(m["tests.cases.search"]!).fill("");
      // Suggestions from the knowledge's headings (the seeded one waits to be accepted in en).
      await page.getByRole("button", { name: m["tests.cases.suggest"] }).click();
      await page.getByRole("status").first().waitFor();
      const suggestion = page.locator("li[data-suggestion]").first();
      await suggestion.waitFor();
      const question = (await suggestion.getAttribute("data-suggestion"))!;
      await suggestion.getByRole("button", { name: m["tests.cases.accept"] }).click();
      await page.getByRole("cell", { name: question, exact: true }).waitFor();
      await page.screenshot({ path: path.join(ART, `tests-cases-${code}.png`), fullPage: true });
      assertNoErrors(errors);
      await context.close();
    });

    it("the owner adds a turn of a conversation as a test case, with the answer corrected", async () => {
      const { context, page, errors } = await ownerPage();
      await page.goto(`${app.appUrl}${prefix}/app/conversations/bot/${BOT}/chat/${DATA_CHAT}`);
      const answer = page.locator("article.conv-view li.conv-msg--assistant").first();
      await answer.locator(".conv-msg__text", { hasText: "Settings > Export" }).waitFor();
      await answer.getByRole("button", { name: m["tests.conversation.add"] }).click();
      const expected = answer.getByLabel(m["tests.cases.expected"]!);
      await expected.fill(`Settings > Export (${code})`);
      await answer.getByRole("button", { name: m["tests.conversation.add"] }).click();
      await answer.getByRole("status").filter({ hasText: m["tests.conversation.added"]! }).waitFor();
      // The case is in the suite: the visitor's question, the corrected answer as the expected one.
      await page.goto(`${app.appUrl}${prefix}/app/bots/${BOT}/test-cases`);
      await page.getByLabel(m["tests.cases.search"]!).fill("Can I get my data out?");
      await page.getByRole("cell", { name: "Can I get my data out?", exact: true }).first().waitFor();
      await page.getByText(`Settings > Export (${code})`, { exact: false }).first().waitFor();
      assertNoErrors(errors);
      await context.close();
    });

    it("the owner runs the tests and watches the run finish live", async () => {
      const { context, page, errors } = await ownerPage();
      await page.goto(`${app.appUrl}${prefix}/app/bots/${BOT}/tests`);
      await page.getByRole("heading", { level: 1, name: m["tests.runs.title"] }).waitFor();
      await page.locator("table caption", { hasText: m["tests.runs.trend"]! }).waitFor({ state: "attached" });
      await page.getByText(m["tests.trigger.sync"]!, { exact: true }).first().waitFor();
      const before = await page.locator("tr[data-run-id]").count();
      await page.getByRole("button", { name: m["tests.runs.start"] }).click();
      await page.waitForFunction((n) => document.querySelectorAll("tr[data-run-id]").length === n + 1, before);
      // The newest run (first row) reaches "succeeded" through realtime, without a reload.
      await page.locator("tr[data-run-id]").first().locator("[data-status='succeeded']").waitFor({ timeout: 30_000 });
      await page.locator("tr[data-run-id]").first().getByText(m["tests.trigger.manual"]!, { exact: true }).waitFor();
      await page.getByRole("button", { name: m["tests.runs.start"] }).waitFor();
      // The test settings below the runs: saved under RLS as the owner, there after a reload.
      await page.getByRole("checkbox", { name: m["tests.settings.runAfterSync"] }).check();
      await page.getByLabel(m["tests.settings.schedule"]!).selectOption("weekly");
      // Who is told of regressions: the owners (the default), the admins too, and an outside address.
      await page.getByRole("checkbox", { name: m["tests.settings.notifyAdmins"] }).check();
      await page.getByLabel(m["tests.settings.notifyEmails"]!).fill(` Support-${code}@Example.test `);
      await page.getByRole("button", { name: m["tests.settings.save"] }).click();
      await page.getByRole("status").filter({ hasText: m["tests.settings.saved"]! }).waitFor();
      await page.reload();
      await page.getByText(m["tests.settings.nextRun"]!.split("{")[0]!.trim()).waitFor();
      assert.equal(await page.getByRole("checkbox", { name: m["tests.settings.runAfterSync"] }).isChecked(), true);
      assert.equal(await page.getByRole("checkbox", { name: m["tests.settings.notifyOwners"] }).isChecked(), true);
      assert.equal(await page.getByRole("checkbox", { name: m["tests.settings.notifyAdmins"] }).isChecked(), true);
      // The database kept the address trimmed and in lower case.
      assert.equal(await page.getByLabel(m["tests.settings.notifyEmails"]!).inputValue(), `support-${code}@example.test`);
      // A malformed address is refused with the app's own words.
      await page.getByLabel(m["tests.settings.notifyEmails"]!).fill("not an address");
      await page.getByRole("button", { name: m["tests.settings.save"] }).click();
      await page.locator("form.tr-form").getByRole("alert").waitFor();
      await page.screenshot({ path: path.join(ART, `tests-runs-${code}.png`), fullPage: true });
      assertNoErrors(errors);
      await context.close();
    });

    it("the bot overview shows the latest finished run and opens it", async () => {
      const { context, page, errors } = await ownerPage();
      await page.goto(`${app.appUrl}${prefix}/app/bots/${BOT}`);
      const card = page.locator("section[data-latest-run]");
      await card.getByRole("heading", { name: m["tests.overview.title"] }).waitFor();
      await card.getByRole("link", { name: m["tests.overview.openRun"] }).click();
      await page.getByRole("heading", { level: 1, name: m["tests.run.title"] }).waitFor();
      assert.match(page.url(), new RegExp(`${prefix}/app/bots/${BOT}/tests/[0-9a-f-]{36}$`));
      assertNoErrors(errors);
      await context.close();
    });

    it("a run after a sync shows its regression, the filters and the diff", async () => {
      const { context, page, errors } = await ownerPage();
      await page.goto(`${app.appUrl}${prefix}/app/bots/${BOT}/tests/${SYNC_RUN}`);
      await page.getByRole("heading", { level: 1, name: m["tests.run.title"] }).waitFor();
      await page.getByRole("alert").first().waitFor();
      await page.getByRole("button", { name: m["tests.filter.new"], exact: true }).click();
      await page.waitForFunction(() => document.querySelectorAll("article[data-case-id]").length === 1);
      const regression = page.locator("article[data-case-id]");
      await regression.getByRole("heading", { name: "How many tags can a note have?" }).waitFor();
      // The scores' reasons in the page's language (codes and parameters stored by the scorer).
      const phrases = regression.locator("[data-score='phrases']");
      await phrases.getByText(MISSING_PHRASE[code], { exact: true }).waitFor();
      if (code !== "en") assert.equal(await phrases.getByText("Missing required phrase", { exact: false }).count(), 0);
      await regression.getByRole("button", { name: m["tests.diff.toggle"] }).click();
      await regression.locator(".tr-diff del").first().waitFor();
      await page.getByRole("button", { name: m["tests.filter.fixed"], exact: true }).click();
      await page.locator("article[data-case-id]").getByRole("heading", { name: "Where are my notes stored?" }).waitFor();
      await page.screenshot({ path: path.join(ART, `tests-run-${code}.png`), fullPage: true });
      assertNoErrors(errors);
      await context.close();
    });
  });
}
