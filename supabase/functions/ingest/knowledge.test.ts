// Unit tests of the knowledge helpers (no stack needed): chunking, HTML
// extraction, URL globs, settings, YouTube and Notion parsing.
import assert from "node:assert/strict";
import { chunkText, splitSentences } from "../_shared/knowledge/chunk.ts";
import {
  contentRegion,
  extractHtml,
  MIN_REGION_RATIO,
  missingHeadings,
  parseHTML,
} from "../_shared/knowledge/readers/html.ts";
import { csvToDocuments, fileKind } from "../_shared/knowledge/readers/files.ts";
import { notionId } from "../_shared/knowledge/readers/notion.ts";
import { crawlWeb, globToRegExp, parseSitemap, urlMatches } from "../_shared/knowledge/readers/web.ts";
import type { SourceContext } from "../_shared/knowledge/readers/types.ts";
import { jsonAt, parseYoutubeUrl, pickTrack, transcriptToText } from "../_shared/knowledge/readers/youtube.ts";
import { embeddingsUrl, embedTexts } from "../_shared/knowledge/embeddings.ts";
import { parseSettings } from "./settings.ts";
import { isTransient, nextSyncAt } from "./sync.ts";

Deno.test("sentences split on Latin and CJK punctuation, not inside numbers or names", () => {
  assert.deepEqual(splitSentences("Version 3.5 is out. See example.com for more! Ready?"), [
    "Version 3.5 is out.",
    "See example.com for more!",
    "Ready?",
  ]);
  assert.deepEqual(splitSentences("東京は大きい。大阪も大きい！本当？"), [
    "東京は大きい。",
    "大阪も大きい！",
    "本当？",
  ]);
});

Deno.test("chunks keep heading paths, whole sentences and overlap", () => {
  const sentence = (i: number) => `Sentence number ${i} explains one more detail of installing the tool.`;
  const body = Array.from({ length: 60 }, (_, i) => sentence(i)).join(" ");
  const text = `# Guide\n\nIntro text.\n\n## Install\n\n${body}\n\n## Billing\n\nInvoices arrive monthly.`;
  const chunks = chunkText(text, { maxChars: 1000 });
  assert.equal(chunks[0].heading_path, "Guide");
  const install = chunks.filter((c) => c.heading_path === "Guide > Install");
  assert.ok(install.length >= 3, `expected several install chunks, got ${install.length}`);
  for (const c of install) {
    assert.ok(c.content.length <= 1000, `chunk too long: ${c.content.length}`);
    assert.match(c.content, /^Sentence number \d+ .*tool\.$/s, "chunks start and end on sentence boundaries");
  }
  // overlap: the last sentence of a chunk starts the next one
  const lastOfFirst = install[0].content.split(/(?<=\.) /).pop()!;
  const firstOfSecond = install[1].content.split(/(?<=\.) /)[0];
  assert.ok(install[1].content.includes(lastOfFirst), "the next chunk repeats the end of the previous one");
  assert.ok(install[0].content.includes(firstOfSecond), "the overlap is made of whole sentences");
  assert.deepEqual(chunks.at(-1)!.heading_path, "Guide > Billing");
  assert.deepEqual(
    chunks.map((c) => c.position),
    chunks.map((_, i) => i),
  );
  // a title becomes the root of the path; a first heading equal to it is not repeated
  assert.equal(chunkText("# Manual\n\nHello there.", { title: "Manual" })[0].heading_path, "Manual");
  assert.equal(chunkText("Plain words.", { title: "Doc" })[0].heading_path, "Doc");
  // headings inside code fences are code
  assert.equal(chunkText("# A\n\n```\n# not a heading\n```\n").length, 1);
});

Deno.test("CJK text is chunked by its own full stops", () => {
  const text = Array.from({ length: 200 }, (_, i) => `これは${i}番目の文です。`).join("");
  const chunks = chunkText(text, { maxChars: 300 });
  assert.ok(chunks.length > 5);
  for (const c of chunks) assert.ok(c.content.endsWith("。") && c.content.length <= 300);
});

Deno.test("HTML: main content with headings, chrome and dropped selectors removed, links and canonical found", () => {
  const html = `<!doctype html><html lang="en"><head><title>Install | Acme</title>
    <link rel="canonical" href="/docs/install"><script>var x = 1</script></head>
    <body><nav><a href="/a">Menu</a></nav>
    <main><h1>Install</h1><p>Run   <code>npm i acme</code>.</p><div class="ad">Buy now</div>
    <h2>Requirements</h2><ul><li>Node 20</li><li>2 GB RAM</li></ul></main>
    <footer>© Acme <a href="https://other.example/x">x</a></footer></body></html>`;
  const page = extractHtml(html, "http://docs.test/docs/install?ref=1", { dropSelectors: [".ad"] });
  assert.equal(page.title, "Install | Acme");
  assert.equal(page.canonical, "http://docs.test/docs/install");
  assert.equal(page.lang, "en");
  assert.deepEqual(page.links, ["http://docs.test/a", "https://other.example/x"]);
  assert.match(page.text, /^# Install\n\nRun npm i acme\.\n\n## Requirements\n\n- Node 20\n- 2 GB RAM$/);
  assert.doesNotMatch(page.text, /Buy now|Menu|var x/);
  const kept = extractHtml(html, "http://docs.test/", { keepSelectors: ["ul"] });
  assert.equal(kept.text, "- Node 20\n- 2 GB RAM");
  assert.equal(extractHtml(html, "http://docs.test/", { keepSelectors: ["[[invalid"] }).text, "");
});

Deno.test("HTML: <pre> stays a code block, so # comment lines never become headings or tiny chunks", () => {
  const prose = (topic: string) =>
    `<p>This section explains how to ${topic} with the command line tools that ship with the server.</p>`;
  const html = `<!doctype html><html><head><title>Backup</title></head><body>
    <nav><a href="/">Home</a></nav>
    <main><h1>Backup</h1>${prose("plan backups")}
    <h2>Dump a database</h2>${prose("dump one database")}
    <pre class="programlisting"><code class="language-bash"># dump the database
pg_dump mydb &gt; db.sql

# restore it
  psql mydb &lt; db.sql</code></pre>
    <h2>Restore</h2>${prose("restore a dump")}
    <pre># only comments here<br># and one more</pre>
    <h3>Notes</h3>${prose("check a restore")}</main></body></html>`;
  const page = extractHtml(html, "http://docs.test/backup");
  assert.ok(
    page.text.includes(
      "```bash\n# dump the database\npg_dump mydb > db.sql\n\n# restore it\n  psql mydb < db.sql\n```",
    ),
    "line breaks, blank lines and indentation of the code are kept inside a fence",
  );
  assert.ok(page.text.includes("```\n# only comments here\n# and one more\n```"), "<br> inside <pre> is a line break");

  const chunks = chunkText(page.text, { title: page.title });
  assert.deepEqual(
    [...new Set(chunks.map((c) => c.heading_path))],
    ["Backup", "Backup > Dump a database", "Backup > Restore", "Backup > Restore > Notes"],
    "only the page's headings make heading paths",
  );
  for (const c of chunks) {
    assert.doesNotMatch(c.heading_path, /dump the database|restore it|comments|one more/);
    assert.ok(c.content.length >= 50, `no tiny chunk: ${JSON.stringify(c.content)}`);
  }
  const dump = chunks.find((c) => c.heading_path === "Backup > Dump a database")!;
  assert.match(
    dump.content,
    /tools that ship with the server\.\n\n```bash\n# dump the database\npg_dump mydb > db\.sql\n\n# restore it\n {2}psql/,
  );

  // text that only starts like a heading (an operator in a table cell) is escaped, not a heading
  const ops = extractHtml(
    "<main><h1>Operators</h1><table><tr><td># path → integer</td><td>Number of points.</td></tr></table></main>",
    "http://docs.test/",
  );
  assert.equal(ops.text, "# Operators\n\n\\# path → integer | Number of points.");
  assert.deepEqual(
    chunkText(ops.text).map((c) => c.heading_path),
    ["Operators"],
  );

  // a fence inside the code makes a longer fence; the chunker keeps the inner one as code
  const nested = extractHtml("<main><h1>Fences</h1><pre>```\n# inner\n```</pre></main>", "http://docs.test/");
  assert.equal(nested.text, "# Fences\n\n````\n```\n# inner\n```\n````");
  assert.deepEqual(
    chunkText(nested.text).map((c) => c.heading_path),
    ["Fences"],
  );
});

Deno.test("HTML: when <main> keeps too little of the visible text, the body without chrome is kept", () => {
  const para = (n: number, topic: string) =>
    Array.from(
      { length: n },
      (_, i) => `<p>Paragraph ${i} about ${topic} gives one more detail a reader needs.</p>`,
    ).join("");
  // a reference page in the shape of many generated docs: a short summary in <article>, the
  // description and parameters in sections next to it
  const reference = `<!doctype html><html><head><title>CREATE WIDGET</title></head><body>
    <header><a href="/">Acme docs</a> <a href="/search">Search</a></header>
    <nav><ul><li><a href="/a">CREATE GADGET</a></li><li><a href="/b">DROP WIDGET</a></li></ul></nav>
    <article><header><h1>CREATE WIDGET</h1><p>Define a new widget.</p></header>
      <pre>CREATE WIDGET name [ SIZE size ]</pre></article>
    <section id="description"><h2>Description</h2>${para(12, "what a widget is")}</section>
    <section id="parameters"><h2>Parameters</h2><dl><dt>name</dt><dd>The name of the widget to create.</dd></dl>${para(4, "sizes")}</section>
    <aside>Was this page helpful?</aside>
    <footer>© Acme <a href="/legal">Legal</a></footer></body></html>`;
  const page = extractHtml(reference, "http://docs.test/sql-createwidget");
  assert.equal(page.extraction, "body");
  assert.match(page.text, /^# CREATE WIDGET\n\nDefine a new widget\.\n\n```\nCREATE WIDGET name \[ SIZE size \]\n```/);
  assert.match(page.text, /## Description\n\nParagraph 0 about what a widget is/);
  assert.match(page.text, /## Parameters\n\nname\n\nThe name of the widget to create\./);
  assert.match(page.text, /Paragraph 3 about sizes gives one more detail a reader needs\.$/);
  assert.doesNotMatch(page.text, /Acme docs|CREATE GADGET|DROP WIDGET|helpful|Legal/, "the page's chrome stays out");
  assert.equal(page.visibleChars, page.text.length);
  assert.deepEqual(
    chunkText(page.text, { title: page.title })
      .map((c) => c.heading_path)
      .filter((p, i, a) => a.indexOf(p) === i),
    ["CREATE WIDGET", "CREATE WIDGET > Description", "CREATE WIDGET > Parameters"],
  );

  // a page whose <main> holds its content keeps only <main>, however long the menu around it
  const menu = `<div class="menu">${Array.from({ length: 40 }, (_, i) => `<a href="/p${i}">Page ${i}</a>`).join(" ")}</div>`;
  const guide = `<body>${menu}<main><h1>Guide</h1>${para(10, "the guide")}</main><p>Edit this page on GitHub.</p></body>`;
  const kept = extractHtml(guide, "http://docs.test/guide");
  assert.equal(kept.extraction, "main");
  assert.match(kept.text, /^# Guide\n\nParagraph 0 about the guide/);
  assert.doesNotMatch(kept.text, /Page 12|Edit this page/);
  assert.ok(kept.text.length >= 0.4 * kept.visibleChars);
});

Deno.test("chunks: a long code block is cut at line ends, each piece fenced again", () => {
  const lines = Array.from({ length: 60 }, (_, i) => `# step ${i}\nrun --flag=${i} input-${i}.txt`);
  const text = `# Script\n\nThe whole script follows.\n\n~~~sh\n${lines.join("\n")}\n~~~\n\nAfter the code.`;
  const chunks = chunkText(text, { maxChars: 300 });
  assert.ok(chunks.length > 5);
  const body: string[] = [];
  for (const c of chunks) {
    assert.equal(c.heading_path, "Script");
    assert.ok(c.content.length <= 300, `chunk too long: ${c.content.length}`);
    for (const block of c.content.matchAll(/~~~sh\n([\s\S]*?)\n~~~/g)) body.push(...block[1].split("\n"));
  }
  // overlap may repeat a piece; in order and without repeats the pieces are the script
  assert.deepEqual(
    [...new Set(body)],
    lines
      .join("\n")
      .split("\n")
      .filter((l, i, a) => a.indexOf(l) === i),
  );
  assert.ok(chunks.at(-1)!.content.endsWith("~~~\n\nAfter the code."));
});

Deno.test("URL globs", () => {
  assert.ok(globToRegExp("/docs/*").test("/docs/install"));
  assert.ok(!globToRegExp("/docs/*").test("/docs/a/b"));
  assert.ok(globToRegExp("/docs/**").test("/docs/a/b"));
  assert.ok(urlMatches(new URL("http://x.test/blog/2024?page=2"), ["/blog/**"]));
  assert.ok(urlMatches(new URL("http://x.test/a.pdf"), ["http://x.test/*.pdf"]));
  assert.ok(!urlMatches(new URL("http://x.test/docs"), ["/blog/**"]));
});

Deno.test("settings are validated per type", () => {
  const web = parseSettings("web", { url: "https://docs.test" });
  assert.equal(web.type === "web" && web.settings.max_pages, 100);
  assert.throws(() => parseSettings("web", { url: "ftp://x" }), /url must be an http\(s\) address/);
  assert.throws(() => parseSettings("file", { files: [] }), /invalid_settings|files/);
  assert.throws(() => parseSettings("nope", {}), /Unknown data source type/);
  assert.deepEqual(parseSettings("notion", {}).settings, { pages: [], databases: [] });
});

/** A site of `pages` pages linked from its start page, each answering after `ms`; counts requests in flight. */
function starSite(pages: number, ms: number) {
  const stats = { inFlight: 0, maxInFlight: 0, starts: [] as number[] };
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    const { pathname } = new URL(req.url);
    if (pathname === "/robots.txt" || pathname === "/sitemap.xml") return new Response("", { status: 404 });
    stats.starts.push(performance.now());
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    await new Promise((r) => setTimeout(r, ms));
    stats.inFlight--;
    const links =
      pathname === "/" ? Array.from({ length: pages - 1 }, (_, i) => `<a href="/p/${i}">${i}</a>`).join("") : "";
    return new Response(`<title>${pathname}</title><main><p>Page ${pathname}.</p>${links}</main>`, {
      headers: { "content-type": "text/html" },
    });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, stats, close: () => server.shutdown() };
}

async function crawlStar(settings: { concurrency?: number; delay_ms: number }, pages = 13, ms = 40) {
  const site = starSite(pages, ms);
  const urls: string[] = [];
  const ctx: SourceContext = {
    botLanguage: "en",
    allowPrivate: true,
    emit: (doc) => Promise.resolve(void urls.push(doc.url)),
    fail: (url, code) => assert.fail(`${url}: ${code}`),
    warn: () => {},
    progress: () => Promise.resolve(),
    cancelled: () => Promise.resolve(false),
  };
  try {
    await crawlWeb({ url: `${site.url}/`, max_depth: 1, use_sitemap: false, ...settings }, ctx);
  } finally {
    await site.close();
  }
  assert.equal(urls.length, pages, "every page is read");
  return site.stats;
}

Deno.test("crawl: concurrency is validated and respected; the delay spaces request starts across workers", async () => {
  const web = (extra: Record<string, unknown>) => parseSettings("web", { url: "https://docs.test", ...extra });
  const defaults = web({});
  assert.ok(defaults.type === "web" && defaults.settings.concurrency === 2 && defaults.settings.delay_ms === 200);
  const eight = web({ concurrency: 8 });
  assert.equal(eight.type === "web" && eight.settings.concurrency, 8);
  for (const bad of [0, 9, 2.5, "4"]) {
    assert.throws(() => web({ concurrency: bad }), /invalid_settings|concurrency/, `concurrency ${bad} is refused`);
  }
  assert.throws(() => web({ delay_ms: -1 }), /delay_ms/);
  assert.throws(() => web({ delay_ms: 10_001 }), /delay_ms/);

  // Each page takes 150 ms to answer, so the workers' requests overlap even on a busy machine.
  assert.equal((await crawlStar({ concurrency: 1, delay_ms: 0 }, 13, 150)).maxInFlight, 1);
  assert.equal((await crawlStar({ concurrency: 4, delay_ms: 0 }, 13, 150)).maxInFlight, 4);
  assert.equal((await crawlStar({ delay_ms: 0 }, 13, 150)).maxInFlight, 2, "two at once by default");
  // 100 ms apart, 4 workers: the k-th request cannot start before k × 100 ms after the crawl began
  // (timers may fire a little early). Measured from the crawl's start, not between arrivals: a
  // request sent on time can reach the server late on a loaded machine and shorten the next gap.
  const began = performance.now();
  const spaced = await crawlStar({ concurrency: 4, delay_ms: 100 }, 6, 10);
  const after = spaced.starts.map((t) => Math.round(t - began));
  assert.ok(
    after.every((t, k) => t >= k * 100 - 10),
    `request starts ${after.join(", ")} ms after the crawl began`,
  );
});

Deno.test("files: kinds and CSV rows as documents", () => {
  assert.equal(fileKind("a.PDF"), "pdf");
  assert.equal(fileKind("notes", "text/markdown"), "markdown");
  assert.equal(fileKind("x.exe"), null);
  const csv = new TextEncoder().encode(
    "question,answer,internal\nHow to log in?,Use your email.,x\n,,\nReset?,Click reset.,y\n",
  );
  const docs = csvToDocuments(csv, "bot/faq.csv", "faq.csv", {
    text_columns: ["question", "answer"],
    title_column: "question",
  });
  assert.deepEqual(
    docs.map((d) => [d.url, d.title, d.text]),
    [
      ["bot/faq.csv#row=1", "How to log in?", "question: How to log in?\nanswer: Use your email."],
      ["bot/faq.csv#row=3", "Reset?", "question: Reset?\nanswer: Click reset."],
    ],
  );
  assert.throws(() => csvToDocuments(csv, "p", "n", { text_columns: ["nope"] }), /no column "nope"/);
});

Deno.test("YouTube URLs, caption tracks and transcripts", () => {
  assert.deepEqual(parseYoutubeUrl("https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=3"), {
    kind: "video",
    id: "dQw4w9WgXcQ",
  });
  assert.deepEqual(parseYoutubeUrl("https://youtu.be/dQw4w9WgXcQ"), { kind: "video", id: "dQw4w9WgXcQ" });
  assert.deepEqual(parseYoutubeUrl("https://www.youtube.com/playlist?list=PL123abc"), {
    kind: "playlist",
    id: "PL123abc",
  });
  assert.deepEqual(parseYoutubeUrl("https://www.youtube.com/channel/UCabcdefghijklmnopqrstuv"), {
    kind: "channel",
    id: "UCabcdefghijklmnopqrstuv",
  });
  assert.deepEqual(parseYoutubeUrl("https://www.youtube.com/@acme/videos"), { kind: "handle", path: "/@acme" });
  assert.equal(parseYoutubeUrl("https://example.com/"), null);
  assert.deepEqual(jsonAt('x = [{"a":"]}","b":[1,{"c":2}]}];', 4), [{ a: "]}", b: [1, { c: 2 }] }]);
  const tracks = [
    { baseUrl: "/a", languageCode: "en", kind: "asr" },
    { baseUrl: "/b", languageCode: "de" },
    { baseUrl: "/c", languageCode: "en" },
  ];
  assert.equal(pickTrack(tracks, ["de", "en"])!.baseUrl, "/b");
  assert.equal(pickTrack(tracks, ["fr", "en"])!.baseUrl, "/c");
  assert.equal(pickTrack(tracks, ["fr"])!.baseUrl, "/a");
  const { text, segments } = transcriptToText([
    { tStartMs: 0, segs: [{ utf8: "Hello" }] },
    { tStartMs: 12_000, segs: [{ utf8: "and welcome" }] },
    { tStartMs: 31_000, segs: [{ utf8: "to the course." }] },
    { tStartMs: 65_000, segs: [{ utf8: "Chapter two." }] },
  ]);
  assert.equal(text, "[0:00] Hello and welcome to the course.\n\n[1:05] Chapter two.");
  assert.equal(segments.length, 4);
});

Deno.test("Notion ids, embeddings URLs, schedules", () => {
  assert.equal(
    notionId("https://www.notion.so/acme/Getting-Started-0123456789abcdef0123456789abcdef"),
    "01234567-89ab-cdef-0123-456789abcdef",
  );
  assert.equal(notionId("01234567-89ab-cdef-0123-456789abcdef"), "01234567-89ab-cdef-0123-456789abcdef");
  assert.equal(notionId("nope"), null);
  assert.equal(embeddingsUrl(null), "https://api.openai.com/v1/embeddings");
  assert.equal(embeddingsUrl("http://127.0.0.1:11434/v1/"), "http://127.0.0.1:11434/v1/embeddings");
  assert.equal(embeddingsUrl("http://llm.local"), "http://llm.local/v1/embeddings");
  const from = new Date("2026-01-31T00:00:00Z");
  assert.equal(nextSyncAt("daily", from), "2026-02-01T00:00:00.000Z");
  assert.equal(nextSyncAt("weekly", from), "2026-02-07T00:00:00.000Z");
  assert.equal(nextSyncAt("never", from), null);
  assert.ok(isTransient("timeout") && isTransient("http_503") && isTransient("network_error"));
  assert.ok(!isTransient("http_404") && !isTransient("file_not_found") && !isTransient("blocked_address"));
});

Deno.test("embeddings through an OpenAI-compatible /v1/embeddings server", async () => {
  const seen: { auth: string | null; body: { model: string; input: string[] } }[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    const body = await req.json();
    seen.push({ auth: req.headers.get("authorization"), body });
    if (new URL(req.url).pathname !== "/v1/embeddings") return new Response("no", { status: 404 });
    const dims = body.model === "small" ? 3 : 1536;
    return Response.json({
      object: "list",
      data: body.input.map((_: string, i: number) => ({
        object: "embedding",
        index: i,
        embedding: Array(dims).fill(i / 10),
      })),
    });
  });
  try {
    const url = embeddingsUrl(`http://127.0.0.1:${server.addr.port}`);
    const vectors = await embedTexts(
      { url, apiKey: "sk-test", model: "text-embedding-3-small", provider: "openai_compatible" },
      ["a", "b"],
    );
    assert.equal(vectors!.length, 2);
    assert.equal(vectors![1][0], 0.1);
    assert.equal(seen[0].auth, "Bearer sk-test");
    assert.deepEqual(seen[0].body.input, ["a", "b"]);
    // a model of another size cannot fill vector(1536): no embeddings rather than broken ones
    assert.equal(await embedTexts({ url, apiKey: null, model: "small", provider: "openai_compatible" }, ["a"]), null);
  } finally {
    await server.shutdown();
  }
});

Deno.test("navigation-only pages: a table of contents is one, an article with a few links is not", () => {
  const items = Array.from(
    { length: 12 },
    (_, i) => `<li><a href="/ch${i}">Chapter ${i}: working with part ${i}</a></li>`,
  ).join("");
  const toc = extractHtml(
    `<html><body><main><h1>Contents</h1><ul>${items}</ul></main></body></html>`,
    "https://d.test/",
  );
  assert.equal(toc.navigation, true);
  assert.ok(toc.linkShare > 0.8, String(toc.linkShare));
  // a link list with one-line descriptions: less link text, but short lines
  const described = Array.from(
    { length: 8 },
    (_, i) => `<li><a href="/c${i}">COMMAND ${i}</a> — do thing ${i}</li>`,
  ).join("");
  assert.equal(
    extractHtml(`<html><body><main><ul>${described}</ul></main></body></html>`, "https://d.test/").navigation,
    true,
  );
  const prose = "Loosen the knob under the lamp head, then turn the arm slowly to the angle you need. ".repeat(6);
  const article = extractHtml(
    `<html><body><main><h1>Rotate the arm</h1><p>${prose} See <a href="/care">care</a> and <a href="/parts">parts</a>.</p></main></body></html>`,
    "https://d.test/",
  );
  assert.equal(article.navigation, false);
  assert.ok(article.linkShare < 0.1);
});

Deno.test("Readability dropping whole sections of a reference page: the visible text is kept", () => {
  const para = (w: string, n: number) =>
    `<p>${`The ${w} of this command is explained in this sentence. `.repeat(n)}</p>`;
  const html = `<html><head><title>CREATE THING</title></head><body>
    <div class="refnamediv"><h1>CREATE THING</h1><p>CREATE THING — define a new thing</p></div>
    <div class="refsect1"><h2>Description</h2>${para("purpose", 8)}</div>
    <div class="refsect1"><h2>Parameters</h2>${Array.from({ length: 8 }, () => para("parameter", 6)).join("")}</div>
    <div class="refsect1"><h2>Notes</h2>${para("caveat", 5)}</div></body></html>`;
  const page = extractHtml(html, "https://d.test/thing");
  assert.match(page.text, /^## Description$/m);
  assert.match(page.text, /^## Notes$/m);
  assert.deepEqual(
    missingHeadings("## Description\n\ntext\n\n### Notes\n\n```\n## not a heading\n```", "# Notes\n\ntext"),
    ["description"],
  );
});

Deno.test(
  "HTML without <main>: the element holding every heading and paragraph is read when it holds nearly all the text",
  () => {
    const para = (w: string, n: number) =>
      `<p>${`The ${w} of this command is explained in this sentence. `.repeat(n)}</p>`;
    // generated documentation: link bars in tables above and below one content <div>
    const bar = (where: string) =>
      `<div class="nav${where}"><table><tr><td><a href="/prev">Prev</a></td><th>Commands</th><td><a href="/">Home</a></td><td><a href="/next">Next</a></td></tr></table></div>`;
    const content = `<div class="refentry"><div class="refnamediv"><h2>CREATE THING</h2><p>CREATE THING — define a new thing</p></div>
    <div class="refsect1"><h2>Description</h2>${para("purpose", 20)}<pre># not a heading\nCREATE THING t;</pre></div>
    <div class="refsect1"><h2>Parameters</h2>${Array.from({ length: 8 }, () => para("parameter", 6)).join("")}</div></div>`;
    const page = extractHtml(
      `<html><head><title>CREATE THING</title></head><body>${bar("header")}${content}${bar("footer")}</body></html>`,
      "https://d.test/thing",
    );
    assert.equal(page.extraction, "region");
    assert.match(page.text, /^## CREATE THING\n\nCREATE THING — define a new thing\n\n## Description\n/);
    assert.match(page.text, /\n```\n# not a heading\nCREATE THING t;\n```\n/, "code stays code");
    assert.match(page.text, /## Parameters\n/);
    assert.doesNotMatch(page.text, /Prev|Next|Home|Commands/, "the link bars outside the region are left out");
    assert.ok(page.text.length >= MIN_REGION_RATIO * page.visibleChars);
    assert.equal(page.navigation, false);
    const { document } = parseHTML(`<html><body>${bar("header")}${content}</body></html>`);
    assert.equal(contentRegion(document.body).getAttribute("class"), "refentry");

    // a paragraph outside it (a sidebar, a banner's tagline): no such element but the body, Readability reads the page
    const sidebar = `<div class="side"><p>Our newsletter: sign up.</p></div>`;
    const withSidebar = extractHtml(
      `<html><body>${bar("header")}${content}${sidebar}</body></html>`,
      "https://d.test/thing",
    );
    assert.notEqual(withSidebar.extraction, "region");
    assert.match(withSidebar.text, /## Description/);

    // an element holding all the paragraphs but less than MIN_REGION_RATIO of the text: Readability too
    const links = Array.from({ length: 60 }, (_, i) => `<li><a href="/p${i}">Related page number ${i}</a></li>`).join(
      "",
    );
    const withLinks = extractHtml(
      `<html><body>${content}<div class="related"><ul>${links}</ul></div></body></html>`,
      "https://d.test/thing",
    );
    assert.notEqual(withLinks.extraction, "region");
    assert.match(withLinks.text, /## Parameters/);
  },
);

Deno.test("sitemaps: loc and lastmod of each entry, entities decoded, unreadable dates left out", () => {
  const xml = `<?xml version="1.0"?><urlset>
    <url><loc>https://d.test/a?x=1&amp;y=2</loc><lastmod>2024-03-01</lastmod></url>
    <url><loc> https://d.test/b </loc><lastmod>2024-03-01T10:30:00+02:00</lastmod><priority>0.5</priority></url>
    <url><loc>https://d.test/c</loc><lastmod>yesterday</lastmod></url>
    <url><loc>https://d.test/d</loc></url></urlset>`;
  assert.deepEqual(parseSitemap(xml), [
    { loc: "https://d.test/a?x=1&y=2", lastmod: Date.UTC(2024, 2, 1) },
    { loc: "https://d.test/b", lastmod: Date.UTC(2024, 2, 1, 8, 30) },
    { loc: "https://d.test/c", lastmod: undefined },
    { loc: "https://d.test/d", lastmod: undefined },
  ]);
});
