// Every language whole, at every width (issue 16): every public route, every screen a
// signed-in owner reaches and every screen of the platform administrator's area (signed in
// as the seeded platform admin, past the authenticator-app step: aal2), in all ten languages, at 360, 390 and 1366 px, against the real
// stack and its seed. On each page and width:
//   - the page does not scroll sideways (no element wider than the viewport);
//   - the header is not cut off: its row of links fits or has collapsed into the menu, and
//     nothing of it sticks out of the header;
//   - no select box cuts off the option it shows;
// and on each page outside English: no English text of the message catalogues (whole texts,
// and the fixed parts of texts with arguments) and no sentence of the English content files
// (docs, blog, legal, launch week, pages) in the text, placeholders, labels and titles
// (code samples and marked user content left out; seeded user content that equals a catalogue
// text is allowed where it shows, in ALLOWED_ENGLISH). Each English page must show some of
// the texts German words otherwise: proof that the check reads the page.
// The route list is the route table (frontend/src/app/routes.ts) with every content slug and
// the seeded ids (e2e/lib/route-samples.ts); a route neither visited nor left out below with
// its reason fails the first test, so a later route is covered or flagged. Left out: the
// auth provider hand-offs (they redirect to the provider) and the /test/* harness pages.
// Speed: one page load per language and role; the other routes are reached by the app's own
// client-side navigation, and each page is measured at the three widths by resizing the
// viewport (the layout settles after each resize). Two lanes walk side by side: the visitor
// and the owner, then the administrator (three browser contexts, one browser).
// 920 page visits × 3 widths took 3.7-6.4 minutes on two cores shared with other work (the
// old audit, one load per page and width, took 20+). The admin area's 160 visits take
// 50-110 s and start when the owner's lane ends, so they end before the visitor's lane:
// 4.3 min without them (load 3-17), 5.5 min with them (load 14-17; visitor lane 306 s,
// owner 179 s + admin 108 s), on 2026-11-28.
// Run: node --import tsx --test e2e/languages.spec.ts (needs a built frontend).
// PARLEY_LANGUAGES=de,el runs some languages only (a quicker local check); all ten by default.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser } from "playwright-core";
import { routeTable, type RouteDef } from "../frontend/src/app/routes.ts";
import { LOCALE_CODES, type LocaleCode } from "../frontend/src/i18n/locales.ts";
import { launchBrowser } from "./lib/browser.ts";
import { repoRoot } from "./lib/app.ts";
import { startFullApp, type FullApp } from "./lib/stack.ts";
import { openTab, settle, type Tab } from "./lib/tabs.ts";
import { aal2Session, enrollTotp } from "./lib/totp.ts";
import { contentSlugs, EMAILS, fill, identityOf, localize, PASSWORD } from "./lib/route-samples.ts";

const WIDTHS = [1366, 390, 360];
const HEIGHT = 800;
const LANGUAGES = (process.env.PARLEY_LANGUAGES?.split(",") ?? LOCALE_CODES) as LocaleCode[];

// --- the routes --------------------------------------------------------------------------

/** Routes not walked here, each with its reason. */
const LEFT_OUT: { match: (def: RouteDef) => boolean; why: string }[] = [
  {
    match: (d) => d.id.startsWith("auth.providers."),
    why: "provider sign-in hands over to Google, Notion... (a redirect, no page of ours)",
  },
  {
    match: (d) => d.id.startsWith("test."),
    why: "harness pages the widget and feature specs load, not pages a person opens",
  },
];
const leftOut = (def: RouteDef) => LEFT_OUT.some((l) => l.match(def));

type Lane = "visitor" | "owner" | "admin";
const LANES: readonly Lane[] = ["visitor", "owner", "admin"];
const WALKER: Record<Lane, string> = {
  visitor: "a visitor",
  owner: "the seeded owner",
  admin: "the seeded platform admin (aal2)",
};
interface Visit {
  id: string;
  /** Unprefixed URL. */
  url: string;
  needsMain: boolean;
}

/** Every URL of a route: one per content slug for content routes, else the seeded sample. */
function urlsOf(def: RouteDef): string[] {
  if (def.path.includes(":slug")) return contentSlugs(def.meta?.collection).map((slug) => fill(def, { slug }));
  if (def.id === "pages") return contentSlugs("pages").map((p) => fill(def, { "*": p }));
  return [fill(def)];
}

const unplaced: string[] = [];
const visits: Record<Lane, Visit[]> = { visitor: [], owner: [], admin: [] };
for (const def of routeTable) {
  if (leftOut(def)) continue;
  const identity = identityOf(def);
  // A visitor walks the site, the sign-in pages and then the bot pages (which give it an
  // anonymous session, as someone chatting has); the owner walks the app; the platform
  // admin walks the admin area.
  const lane: Lane | undefined =
    identity === "visitor" || identity === "bot-visitor"
      ? "visitor"
      : identity === "owner"
        ? "owner"
        : identity === "platform-admin"
          ? "admin"
          : undefined;
  if (!lane) {
    unplaced.push(`route ${def.id}: no walker for guard "${def.guard}" in e2e/languages.spec.ts`);
    continue;
  }
  try {
    for (const url of urlsOf(def)) visits[lane].push({ id: def.id, url, needsMain: def.layout !== "none" });
  } catch (e) {
    unplaced.push((e as Error).message);
  }
}
visits.visitor.sort((a, b) => Number(a.url.startsWith("/bots/")) - Number(b.url.startsWith("/bots/")));

// --- what counts as English text ---------------------------------------------------------

const messagesDir = path.join(repoRoot, "frontend", "src", "i18n", "messages");
function catalogue(code: string): Record<string, string> {
  const all: Record<string, string> = JSON.parse(fs.readFileSync(path.join(messagesDir, `${code}.json`), "utf8"));
  for (const area of fs.readdirSync(messagesDir, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    const file = path.join(messagesDir, area.name, `${code}.json`);
    if (fs.existsSync(file)) Object.assign(all, JSON.parse(fs.readFileSync(file, "utf8")));
  }
  return all;
}
const english = catalogue("en");

/** A sentence-like piece: three words or more and 12 characters or more. */
const sentenceLike = (text: string) => text.length >= 12 && / \S+ /.test(text);

/**
 * The fixed parts of a message: the text between its arguments and tags ("Delete {name}?
 * This cannot be undone." gives "This cannot be undone."), plural branches left out.
 */
function fixedParts(message: string): string[] {
  let flat = message;
  // Innermost brace groups first, until none is left.
  for (let prev = ""; prev !== flat;) {
    prev = flat;
    flat = flat.replace(/\{[^{}]*\}/g, "\u0000");
  }
  return flat
    .split(/\u0000|<\/?\w+>/)
    .map((s) => s.replace(/\s+/g, " ").trim())
    .filter(sentenceLike);
}

/** Sentences of the English content files (prose only: no code, tables or front matter). */
function contentSentences(): string[] {
  const root = path.join(repoRoot, "frontend", "content");
  const out: string[] = [];
  for (const dir of fs.readdirSync(root)) {
    for (const file of fs.readdirSync(path.join(root, dir)).filter((f) => !/\.[a-z]{2}\.md$/.test(f))) {
      const body = fs
        .readFileSync(path.join(root, dir, file), "utf8")
        .replace(/^---[\s\S]*?---/, "")
        .replace(/```[\s\S]*?```/g, "");
      for (const line of body.split("\n")) {
        if (/^\s*\|/.test(line)) continue;
        const text = line
          .replace(/`[^`]*`/g, " ")
          .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
          .replace(/[*_>#]/g, "")
          .replace(/\s+/g, " ")
          .trim();
        for (const sentence of text.split(/(?<=[.:!?])\s+/))
          if (sentence.length >= 30 && / \w+ \w+ /.test(sentence)) out.push(sentence);
      }
    }
  }
  return out;
}

/**
 * English that may stand on a page in another language, each with where and why. Keep it
 * short and explicit: user content (names, questions, phrases the seed's owner typed in
 * English) that happens to equal a catalogue text, never the interface's own words.
 */
const ALLOWED_ENGLISH: { text: string; where: RegExp; why: string }[] = [
  {
    text: "Talk to a person",
    where: /\/power-ups$/,
    why: "label of the seeded hand-over power-up (supabase/seed.sql), the default label in English",
  },
  {
    text: "Looked up your order",
    where: /\/power-ups$/,
    why: "label of the seeded order-lookup power-up (supabase/seed.sql)",
  },
  {
    text: "I want to talk to sales Can someone contact me?",
    where: /\/power-ups\/[^/]+\/settings$/,
    why: "example phrases of the seeded lead power-up, in its text box",
  },
  {
    text: "Create your account",
    where: /\/tests\/[^/]+$/,
    why: "a section of the seeded English help centre, quoted as a test result's source",
  },
];
const allowed = (text: string, path: string) => ALLOWED_ENGLISH.some((a) => a.text === text && a.where.test(path));

/** The English texts a page in `code` must not show: what that language says otherwise. */
function englishOnlyTexts(code: string): string[] {
  const own = catalogue(code);
  const texts = new Set<string>();
  for (const [id, text] of Object.entries(english)) {
    const theirs = own[id];
    // A message missing in the language shows in English; one "translated" as the English text is English too.
    if (theirs !== undefined && theirs !== text) {
      const theirParts = new Set(fixedParts(theirs));
      for (const part of fixedParts(text)) if (!theirParts.has(part)) texts.add(part);
    } else {
      for (const part of fixedParts(text)) texts.add(part);
    }
  }
  for (const sentence of contentSentences()) texts.add(sentence);
  return [...texts];
}

// --- in the page (strings: the test runner's transpiler would add helpers the page lacks) --

/** Overflow, a cut-off header and cut-off select boxes at the current width. */
const MEASURE = `(() => {
  const vw = window.innerWidth;
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + [...el.classList].map((c) => "." + c).join("");
  const problems = [];
  if (document.documentElement.scrollWidth > vw + 1) {
    // The culprits: elements past the right edge that are wider than their parent's box
    // (their ancestors and children are only carried along), not inside a box that scrolls
    // or clips them.
    const clipped = (el) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        if (getComputedStyle(a).overflowX !== "visible" && a.getBoundingClientRect().right <= vw + 1) return true;
      }
      return false;
    };
    const culprits = [...document.querySelectorAll("body *")].filter((el) => {
      if (!el.getClientRects().length || !el.parentElement) return false;
      const r = el.getBoundingClientRect();
      return r.right > vw + 1 && r.right > el.parentElement.getBoundingClientRect().right + 1 && !clipped(el);
    }).slice(0, 3);
    // None: a positioned element escapes the box that scrolls its neighbours.
    if (!culprits.length) culprits.push(...[...document.querySelectorAll("body *")].filter((el) => el.getClientRects().length && el.getBoundingClientRect().right > vw + 1 && getComputedStyle(el).position !== "static").slice(0, 3));
    problems.push("page is " + document.documentElement.scrollWidth + "px wide: " + culprits.map((el) => name(el) + " " + Math.round(el.getBoundingClientRect().width) + "px " + JSON.stringify((el.textContent || "").trim().slice(0, 40))).join(", "));
  }
  for (const list of document.querySelectorAll("header .primary-nav__list")) {
    if (list.offsetParent !== null && list.scrollWidth > list.clientWidth + 1) problems.push("header links need " + list.scrollWidth + "px, have " + list.clientWidth + "px");
  }
  for (const inner of document.querySelectorAll(".site-header__inner, .app-header__inner")) {
    const box = inner.getBoundingClientRect();
    for (const child of inner.children) {
      const r = child.getBoundingClientRect();
      if (r.width && (r.right > Math.min(box.right, vw) + 1 || r.left < box.left - 1)) problems.push(name(child) + " sticks out of the header");
    }
  }
  const ctx = document.createElement("canvas").getContext("2d");
  for (const select of document.querySelectorAll("select")) {
    const option = select.selectedOptions[0];
    if (!option || !select.getClientRects().length) continue;
    const cs = getComputedStyle(select);
    ctx.font = cs.font;
    const room = select.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    const need = ctx.measureText(option.text).width;
    if (need > room + 1) problems.push("select " + name(select) + " cuts off " + JSON.stringify(option.text) + " (" + Math.ceil(need) + "px text, " + Math.floor(room) + "px room)");
  }
  return problems;
})()`;

/** The text a person reads or hears: without code samples and user content (bot names, chats). */
const READ_TEXT = `(() => {
  const clone = document.body.cloneNode(true);
  clone.querySelectorAll("code, pre, script, style, template, [data-user-content]").forEach((el) => el.remove());
  const attrs = [...clone.querySelectorAll("[placeholder], [aria-label], [title], [alt]")]
    .flatMap((el) => ["placeholder", "aria-label", "title", "alt"].map((a) => el.getAttribute(a)).filter(Boolean));
  return [document.title, clone.textContent, ...attrs].join(" | ").replace(/\\s+/g, " ");
})()`;

const frames = (n: number) =>
  `new Promise((r) => { let i = ${n}; const f = () => (--i ? requestAnimationFrame(f) : r()); requestAnimationFrame(f); })`;

/** Client-side navigation through the app's router, as a link or the back button does. */
const CLIENT_NAVIGATE = (url: string) =>
  `(() => { history.pushState(null, "", ${JSON.stringify(url)}); dispatchEvent(new PopStateEvent("popstate", { state: null })); })()`;
/** True once the app rendered the location (its canonical link follows the route it shows). */
const RENDERED = `(() => { const l = document.querySelector("link[rel=canonical]"); return !!l && new URL(l.href).pathname === location.pathname; })()`;

// --- the walk ----------------------------------------------------------------------------

let app: FullApp;
let browser: Browser;
const tabs = new Map<Lane, Tab>();

before(async () => {
  app = await startFullApp();
  browser = await launchBrowser();
  for (const lane of LANES) {
    tabs.set(
      lane,
      await openTab(browser, { cookies: await cookiesOf(lane), viewport: { width: WIDTHS[0]!, height: HEIGHT } }),
    );
  }
});

after(async () => {
  for (const t of tabs.values()) await t.context.close().catch(() => {});
  await browser?.close();
  await app?.stop();
});

/** The session cookies of a lane's walker: none, the owner's, the platform admin's at aal2. */
async function cookiesOf(lane: Lane) {
  if (lane === "visitor") return [];
  if (lane === "owner") return app.sessionCookies(EMAILS.owner, PASSWORD);
  const who = { email: EMAILS["platform-admin"], password: PASSWORD };
  const session = await aal2Session(app, { ...who, totpSecret: await enrollTotp(app, who) });
  // The seed's audit log is empty: move the admin's own personal team to another plan and
  // back, so the admin pages' audit tables show entries (target, before and after) as well.
  const rest = (url: string, body?: unknown) =>
    fetch(`${app.apiUrl}/rest/v1/${url}`, {
      method: body ? "POST" : "GET",
      headers: {
        apikey: app.anonKey,
        authorization: `Bearer ${session.access_token}`,
        "content-type": "application/json",
      },
      body: body ? JSON.stringify(body) : undefined,
    });
  const teams = (await (
    await rest(`teams?select=id,plan_id&personal=is.true&created_by=eq.${session.user.id}`)
  ).json()) as { id: string; plan_id: string }[];
  assert.equal(teams.length, 1, "the platform admin's personal team");
  for (const plan of [teams[0]!.plan_id === "pro" ? "business" : "pro", teams[0]!.plan_id]) {
    const res = await rest("rpc/admin_set_team_plan", { team_id: teams[0]!.id, plan_id: plan });
    assert.ok(res.ok, `admin_set_team_plan ${plan}: ${res.status} ${await res.text()}`);
  }
  return app.cookiesOf(session);
}

/** Walks one lane's routes in one language; returns what it found, one line per problem. */
async function walk(lane: Lane, code: LocaleCode): Promise<string[]> {
  const t = tabs.get(lane)!;
  const prefix = code === "en" ? "" : `/${code}`;
  // In English, German's list: every English page must show some of it (the check reads the page).
  const englishTexts = englishOnlyTexts(code === "en" ? "de" : code);
  const problems: string[] = [];
  // Each language starts signed out (the bot pages of the last one gave the visitor a session).
  if (lane === "visitor") await t.context.clearCookies();
  let widths = WIDTHS;
  for (const [i, visit] of visits[lane].entries()) {
    const url = localize(prefix, visit.url);
    try {
      if (i === 0) await t.page.goto(app.appUrl + url, { waitUntil: "domcontentloaded" });
      else await t.page.evaluate(CLIENT_NAVIGATE(url));
      await t.page.waitForFunction(RENDERED, undefined, { timeout: 20_000, polling: "raf" });
      await settle(t, visit.needsMain);
    } catch (e) {
      problems.push(`${url}: did not settle (${(e as Error).message.split("\n")[0]})`);
      continue;
    }
    // The widths up and down in turn: each page starts at the width the last one ended at.
    for (const width of widths) {
      if (t.page.viewportSize()?.width !== width) {
        await t.page.setViewportSize({ width, height: HEIGHT });
        await t.page.evaluate(frames(3));
      }
      for (const p of (await t.page.evaluate(MEASURE)) as string[]) problems.push(`${url} at ${width}px: ${p}`);
    }
    widths = [...widths].reverse();
    const text = (await t.page.evaluate(READ_TEXT)) as string;
    const found = englishTexts.filter((s) => text.includes(s) && !allowed(s, visit.url));
    if (code === "en") {
      // The check itself: an English page shows some of the texts another language words otherwise.
      if (!found.length)
        problems.push(`${url}: none of the English texts German translates was found here; is the text read at all?`);
    } else if (found.length) {
      problems.push(
        `${url}: English text ${found
          .slice(0, 4)
          .map((s) => JSON.stringify(s))
          .join(", ")}`,
      );
    }
  }
  return problems;
}

describe("the route table", () => {
  it("every route is walked or left out with its reason", () => {
    assert.deepEqual(unplaced, []);
    const walked = new Set(LANES.flatMap((lane) => visits[lane]).map((v) => v.id));
    assert.deepEqual(
      routeTable.filter((d) => !walked.has(d.id) && !leftOut(d)).map((d) => d.id),
      [],
    );
  });
});

// Two lanes side by side (the machine waits on the stack as much as it computes): the
// visitor's and the owner's, then the admin's (the third starts when either ends).
describe("every page in every language at 360, 390 and 1366 px", { concurrency: 2 }, () => {
  for (const lane of LANES) {
    describe(`as ${WALKER[lane]}`, { concurrency: 1 }, () => {
      for (const code of LANGUAGES) {
        it(`${code}: ${visits[lane].length} pages fit${code === "en" ? "" : ` and speak ${code}`}`, async () => {
          assert.deepEqual(await walk(lane, code), []);
        });
      }
    });
  }
});
