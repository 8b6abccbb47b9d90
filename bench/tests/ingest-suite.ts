// Runs inside scripts/with-stack.mjs (see ingest-suite.mjs): bench/ingest's held-in quality
// questions as a Parley test suite. Crawls the PostgreSQL 15 documentation (served here on
// 127.0.0.1) into a bot with the extractive default, imports bench/ingest/questions.json through
// the tests function's CSV import (each question with its page as the expected source), runs the
// suite through the real runner and reports the pass rate and the top-k source hit beside
// bench/ingest's recall@5 (results.json). Writes bench/tests/ingest-suite.md.
import { callFunction, serviceClient } from "../../supabase/functions/_shared/testing.ts";
import { createBot } from "../../supabase/functions/chat/test-helpers.ts";

const DOCS = Deno.env.get("DOCS") ?? "/usr/share/doc/postgresql-doc-15/html";
const TOP_K = Number(Deno.env.get("TOP_K") ?? 5);
const here = new URL(".", import.meta.url);
const questions = JSON.parse(await Deno.readTextFile(new URL("../ingest/questions.json", here))) as { q: string; page: string }[];
const ingestResults = JSON.parse(await Deno.readTextFile(new URL("../ingest/results.json", here)));

// The documentation folder as a static site.
const site = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
  const name = decodeURIComponent(new URL(req.url).pathname).replace(/^\/+/, "") || "index.html";
  if (name.includes("..")) return new Response("no", { status: 400 });
  try {
    const body = await Deno.readFile(`${DOCS}/${name}`);
    const type = name.endsWith(".html") ? "text/html; charset=utf-8" : name.endsWith(".css") ? "text/css" : "application/octet-stream";
    return new Response(body, { headers: { "content-type": type } });
  } catch {
    return new Response("not found", { status: 404 });
  }
});
const siteUrl = `http://127.0.0.1:${site.addr.port}`;
const service = serviceClient();
const must = <T>(r: { data: T; error: unknown }) => {
  if (r.error) throw r.error;
  return r.data;
};

const { botId, owner } = await createBot({});
const source = must(await service.from("data_sources").insert({
  bot_id: botId,
  type: "web",
  name: "PostgreSQL 15 documentation",
  settings: { url: `${siteUrl}/index.html`, max_depth: 10, max_pages: 2000, delay_ms: 0, concurrency: 2, use_sitemap: false },
}).select("id").single()) as { id: string };

// 1. crawl and index through the ingest function
console.log(`crawling ${siteUrl} ...`);
const t0 = performance.now();
const sync = await callFunction("ingest", { method: "POST", token: owner.token, path: `/sources/${source.id}/sync`, body: "{}" });
if (sync.status !== 202) throw new Error(`sync: ${sync.status} ${await sync.text()}`);
const { job_id } = await sync.json();
for (;;) {
  const job = must(await service.from("ingestion_jobs").select("status, progress_done, progress_total").eq("id", job_id).single()) as Record<string, any>;
  if (!["queued", "running"].includes(job.status)) {
    if (job.status !== "succeeded") throw new Error(`sync ${job.status}`);
    break;
  }
  await new Promise((r) => setTimeout(r, 500));
}
const crawlSeconds = (performance.now() - t0) / 1000;
const counts = must(await service.from("data_sources").select("document_count, chunk_count").eq("id", source.id).single()) as Record<string, number>;
console.log(`indexed ${counts.document_count} documents, ${counts.chunk_count} chunks in ${crawlSeconds.toFixed(1)} s`);

// 2. the questions as test cases, through the tests function's CSV import (as the owner)
must(await service.from("bot_test_settings").insert({ bot_id: botId, top_k: TOP_K, require_answer: true, require_source: true }));
const csvCell = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
const csv = "question,expected_sources,tags\n" + questions.map((x) => `${csvCell(x.q)},${csvCell(x.page)},bench-ingest`).join("\n") + "\n";
const imported = await callFunction("tests", { method: "POST", token: owner.token, path: `/bots/${botId}/import`, body: csv, headers: { "content-type": "text/csv" } });
const importAnswer = await imported.json();
if (imported.status !== 200 || importAnswer.created !== questions.length) throw new Error(`import: ${imported.status} ${JSON.stringify(importAnswer)}`);

// 3. a run through the real runner (the engine's answers, the scores)
const r0 = performance.now();
const started = await callFunction("tests", { method: "POST", token: owner.token, path: `/bots/${botId}/runs` });
if (started.status !== 202) throw new Error(`run: ${started.status} ${await started.text()}`);
const { run_id } = await started.json();
let run: Record<string, any>;
for (;;) {
  run = must(await service.from("test_runs").select("*").eq("id", run_id).single()) as Record<string, any>;
  if (["succeeded", "failed", "cancelled"].includes(run.status)) break;
  await new Promise((r) => setTimeout(r, 250));
}
const runWall = (performance.now() - r0) / 1000;
const runServer = (Date.parse(run.finished_at) - Date.parse(run.started_at)) / 1000;
const results = must(await service.from("test_results").select("question, passed, sources, scores").eq("run_id", run_id)) as {
  question: string;
  passed: boolean;
  sources: { url: string | null }[];
  scores: { name: string; passed: boolean; reasons?: { code: string; params: { positions?: number[] } }[] }[];
}[];
const pageOf = (q: string) => questions.find((x) => x.q === q)!.page;
const sourceHit = results.filter((r) => r.scores.find((s) => s.name === "source")?.passed);
const answered = results.filter((r) => r.scores.find((s) => s.name === "answered")?.passed);
const rr = results.map((r) => {
  const i = r.sources.findIndex((s) => (s.url ?? "").endsWith(pageOf(r.question)));
  return i >= 0 ? 1 / (i + 1) : 0;
});
const mrr = rr.reduce((a, b) => a + b, 0) / results.length;
const sourcesPerAnswer = results.map((r) => r.sources.length).sort((a, b) => a - b);
const misses = results.filter((r) => !r.passed).map((r) => ({
  q: r.question,
  expected: pageOf(r.question),
  got: r.sources.slice(0, TOP_K).map((s) => (s.url ?? "").split("/").pop()),
}));

const retrieval = ingestResults.retrieval;
const out = `# bench/tests: bench/ingest's questions as a test suite

${new Date().toISOString().slice(0, 10)}, ${Deno.build.os} ${Deno.build.arch}, ${navigator.hardwareConcurrency} cores (shared, load ${Deno.loadavg().map((l) => l.toFixed(1)).join(" / ")} at the end), a fresh local stack.
Corpus: the PostgreSQL 15 documentation, ${counts.document_count} documents, ${counts.chunk_count} chunks (crawled in ${crawlSeconds.toFixed(1)} s).
Suite: the ${questions.length} questions of bench/ingest/questions.json imported through \`POST /tests/bots/{id}/import\`, each with its page as
the expected source; the extractive default; pass rules: an answer, and the expected source among the answer's first ${TOP_K} sources.
Run ${run.status} in ${runServer.toFixed(1)} s on the server (${runWall.toFixed(1)} s wall).

| measure | bench/tests (this suite, the runner's answers) | bench/ingest (${String(ingestResults.date).slice(0, 10)}, match_chunks directly) |
| --- | --- | --- |
| pass rate | ${run.passed_count} / ${run.progress_total} = ${(run.passed_count / run.progress_total).toFixed(2)} | – |
| expected page in the top ${TOP_K} | ${sourceHit.length} / ${results.length} = ${(sourceHit.length / results.length).toFixed(2)} (the answer's sources) | recall@5 ${retrieval.recall_at_5} (first 5 distinct pages of 20 passages) |
| reciprocal rank | ${mrr.toFixed(2)} (the answer's sources) | MRR ${retrieval.mrr_at_20} (20 passages) |
| answered (not "found nothing") | ${answered.length} / ${results.length} | – |
| sources per answer (min / median / max) | ${sourcesPerAnswer[0]} / ${sourcesPerAnswer[Math.floor(sourcesPerAnswer.length / 2)]} / ${sourcesPerAnswer[sourcesPerAnswer.length - 1]} | – |

Failed cases:
${misses.length ? misses.map((m) => `- ${m.q} — expected \`${m.expected}\`, got ${m.got.map((g) => `\`${g}\``).join(", ") || "no source"}`).join("\n") : "- none"}
`;
await Deno.writeTextFile(new URL("./ingest-suite.md", here), out);
console.log(out);
await site.shutdown();
