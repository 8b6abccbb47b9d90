// What the web reader keeps of a corpus of HTML pages (issue 17): the kept-text ratio (the
// extracted text against the page's visible text without chrome), reference pages whose
// "Description" section is lost, chunks under 50 characters, and chunks whose heading is not a
// heading of the page (a `# comment` line of a code block read as one). No stack needed.
//   node_modules/deno/deno run --no-config --node-modules-dir=none --allow-read --allow-write \
//     bench/ingest/extraction.ts [--docs DIR] [--modules DIR] [--out FILE]
// --modules: a folder holding another html.ts and chunk.ts to measure (e.g. the versions
// before issue 17, from `git show <commit>:<path>`); the visible text is always measured
// with the current html.ts, so both runs share the denominator.
import { chunkText as currentChunk } from "../../supabase/functions/_shared/knowledge/chunk.ts";
import { extractHtml as currentExtract, parseHTML } from "../../supabase/functions/_shared/knowledge/readers/html.ts";

const arg = (name: string) => {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 ? Deno.args[i + 1] : undefined;
};
const docs = arg("docs") ?? "/usr/share/doc/postgresql-doc-15/html";
const modules = arg("modules");
const out = arg("out");
type Extract = (html: string, url: string) => { text: string; title: string };
type Chunk = (text: string, o: { title?: string }) => { heading_path: string; content: string }[];
const extract: Extract = modules
  ? (await import(`file://${Deno.realPathSync(modules)}/html.ts`)).extractHtml
  : currentExtract;
const chunk: Chunk = modules ? (await import(`file://${Deno.realPathSync(modules)}/chunk.ts`)).chunkText : currentChunk;

const norm = (s: string) => s.replace(/\s+/g, " ").replace(/[*_`]/g, "").trim();
let pages = 0;
let kept = 0;
let visible = 0;
const ratios: number[] = [];
let withDescription = 0;
let descriptionLost = 0;
let chunks = 0;
let tiny = 0;
let fakeHeadingChunks = 0;
const navigation: string[] = [];
const t0 = performance.now();
for (const entry of [...Deno.readDirSync(docs)].sort((a, b) => a.name.localeCompare(b.name))) {
  if (!entry.isFile || !entry.name.endsWith(".html")) continue;
  const html = Deno.readTextFileSync(`${docs}/${entry.name}`);
  const url = `http://docs.test/${entry.name}`;
  const page = extract(html, url);
  const current = currentExtract(html, url);
  const seen = current.visibleChars;
  if (current.navigation) navigation.push(entry.name);
  pages++;
  kept += page.text.length;
  visible += seen;
  ratios.push(seen ? Math.min(page.text.length / seen, 1) : 1);
  if (/>\s*Description\s*<\/h2>/.test(html)) {
    withDescription++;
    if (!/^#+ Description$/m.test(page.text)) descriptionLost++;
  }
  const { document } = parseHTML(html);
  const headings = new Set(
    [...document.querySelectorAll("h1, h2, h3, h4, h5, h6, title")].map((h: { textContent: string }) =>
      norm(h.textContent),
    ),
  );
  for (const c of chunk(page.text, { title: page.title })) {
    chunks++;
    if (c.content.length < 50) tiny++;
    if (c.heading_path.split(" > ").some((p) => !headings.has(norm(p)))) fakeHeadingChunks++;
  }
}
ratios.sort((a, b) => a - b);
const results = {
  docs,
  modules: modules ?? "current",
  pages,
  kept_chars: kept,
  visible_chars: visible,
  kept_ratio_overall: Number((kept / visible).toFixed(3)),
  kept_ratio_median: Number(ratios[Math.floor(ratios.length / 2)].toFixed(3)),
  pages_under_40_percent: ratios.filter((r) => r < 0.4).length,
  reference_pages_with_description: withDescription,
  description_lost: descriptionLost,
  chunks,
  chunks_under_50_chars: tiny,
  chunks_under_a_heading_not_on_the_page: fakeHeadingChunks,
  // recognised by the current html.ts whatever --modules says
  navigation_pages: navigation.length,
  navigation_page_names: navigation,
  seconds: Number(((performance.now() - t0) / 1000).toFixed(1)),
};
console.log(JSON.stringify(results, null, 2));
if (out) Deno.writeTextFileSync(out, JSON.stringify(results, null, 2) + "\n");
