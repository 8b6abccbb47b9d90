#!/usr/bin/env node
// Fits the rerank weights of match_chunks on the tune half of questions.json and reports both
// halves (the method in README.md). Needs a stack kept up by `node bench/ingest/run.mjs --hold`;
// reads private.match_chunk_candidates (the first stage and its features) as the superuser.
//   node bench/ingest/tune.mjs [--features bm25,prox,title,body,nav]   (default: all of `features`)
//   node bench/ingest/tune.mjs --weights '{"bm25":1,"title":1}'     (one rule, both halves)
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const pg = createRequire(path.join(root, "stack/package.json"))("pg");
const hold = JSON.parse(fs.readFileSync("/tmp/bench-ingest-hold.json", "utf8"));
const questions = JSON.parse(fs.readFileSync(path.join(root, "bench/ingest/questions.json"), "utf8"));
const client = new pg.Client({ connectionString: hold.dbUrl });
await client.connect();
for (const q of questions) {
  q.cands = (
    await client.query(
      `select k.*, regexp_replace(d.url, '^.*/', '') as page from private.match_chunk_candidates($1, $2) k
       join public.documents d on d.id = k.document_id`,
      [hold.bot_id, q.q],
    )
  ).rows;
}
await client.end();

const features = {
  bm25: (c) => c.bm25, // BM25 over the query's lexemes, ÷ its maximum (2.2 × the query's summed IDF)
  prox: (c) => c.proximity, // ts_rank_cd of the any-lexeme query, normalised to [0, 1)
  trgm: (c) => c.trgm, // word_similarity of the query (trigram pool only, else 0)
  title: (c) => c.title_cov,
  tshare: (c) => c.title_share,
  head: (c) => c.head_cov,
  body: (c) => c.body_cov,
  nav: (c) => (c.navigation ? 1 : 0),
  doc: (c) => Math.log(c.doc_hits),
  page: (c) => c.page_cov, // IDF-weighted share of the query held by the page (its candidates and title together)
};
function measure(w, qs) {
  let first = 0,
    rr = 0,
    r5 = 0;
  for (const q of qs) {
    const ranked = q.cands
      .map((c) => ({ c, s: Object.keys(w).reduce((s, k) => s + w[k] * features[k](c), 0) }))
      .sort((a, b) => b.s - a.s || a.c.url.localeCompare(b.c.url) || a.c.chunk_position - b.c.chunk_position);
    const r = [...new Set(ranked.slice(0, 20).map((x) => x.c.page))].indexOf(q.page);
    if (r === 0) first++;
    if (r >= 0 && r < 5) r5++;
    if (r >= 0) rr += 1 / (r + 1);
  }
  const n = qs.length;
  return { first_place: +(first / n).toFixed(3), mrr: +(rr / n).toFixed(3), recall_at_5: +(r5 / n).toFixed(3) };
}
const tune = questions.filter((q) => q.split === "tune");
const holdout = questions.filter((q) => q.split === "holdout");
// coordinate ascent over a coarse grid (coarse on purpose: a fine grid fits the tune half's quirks)
const grid = [-1, 0, 0.25, 0.5, 1, 2];
const objective = (w) => {
  const m = measure(w, tune);
  return m.mrr + 0.5 * m.first_place + 0.5 * m.recall_at_5;
};
let w = { bm25: 1 };
console.log("first stage only:", { tune: measure(w, tune), holdout: measure(w, holdout) });
const fixed = process.argv.indexOf("--weights"); // evaluate one rule, e.g. --weights '{"bm25":1,"title":1}'
if (fixed > 0) {
  const rule = JSON.parse(process.argv[fixed + 1]);
  console.log("rule:", rule, { tune: measure(rule, tune), holdout: measure(rule, holdout) });
  process.exit(0);
}
let best = objective(w);
const i = process.argv.indexOf("--features");
const chosen = i > 0 ? process.argv[i + 1].split(",") : Object.keys(features);
for (let pass = 0; pass < 3; pass++) {
  for (const k of chosen.filter((k) => k !== "bm25")) {
    for (const v of grid) {
      const o = objective({ ...w, [k]: v });
      if (o > best + 1e-9) [best, w] = [o, { ...w, [k]: v }];
    }
  }
}
console.log("weights:", w);
console.log("reranked:", { tune: measure(w, tune), holdout: measure(w, holdout) });
