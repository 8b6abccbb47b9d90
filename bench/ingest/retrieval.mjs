#!/usr/bin/env node
// Retrieval quality of public.match_chunks on questions.json: recall@5 (the page among the first
// five distinct pages), first-place hit and MRR (over the distinct pages of 20 passages), for all
// questions and per kind (topic, body, paraphrase) and split (tune, holdout). run.mjs calls
// `evaluate`; on a stack kept up with `run.mjs --hold` it runs alone:
//   node bench/ingest/retrieval.mjs [--rpc match_chunks] [--verbose]
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

/** @param {(body: object) => Promise<{document_url: string}[]>} match */
export async function evaluate(
  match,
  questions = JSON.parse(fs.readFileSync(path.join(here, "questions.json"), "utf8")),
) {
  const rows = [];
  for (const question of questions) {
    const t = performance.now();
    const hits = await match(question.q);
    const ms = performance.now() - t;
    const pages = [...new Set(hits.map((r) => new URL(r.document_url).pathname.slice(1)))];
    const relevant = judged.get(question.q) ?? new Set();
    rows.push({
      ...question,
      rank: pages.indexOf(question.page),
      judgedRank: pages.findIndex((p) => p === question.page || relevant.has(p)),
      got: pages.slice(0, 5),
      ms,
    });
  }
  const summary = (list, key = "rank") => ({
    questions: list.length,
    recall_at_5: round(list.filter((r) => r[key] >= 0 && r[key] < 5).length / list.length),
    first_place: round(list.filter((r) => r[key] === 0).length / list.length),
    mrr_at_20: round(list.reduce((s, r) => s + (r[key] >= 0 ? 1 / (r[key] + 1) : 0), 0) / list.length),
  });
  const groups = {};
  for (const key of ["kind", "split"]) {
    for (const value of [...new Set(rows.map((r) => r[key]))])
      groups[`${key}=${value}`] = summary(rows.filter((r) => r[key] === value));
  }
  const ms = rows.map((r) => r.ms).sort((a, b) => a - b);
  return {
    ...summary(rows),
    latency_ms_p50: Math.round(ms[Math.floor(ms.length / 2)]),
    latency_ms_max: Math.round(ms.at(-1)),
    groups,
    // The same ranking scored against every page judged to answer the question (judgments.json,
    // JUDGING.md), not only the one labelled page: pages nobody judged count as not relevant.
    judged: judged.size
      ? {
          ...summary(rows, "judgedRank"),
          groups: Object.fromEntries(
            ["kind", "split"].flatMap((key) =>
              [...new Set(rows.map((r) => r[key]))].map((v) => [
                `${key}=${v}`,
                summary(
                  rows.filter((r) => r[key] === v),
                  "judgedRank",
                ),
              ]),
            ),
          ),
        }
      : null,
    not_first: rows
      .filter((r) => r.rank !== 0)
      .map((r) => ({
        q: r.q,
        kind: r.kind,
        split: r.split,
        expected: r.page,
        rank: r.rank < 0 ? null : r.rank + 1,
        judged_rank: r.judgedRank < 0 ? null : r.judgedRank + 1,
        got: r.got,
      })),
  };
}

const round = (x) => Number(x.toFixed(3));

/** Question -> the pages judged relevant to it (pooled judgments, JUDGING.md). */
const judgmentsFile = path.join(here, "judgments.json");
const judged = new Map();
if (fs.existsSync(judgmentsFile)) {
  for (const j of JSON.parse(fs.readFileSync(judgmentsFile, "utf8"))) {
    if (!j.relevant) continue;
    if (!judged.has(j.question)) judged.set(j.question, new Set());
    judged.get(j.question).add(j.page);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const h = JSON.parse(fs.readFileSync("/tmp/bench-ingest-hold.json", "utf8"));
  const i = process.argv.indexOf("--rpc");
  const rpc = i > 0 ? process.argv[i + 1] : "match_chunks";
  const match = async (q) => {
    const res = await fetch(`${h.api}/rest/v1/rpc/${rpc}`, {
      method: "POST",
      headers: { apikey: h.anonKey, authorization: `Bearer ${h.token}`, "content-type": "application/json" },
      body: JSON.stringify({ p_bot_id: h.bot_id, p_query: q, p_match_count: 20 }),
    });
    if (!res.ok) throw new Error(`${rpc}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const result = await evaluate(match);
  if (!process.argv.includes("--verbose")) delete result.not_first;
  console.log(JSON.stringify(result, null, 2));
}
