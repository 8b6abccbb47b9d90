// More data sources on a real stack, in two languages: an owner connects Notion through
// its OAuth (a fake Notion on 127.0.0.1 speaking the OAuth token endpoint and the REST
// API), picks pages and a database from the workspace, and watches them ingest; then adds
// a YouTube video (a fake YouTube serving watch pages and transcripts) and a plain text,
// and reads the documents of each. Connecting Notion must leave the owner's session alone
// and keep the Notion token out of the browser.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, watchErrors } from "./lib/browser.ts";
import { startFullApp, type FullApp } from "./lib/stack.ts";
import { fakeNotion } from "./lib/fakes/notion.ts";
import { fakeYoutube } from "./lib/fakes/youtube.ts";
import { serveFake, type Served } from "./lib/fakes/serve.ts";
import { cookieSession, explain, signedInContext, waitForJob } from "./lib/fakes/owner-session.ts";

const BOT = "c0000000-0000-4000-8000-000000000002"; // "Acme Internal", team "Acme Support"
const ART = path.join(import.meta.dirname, "artifacts");
const NOTION_TOKEN = "secret_e2e_notion_token_7f3a";

type Msgs = Record<string, string>;
const readMessages = (code: string): Msgs => {
  const area = (name: string) =>
    JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "..", "frontend", "src", "i18n", "messages", name, `${code}.json`), "utf8")) as Msgs;
  return { ...area("sources"), ...area("knowledge") };
};

const notion = fakeNotion({ token: NOTION_TOKEN, clientId: "parley-e2e", clientSecret: "e2e-secret" });
let notionServer: Served;
let youtubeServer: Served;
let app: FullApp;
let browser: Browser;

before(async () => {
  notionServer = await serveFake(notion.handle);
  youtubeServer = await serveFake(fakeYoutube().handle);
  app = await startFullApp({
    env: {
      PARLEY_FETCH_ALLOW_PRIVATE: "1",
      PARLEY_NOTION_API_URL: notionServer.url,
      PARLEY_NOTION_CLIENT_ID: notion.clientId,
      PARLEY_NOTION_CLIENT_SECRET: notion.clientSecret,
      PARLEY_YOUTUBE_URL: youtubeServer.url,
    },
  });
  browser = await launchBrowser();
  fs.mkdirSync(ART, { recursive: true });
});

after(async () => {
  await browser?.close();
  await app?.stop();
  await notionServer?.close();
  await youtubeServer?.close();
});

/** Rows through PostgREST as the service role (what the browser must not see). */
async function serviceRows(table: string, query: string): Promise<Record<string, unknown>[]> {
  const res = await fetch(`${app.apiUrl}/rest/v1/${table}?${query}`, {
    headers: { apikey: app.serviceRoleKey, authorization: `Bearer ${app.serviceRoleKey}` },
  });
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()) as Record<string, unknown>[];
}

async function submitAndOpenSource(page: Page, m: Msgs): Promise<string> {
  await page.getByRole("button", { name: m["sources.new.submit"] }).click();
  await page.waitForURL(/\/data-source\/[0-9a-f-]{36}$/, { timeout: 20_000 });
  await waitForJob(page);
  await page.getByText(m["sources.job.status.succeeded"]!, { exact: true }).first().waitFor();
  return /\/data-source\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
}

for (const [prefix, code] of [
  ["", "en"],
  ["/de", "de"],
] as const) {
  describe(`more data sources (${code})`, () => {
    const m = readMessages(code);
    const base = () => `${app.appUrl}${prefix}/app/bots/${BOT}`;

    it("connects Notion through OAuth, picks pages and a database, watches them ingest", async () => {
      const context = await signedInContext(browser, app, code === "de" ? "dark" : "light");
      const page = await context.newPage();
      const errors = watchErrors(page);
      const before = await cookieSession(context, app);
      await explain(page, ART, `sources-notion-${code}`, async () => {
        await page.goto(`${base()}/data-sources/new?type=notion`);
        await page.getByRole("heading", { name: m["sources.new.title"] }).waitFor({ timeout: 20_000 });
        await page.waitForLoadState("networkidle");
        await page.getByRole("link", { name: m["knowledge.notion.connect.button"], exact: true }).click();

        // Notion's consent page (the fake), reached through the notion-connect function
        await page.waitForURL(`${notionServer.url}/v1/oauth/authorize?**`, { timeout: 20_000 });
        const authorize = new URL(page.url());
        assert.equal(authorize.searchParams.get("client_id"), notion.clientId);
        assert.equal(authorize.searchParams.get("redirect_uri"), `${app.appUrl}/app/auth/providers/notion/callback`);
        await page.getByRole("link", { name: "Allow access" }).click();

        // back on the form, in the owner's language, with the workspace listed
        await page.waitForURL(new RegExp(`${prefix}/app/bots/${BOT}/data-sources/new\\?type=notion&notion_connection=[0-9a-f-]{36}$`), { timeout: 20_000 });
        await page.getByTestId("notion-connected").filter({ hasText: "Acme workspace" }).waitFor({ timeout: 20_000 });
        await page.getByRole("checkbox", { name: /Onboarding handbook/ }).check();
        await page.getByRole("checkbox", { name: /Policies/ }).check();
        assert.equal(await page.getByRole("checkbox", { name: /Meeting notes/ }).isChecked(), false);
        await page.getByLabel(m["sources.form.name"]!, { exact: true }).fill(`Acme wiki ${code}`);
        await page.screenshot({ path: path.join(ART, `sources-notion-pick-${code}.png`), fullPage: true });

        // nothing of Notion's token in the browser, and the same signed-in owner as before
        const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie);
        assert.ok(!stored.includes(NOTION_TOKEN), "the Notion token is not stored in the browser");
        const after = await cookieSession(context, app);
        assert.equal(after.user.id, before.user.id);
        assert.equal(after.user.email, "owner@parley.test");
        assert.equal(after.refresh_token, before.refresh_token, "connecting Notion did not sign in again");

        const sourceId = await submitAndOpenSource(page, m);
        await page.getByTestId("document-count").filter({ hasText: "3" }).waitFor({ timeout: 20_000 });
        await page.screenshot({ path: path.join(ART, `sources-notion-overview-${code}.png`), fullPage: true });

        await page.getByRole("link", { name: m["sources.tab.content"] }).click();
        await page.getByRole("button", { name: /Onboarding handbook/ }).click();
        await page.getByTestId("document-text").filter({ hasText: "two-factor authentication" }).waitFor();
        await page.getByRole("button", { name: /Holiday policy/ }).click();
        await page.getByTestId("document-text").filter({ hasText: "twenty-five days of holiday" }).waitFor();
        assert.equal(await page.getByRole("button", { name: /Meeting notes/ }).count(), 0, "pages not picked are not imported");

        // server-side: the source holds the token, the hand-over row is gone, no Notion identity was linked
        const secrets = await serviceRows("data_source_secrets", `data_source_id=eq.${sourceId}&select=notion_access_token`);
        assert.deepEqual(secrets, [{ notion_access_token: NOTION_TOKEN }]);
        assert.deepEqual(await serviceRows("notion_connections", `user_id=eq.${before.user.id}&select=id`), []);
        const user = await (await fetch(`${app.apiUrl}/auth/v1/admin/users/${before.user.id}`, {
          headers: { apikey: app.serviceRoleKey, authorization: `Bearer ${app.serviceRoleKey}` },
        })).json() as { identities: { provider: string }[] };
        assert.deepEqual(user.identities.map((i) => i.provider), ["email"]);
      });
      assert.deepEqual(errors, []);
      await context.close();
    });

    it("adds a YouTube video and a plain text, watches each ingest, reads their documents", async () => {
      const context = await signedInContext(browser, app);
      const page = await context.newPage();
      const errors = watchErrors(page);
      await explain(page, ART, `sources-youtube-text-${code}`, async () => {
        await page.goto(`${base()}/data-sources/new?type=youtube`);
        await page.waitForLoadState("networkidle");
        await page.getByLabel(m["sources.form.name"]!, { exact: true }).fill(`Acme video ${code}`);
        await page.getByLabel(m["sources.youtube.url"]!).fill("https://www.youtube.com/watch?v=vid00000001");
        await submitAndOpenSource(page, m);
        await page.getByTestId("document-count").filter({ hasText: "1" }).waitFor({ timeout: 20_000 });
        await page.getByRole("link", { name: m["sources.tab.content"] }).click();
        // the transcript with its timestamps (the bot speaks English)
        await page.getByTestId("document-text").filter({ hasText: "[0:00] Welcome to Acme. First, create a workspace." }).waitFor({ timeout: 20_000 });
        await page.screenshot({ path: path.join(ART, `sources-youtube-${code}.png`), fullPage: true });

        await page.goto(`${base()}/data-sources/new?type=text`);
        await page.waitForLoadState("networkidle");
        await page.getByLabel(m["sources.form.name"]!, { exact: true }).fill(`Opening hours ${code}`);
        await page.getByLabel(m["sources.text.title"]!, { exact: true }).fill("Opening hours");
        await page.getByLabel(m["sources.text.body"]!, { exact: true }).fill("The Rotterdam showroom opens at nine and closes at six, Monday to Saturday.");
        await submitAndOpenSource(page, m);
        await page.getByTestId("document-count").filter({ hasText: "1" }).waitFor({ timeout: 20_000 });
        await page.getByRole("link", { name: m["sources.tab.content"] }).click();
        await page.getByTestId("document-text").filter({ hasText: "closes at six" }).waitFor({ timeout: 20_000 });

        // both on the list, finished
        await page.goto(`${base()}/data-sources`);
        for (const name of [`Acme video ${code}`, `Opening hours ${code}`]) {
          await page.locator("tr", { hasText: name }).locator("[role=progressbar][data-status=succeeded]").waitFor({ timeout: 20_000 });
        }
      });
      assert.deepEqual(errors, []);
      await context.close();
    });
  });
}
