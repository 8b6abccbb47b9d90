// The JavaScript a browser downloads to show the chat: Debian's Chromium opens the visitor's
// chat page, its embed and a marketing page of the built app on a real stack (the e2e
// harness), waits until the page is usable (the composer is there, the network idle), and
// sums every script response, gzipped at level 9 as a static host would serve it. Also
// measures the widget loader. Writes bench/chat/page-weight.md.
// Run from the repo root: `node --import tsx bench/chat/page-weight.ts` (needs a built frontend;
// `node bench/chat/run.mjs` runs it after the timing benchmark).
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { launchBrowser } from "../../e2e/lib/browser.ts";
import { repoRoot } from "../../e2e/lib/app.ts";
import { startFullApp } from "../../e2e/lib/stack.ts";

const HELP_BOT = "c0000000-0000-4000-8000-000000000001";
const gz = (b: Buffer) => zlib.gzipSync(b, { level: 9 }).length;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

interface Weight {
  page: string;
  files: { url: string; raw: number; gzip: number }[];
}

const app = await startFullApp();
const browser = await launchBrowser();
const weights: Weight[] = [];
try {
  const pages: [string, string, string][] = [
    ["chat page (en)", `/bots/${HELP_BOT}`, "textbox"],
    ["chat page (de)", `/de/bots/${HELP_BOT}`, "textbox"],
    ["embed (widget iframe)", `/bots/${HELP_BOT}/embed`, "textbox"],
    ["home page (for comparison)", "/", "heading"],
  ];
  for (const [label, url, ready] of pages) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const files: Weight["files"] = [];
    const pending: Promise<void>[] = [];
    page.on("response", (res) => {
      if (res.request().resourceType() !== "script") return;
      pending.push(
        res.body().then(
          (body) => void files.push({ url: new URL(res.url()).pathname, raw: body.length, gzip: gz(body) }),
          () => undefined,
        ),
      );
    });
    await page.goto(`${app.appUrl}${url}`);
    await page.getByRole(ready as "textbox" | "heading").first().waitFor({ timeout: 30_000 });
    await page.waitForLoadState("networkidle");
    await Promise.all(pending);
    weights.push({ page: `${label}: \`${url}\``, files: files.sort((a, b) => b.gzip - a.gzip) });
    await context.close();
  }
} finally {
  await browser.close();
  await app.stop();
}

const widget = fs.readFileSync(path.join(repoRoot, "frontend", "dist", "widget.js"));
const lines = [
  `Measured ${new Date().toISOString().slice(0, 10)} in Chromium on the built app (\`frontend/dist\`), every script response gzipped at level 9.`,
  "",
  "| page | scripts | raw | gzipped |",
  "| --- | ---: | ---: | ---: |",
  ...weights.map((w) => `| ${w.page} | ${w.files.length} | ${kb(w.files.reduce((s, f) => s + f.raw, 0))} | **${kb(w.files.reduce((s, f) => s + f.gzip, 0))}** |`),
  `| widget loader \`/widget.js\` | 1 | ${kb(widget.length)} | **${kb(gz(widget))}** |`,
  "",
  ...weights.flatMap((w) => ["", `${w.page}:`, "", ...w.files.map((f) => `- \`${f.url}\` ${kb(f.gzip)}`)]),
];
const out = lines.join("\n") + "\n";
fs.writeFileSync(path.join(repoRoot, "bench", "chat", "page-weight.md"), out);
console.log(out);
