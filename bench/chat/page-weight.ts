// The visitor's pages, measured in Debian's Chromium on the built app (`frontend/dist`) and a
// fresh stack (the e2e harness, whose stack warms the chat function when it starts):
//
// 1. Weight: the JavaScript requested before the composer is usable (an enabled textarea that
//    takes input), and all of it once the network is idle, every script gzipped at level 9 as a
//    static host serves it; the chat page in English and German, the embed, the home page; plus
//    the widget loader.
// 2. Composer usable, throttled: CDP Emulation.setCPUThrottlingRate 4 and
//    Network.emulateNetworkConditions "Fast 4G" as Chrome DevTools (and Puppeteer's
//    PredefinedNetworkConditions) define it: 165 ms latency (60 × 2.75), 9 Mbit/s × 0.9 down,
//    1.5 Mbit/s × 0.9 up. Time from navigation start (performance.timeOrigin) to the composer
//    being usable, each load in a new browser context (cold cache), median of LOADS (7).
// 3. New visitor, first message: a new browser context (no session) opens the chat page, writes a
//    question and sends it; time from pressing send to the first answer text on screen. "typed":
//    the question typed at ~20 characters a second (the anonymous sign-in starts at the first
//    keystroke); "pasted": the question filled in and sent at once. Median of VISITORS (5) each.
//
// Run from the repo root: `node --import tsx bench/chat/page-weight.ts` (needs a built frontend:
// `npm run build --workspace frontend`). Writes bench/chat/page-weight.md, keeping its
// "## Before and after" section (written by hand) below the new numbers.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import type { Browser, Page } from "playwright-core";
import { launchBrowser } from "../../e2e/lib/browser.ts";
import { repoRoot } from "../../e2e/lib/app.ts";
import { startFullApp } from "../../e2e/lib/stack.ts";

const HELP_BOT = "c0000000-0000-4000-8000-000000000001";
const LOADS = Number(process.env.LOADS ?? 7);
const VISITORS = Number(process.env.VISITORS ?? 5);
const QUESTION = "How do I add a bot to my website?";
/** The report's hand-written part, kept when the numbers are measured again. */
const HISTORY = "## Before and after";
/** Chrome DevTools' "Fast 4G" (front_end/core/sdk/NetworkManager.ts; Puppeteer's PredefinedNetworkConditions). */
const FAST_4G = { offline: false, latency: 60 * 2.75, downloadThroughput: ((9 * 1000 * 1000) / 8) * 0.9, uploadThroughput: ((1.5 * 1000 * 1000) / 8) * 0.9 };

const gz = (b: Buffer) => zlib.gzipSync(b, { level: 9 }).length;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const ms = (n: number) => `${Math.round(n)} ms`;

/** Records, in the page, when the composer first becomes usable (performance.now(), ms after navigation start). */
const WATCH_COMPOSER = `(() => {
  const check = () => {
    const t = document.querySelector("textarea.chat-composer__input");
    if (t && !t.disabled && !t.readOnly && window.__composerUsable === undefined) window.__composerUsable = performance.now();
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
})();`;

async function composerUsable(page: Page): Promise<number> {
  const handle = await page.waitForFunction(() => (window as unknown as { __composerUsable?: number }).__composerUsable, undefined, { timeout: 60_000, polling: 50 });
  return (await handle.jsonValue()) as number;
}

interface Weight {
  page: string;
  before: { url: string; gzip: number }[];
  all: { url: string; gzip: number }[];
}

async function weigh(browser: Browser, base: string, label: string, url: string, chat: boolean): Promise<Weight> {
  const context = await browser.newContext();
  await context.addInitScript(WATCH_COMPOSER);
  const page = await context.newPage();
  const scripts: { url: string; requested: number; gzip: Promise<number> }[] = [];
  page.on("response", (res) => {
    if (res.request().resourceType() !== "script") return;
    scripts.push({ url: new URL(res.url()).pathname, requested: res.request().timing().startTime, gzip: res.body().then(gz, () => 0) });
  });
  await page.goto(`${base}${url}`);
  let usableAt = Infinity;
  if (chat) {
    const usable = await composerUsable(page);
    usableAt = (await page.evaluate(() => performance.timeOrigin)) + usable;
  } else await page.getByRole("heading").first().waitFor({ timeout: 30_000 });
  await page.waitForLoadState("networkidle");
  const files = await Promise.all(scripts.map(async (s) => ({ url: s.url, requested: s.requested, gzip: await s.gzip })));
  await context.close();
  const sort = (xs: { url: string; gzip: number }[]) => xs.sort((a, b) => b.gzip - a.gzip);
  return { page: `${label}: \`${url}\``, before: sort(files.filter((f) => f.requested <= usableAt)), all: sort(files) };
}

async function throttledLoad(browser: Browser, base: string, url: string): Promise<number> {
  const context = await browser.newContext();
  await context.addInitScript(WATCH_COMPOSER);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await cdp.send("Network.emulateNetworkConditions", FAST_4G);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await page.goto(`${base}${url}`, { waitUntil: "commit" });
  const t = await composerUsable(page);
  await context.close();
  return t;
}

async function firstMessage(browser: Browser, base: string, typed: boolean): Promise<{ total: number }> {
  const context = await browser.newContext();
  await context.addInitScript(WATCH_COMPOSER);
  const page = await context.newPage();
  await page.goto(`${base}/bots/${HELP_BOT}`);
  await composerUsable(page);
  const box = page.locator("textarea.chat-composer__input");
  if (typed) await box.pressSequentially(QUESTION, { delay: 50 });
  else await box.fill(QUESTION);
  const sentAt = await page.evaluate(() => {
    const t = performance.now();
    (document.querySelector("button.chat-send") as HTMLButtonElement).click();
    return t;
  });
  const answeredAt = await page.waitForFunction(
    () => {
      const el = document.querySelector('[data-testid="chat-answer"]');
      const text = el?.textContent?.trim() ?? "";
      return text && !el?.querySelector(".chat-typing") ? performance.now() : 0;
    },
    undefined,
    { timeout: 60_000, polling: "raf" },
  );
  const total = ((await answeredAt.jsonValue()) as number) - sentAt;
  await context.close();
  return { total };
}

const load = os.loadavg().map((n) => n.toFixed(1)).join(", ");
const app = await startFullApp();
const browser = await launchBrowser();
const weights: Weight[] = [];
const throttled: { page: string; times: number[] }[] = [];
const first: { mode: string; times: number[] }[] = [];
try {
  // The stack warms the chat function when it starts; the first visitor comes after that.
  for (const [label, url, chat] of [
    ["chat page (en)", `/bots/${HELP_BOT}`, true],
    ["chat page (de)", `/de/bots/${HELP_BOT}`, true],
    ["embed (widget iframe)", `/bots/${HELP_BOT}/embed`, true],
    ["home page (for comparison)", "/", false],
  ] as const) {
    weights.push(await weigh(browser, app.appUrl, label, url, chat));
  }
  for (const [label, url] of [["chat page (en)", `/bots/${HELP_BOT}`], ["embed (widget iframe)", `/bots/${HELP_BOT}/embed`]] as const) {
    const times: number[] = [];
    for (let i = 0; i < LOADS; i++) times.push(await throttledLoad(browser, app.appUrl, url));
    throttled.push({ page: `${label}: \`${url}\``, times });
  }
  for (const typed of [true, false]) {
    const times: number[] = [];
    for (let i = 0; i < VISITORS; i++) times.push((await firstMessage(browser, app.appUrl, typed)).total);
    first.push({ mode: typed ? "typed (~20 characters/s; sign-in from the first keystroke)" : "pasted and sent at once", times });
  }
} finally {
  await browser.close();
  await app.stop();
}

const sum = (xs: { gzip: number }[]) => xs.reduce((s, f) => s + f.gzip, 0);
const widget = fs.readFileSync(path.join(repoRoot, "frontend", "dist", "widget.js"));
const lines = [
  `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC by \`node --import tsx bench/chat/page-weight.ts\` in Debian's Chromium on the built app (\`frontend/dist\`) and a fresh stack; load average at the start ${load} (${os.cpus().length} cores, shared with other work).`,
  "",
  "## Weight (JavaScript, gzipped at level 9)",
  "",
  "| page | scripts before the composer is usable | gzipped before usable (target ≤ 120 KB) | all scripts once idle | gzipped once idle |",
  "| --- | ---: | ---: | ---: | ---: |",
  ...weights.map((w) => `| ${w.page} | ${w.before.length} | **${kb(sum(w.before))}** | ${w.all.length} | ${kb(sum(w.all))} |`),
  `| widget loader \`/widget.js\` | 1 | **${kb(gz(widget))}** | 1 | ${kb(gz(widget))} |`,
  "",
  "(The home page has no composer: its columns are the same, all scripts once idle.)",
  "",
  "## Composer usable, 4× CPU slowdown and Fast 4G",
  "",
  `Chrome DevTools' "Fast 4G": 165 ms latency, 9 Mbit/s × 0.9 down, 1.5 Mbit/s × 0.9 up; cache off, a new context per load; ${LOADS} loads.`,
  "",
  "| page | median (target ≤ 1.5 s) | min | max | all |",
  "| --- | ---: | ---: | ---: | --- |",
  ...throttled.map((t) => `| ${t.page} | **${ms(median(t.times))}** | ${ms(Math.min(...t.times))} | ${ms(Math.max(...t.times))} | ${t.times.map(ms).join(", ")} |`),
  "",
  "## New visitor, first message (no throttling)",
  "",
  `From pressing send to the first answer text on screen, the extractive default (no model key), each visitor a new context without a session; ${VISITORS} visitors per row.`,
  "",
  "| how the question was written | median (target < 1 s) | min | max | all |",
  "| --- | ---: | ---: | ---: | --- |",
  ...first.map((f) => `| ${f.mode} | **${ms(median(f.times))}** | ${ms(Math.min(...f.times))} | ${ms(Math.max(...f.times))} | ${f.times.map(ms).join(", ")} |`),
  "",
  "## Scripts before the composer is usable",
  ...weights.flatMap((w) => ["", `${w.page}:`, "", ...w.before.map((f) => `- \`${f.url}\` ${kb(f.gzip)}`)]),
];
lines.splice(1, 0, "", `Load average at the end: ${os.loadavg().map((n) => n.toFixed(1)).join(", ")}.`);
// The written history (before and after each change) stays below the new numbers.
const file = path.join(repoRoot, "bench", "chat", "page-weight.md");
const previous = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
const history = previous.indexOf(HISTORY);
const out = lines.join("\n") + "\n" + (history >= 0 ? "\n" + previous.slice(history) : "");
fs.writeFileSync(file, out);
console.log(out);
