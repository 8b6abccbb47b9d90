// Every registered route of the route table (frontend/src/app/routes.ts) in Chromium, on
// the real stack with its seed data, in three languages (English without prefix, de, jp):
// each renders its layout (a main landmark with a heading, not the error page) with no
// console error and no page error, and the app server answers its document with 200.
// Public, auth and test pages are visited signed out, bot pages with the anonymous session
// they give a visitor, signed-in pages as the seeded owner, the admin area as the seeded
// platform administrator; the three languages run side by side, each with its own tabs. Route params get seeded ids
// where the seed has them and well-formed random ids otherwise (e2e/lib/route-samples.ts); a route whose params have
// no sample value there fails the first test, so a route added later is covered or flagged.
// Then the 404s: for every route with validation rules a param that fails its rule ("Page
// Not Found: {path}"), and paths that match no route ("Page not found: {path}"), each with
// the SPA's page and HTTP 404 from the app server (dist/route-manifest.json).
// Run: node --import tsx --test e2e/routes.spec.ts (builds frontend/dist when missing).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser } from "playwright-core";
import { routeTable } from "../frontend/src/app/routes.ts";
import { launchBrowser } from "./lib/browser.ts";
import { repoRoot } from "./lib/app.ts";
import { startFullApp, type FullApp } from "./lib/stack.ts";
import { aal2Session, enrollTotp } from "./lib/totp.ts";
import { openTab, settle, type Tab } from "./lib/tabs.ts";
import { EMAILS, fill, identityOf, localize, paramNames, PARAMS, PASSWORD, SEED, SPLATS, type Identity } from "./lib/route-samples.ts";

const LOCALES = [
  { code: "en", prefix: "" },
  { code: "de", prefix: "/de" },
  { code: "jp", prefix: "/jp" },
] as const;

/** A value that fails each validation rule. */
// segments: over 512 characters (an empty one is /app/conversations, a redirect to its list;
// dot segments the browser resolves before the app sees them).
const INVALID: Record<string, string> = { uuid: "not-a-uuid", slug: "Not_A_Slug", slugPath: "a//b", segments: "a".repeat(513) };

interface Visit {
  name: string;
  identity: Identity;
  /** Visits of one lane run one after the other in their own tabs; lanes run side by side. */
  lane: string;
  url: string;
  /** Expected document status from the app server. */
  status: number;
  /** Expected error heading (404s); otherwise the page must not be the error page. */
  errorHeading?: string;
  /** The path the app may settle on instead (a guard's redirect). */
  landsOn?: RegExp;
  /** A main landmark is expected (every layout but "none"; the error page has one). */
  needsMain: boolean;
}

function messages(code: string): Record<string, string> {
  return JSON.parse(fs.readFileSync(path.join(repoRoot, "frontend", "src", "i18n", "messages", `${code}.json`), "utf8")) as Record<string, string>;
}

// ---------------------------------------------------------------------------------------

const problems: string[] = [];
for (const def of routeTable) {
  try {
    fill(def);
  } catch (e) {
    problems.push((e as Error).message);
  }
  for (const rule of Object.values(def.validate ?? {}) as string[]) {
    if (INVALID[rule] === undefined) problems.push(`route ${def.id}: no failing sample for validation rule "${rule}" in e2e/routes.spec.ts`);
  }
  if (!identityOf(def)) problems.push(`route ${def.id}: no identity for guard "${def.guard}" in e2e/lib/route-samples.ts`);
}
const coverable = routeTable.filter((def) => paramNames(def).every((n) => (n === "*" ? SPLATS[def.id] : PARAMS[n])) && identityOf(def));

function pageVisits(code: string, prefix: string): Visit[] {
  const visits: Visit[] = [];
  for (const def of coverable) {
    const identity = identityOf(def)!;
    const needsMain = def.layout !== "none";
    visits.push({ name: def.id, identity, lane: code, url: localize(prefix, fill(def)), status: 200, needsMain });
    // Bot pages also with the password bot: a visitor without its password is sent to its
    // login page (the chat pages) or sees the page itself (sdk, embed, login).
    if (def.path.startsWith("/bots/:botId")) {
      const url = localize(prefix, fill(def, { botId: SEED.passwordBot }));
      visits.push({ name: `${def.id} (password bot)`, identity, lane: code, url, status: 200, needsMain, landsOn: new RegExp(`^${prefix}/bots/${SEED.passwordBot}/login$`) });
    }
  }
  return visits;
}

function notFoundVisits(): Visit[] {
  const visits: Visit[] = [];
  // Each route with rules once, in a rotating language, for each of its validated params.
  let i = 0;
  for (const def of coverable) {
    for (const [param, rule] of Object.entries(def.validate ?? {}) as [string, string][]) {
      if (INVALID[rule] === undefined) continue; // reported by the first test
      const { code, prefix } = LOCALES[i++ % LOCALES.length]!;
      const url = localize(prefix, fill(def, { [param]: INVALID[rule] }));
      const heading = messages(code)["error.invalidParams"]!.replace("{path}", url);
      visits.push({ name: `${def.id}: ${param} fails "${rule}"`, identity: "visitor", lane: "404", url, status: 404, errorHeading: heading, needsMain: true });
    }
  }
  for (const { code, prefix } of LOCALES) {
    for (const unknown of ["/no/such/page", "/app/bots/wizard/extra", "/en/faq"]) {
      const url = prefix + unknown;
      visits.push({ name: `unknown ${url}`, identity: "visitor", lane: "404", url, status: 404, errorHeading: messages(code)["error.notFound"]!.replace("{path}", url), needsMain: true });
    }
  }
  return visits;
}

// ---------------------------------------------------------------------------------------

let app: FullApp;
let browser: Browser;
const tabs = new Map<string, Promise<Tab>>();
let adminTotp: Promise<string> | undefined;

/** The identity's session cookies: the owner's password session; platform administrators act
 * only after the code step of their authenticator app (aal2), so theirs enrols TOTP once. */
async function cookiesFor(identity: Identity) {
  if (identity === "owner") return app.sessionCookies(EMAILS[identity], PASSWORD);
  if (identity !== "platform-admin") return [];
  adminTotp ??= enrollTotp(app, { email: EMAILS[identity], password: PASSWORD });
  return app.cookiesOf(await aal2Session(app, { email: EMAILS[identity], password: PASSWORD, totpSecret: await adminTotp }));
}

/** One tab per identity and lane, reused by every visit of that lane (its cache stays warm). */
const tab = (identity: Identity, lane: string) => {
  const key = `${identity}:${lane}`;
  if (!tabs.has(key)) {
    tabs.set(key, cookiesFor(identity).then((cookies) => openTab(browser, { cookies })));
  }
  return tabs.get(key)!;
};

async function check(visit: Visit): Promise<void> {
  const t = await tab(visit.identity, visit.lane);
  if (visit.identity === "visitor") await t.context.clearCookies();
  t.errors.length = 0;
  const response = await t.page.goto(app.appUrl + visit.url);
  assert.equal(response?.status(), visit.status, `document status of ${visit.url}`);
  try {
    await settle(t, visit.needsMain);
  } catch (e) {
    const text = (await t.page.locator("body").innerText().catch(() => "")).slice(0, 300).replace(/\s+/g, " ");
    throw new Error(`${visit.url} did not settle: ${(e as Error).message.split("\n")[0]} | page: ${text} | errors: ${t.errors.join(" | ")}`);
  }
  const pathname = new URL(t.page.url()).pathname;
  const isErrorPage = (await t.page.locator("main.error-page").count()) > 0;
  const heading = ((await t.page.locator("main h1, #root h1").first().textContent()) ?? "").trim();
  if (visit.errorHeading) {
    assert.ok(isErrorPage, `${visit.url}: expected the error page, got "${heading}"`);
    assert.equal(heading, visit.errorHeading);
  } else {
    assert.ok(!isErrorPage, `${visit.url}: the error page "${heading}" instead of the screen`);
    const expectedPath = visit.url.split("?")[0]!;
    assert.ok(pathname === expectedPath || visit.landsOn?.test(pathname), `${visit.url}: ended on ${pathname}`);
  }
  assert.deepEqual(t.errors, [], `${visit.url}: console or page errors`);
}

before(async () => {
  app = await startFullApp();
  browser = await launchBrowser();
});

after(async () => {
  for (const t of tabs.values()) await (await t).context.close().catch(() => {});
  await browser?.close();
  await app?.stop();
});

describe("the route table", () => {
  it("has a sample value for every route param and an identity for every guard", () => {
    assert.deepEqual(problems, []);
    assert.equal(coverable.length, routeTable.length);
  });
});

// The languages side by side (the machine waits on the stack more than it computes).
describe("every route in three languages", { concurrency: LOCALES.length }, () => {
  for (const { code, prefix } of LOCALES) {
    // One at a time inside a language: its visits share tabs (subtests would inherit 3).
    describe(`under "${prefix || "/"}" (${code})`, { concurrency: 1 }, () => {
      for (const visit of pageVisits(code, prefix)) {
        it(`${visit.name} ${visit.url} as ${visit.identity}`, () => check(visit));
      }
    });
  }
});

describe("404s from the browser's router and the app server", () => {
  for (const visit of notFoundVisits()) {
    it(`${visit.name}: ${visit.url}`, () => check(visit));
  }

  it("a signed-in user who is no platform administrator gets the Forbidden page in the admin area", async () => {
    const t = await tab("owner", "404");
    t.errors.length = 0;
    await t.page.goto(`${app.appUrl}/de/app/admin/users`);
    await settle(t, true);
    assert.equal(await t.page.locator("main.error-page").getAttribute("data-status"), "403");
    assert.deepEqual(t.errors, []);
  });
});
