// A/B of match_chunks variants (issue 17): one extractive bot with CORPUS (synthetic: CHUNKS chunks,
// default 10,000); alternates between the functions as migrated (A) and the SQL in AB_SQL (B,
// create-or-replace statements), ROUNDS times; each round calls every question twice as an
// anonymous visitor and measures the second call: its wall time and the backend's CPU time
// (/proc/<backend pid>/schedstat, nanoseconds, so the stack must run on this machine). Checks that
// B returns exactly A's rows (ids, order, scores) in every round. Under scripts/with-stack.mjs:
// `CORPUS=postgres AB_SQL=file.sql node scripts/with-stack.mjs -- node bench/chat/ab.mjs`.
// AB_SQL may also be the A side of a later migration: AB_SQL=old.sql measures old (as B) against
// the migrated (A).
import fs from "node:fs";
import os from "node:os";
import { corpusQuestions } from "./corpus.mjs";
import { connectDb, extractiveBot, visitors } from "./fixtures.mjs";

const CORPUS = process.env.CORPUS ?? "postgres";
const CHUNKS = Number(process.env.CHUNKS ?? 10000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const db = await connectDb();
const { bot, chunkCount } = await extractiveBot(db, "AB", CORPUS, CHUNKS);
const [visitor] = await visitors(db, 1);
const defs = async () =>
  (
    await db.query(
      `select string_agg(pg_get_functiondef(p.oid), E';\n') || ';' as sql from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where (n.nspname, p.proname) in (('private', 'match_chunk_candidates'), ('public', 'match_chunks'))`,
    )
  ).rows[0].sql;
const A = await defs();
const B = fs.readFileSync(process.env.AB_SQL, "utf8");
const qs = corpusQuestions(CORPUS);
const {
  rows: [{ pid }],
} = await db.query("select pg_backend_pid() as pid");
const cpuNs = () => Number(fs.readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]);
const call = async (q) => {
  await db.query("begin");
  await db.query(`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, [
    JSON.stringify({ sub: visitor.id, role: "authenticated", is_anonymous: true }),
  ]);
  const c0 = cpuNs();
  const t0 = performance.now();
  const { rows } = await db.query("select chunk_id, score from public.match_chunks($1, $2, 8)", [bot.id, q]);
  const ms = performance.now() - t0;
  const cpu = (cpuNs() - c0) / 1e6;
  await db.query("commit");
  return { ms, cpu, rows: rows.map((r) => `${r.chunk_id}:${r.score}`).join(",") };
};
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const stat = (xs) => {
  const s = sorted(xs);
  return `median ${s[Math.floor(s.length / 2)].toFixed(2)} / p90 ${s[Math.floor(s.length * 0.9)].toFixed(2)} ms`;
};
const mean = (xs) => (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(2);
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(" / ");
console.log(`corpus ${CORPUS}, ${chunkCount} chunks, ${qs.length} questions, ${ROUNDS} rounds, load ${load()}`);
const results = { A: [], B: [] };
const all = { A: { ms: [], cpu: [] }, B: { ms: [], cpu: [] } };
let diffs = 0;
for (let r = 0; r < ROUNDS; r++) {
  for (const v of r % 2 ? ["B", "A"] : ["A", "B"]) {
    await db.query(v === "A" ? A : B);
    const times = [];
    const cpus = [];
    for (const [i, q] of qs.entries()) {
      await call(q);
      const { ms, cpu, rows } = await call(q);
      times.push(ms);
      cpus.push(cpu);
      results[v][i] ??= [];
      results[v][i].push(rows);
    }
    all[v].ms.push(...times);
    all[v].cpu.push(...cpus);
    console.log(
      `round ${r + 1} ${v}: wall ${stat(times)}; backend CPU ${stat(cpus)} (mean ${mean(cpus)}); load ${load()}`,
    );
  }
}
qs.forEach((q, i) => {
  const a = results.A[i][0];
  const bad = [...results.A[i], ...results.B[i]].find((x) => x !== a);
  if (bad !== undefined) {
    diffs++;
    console.log(`DIFF ${JSON.stringify(q)}\n  A ${a}\n  B ${bad}`);
  }
});
console.log(
  `all rounds A: wall ${stat(all.A.ms)}, backend CPU ${stat(all.A.cpu)} (mean ${mean(all.A.cpu)}); ` +
    `B: wall ${stat(all.B.ms)}, backend CPU ${stat(all.B.cpu)} (mean ${mean(all.B.cpu)}); ${diffs} questions differ (any round)`,
);
await db.query(A);
await db.end();
