// A/B of match_chunks variants (issue 17): one extractive bot with CORPUS; alternates between the
// function as migrated (A) and the SQL in AB_SQL (B, create-or-replace statements), ROUNDS times;
// each round times every question's second call as an anonymous visitor and checks that B returns
// exactly A's rows (ids, order, scores). Under scripts/with-stack.mjs:
// `CORPUS=postgres AB_SQL=file.sql node scripts/with-stack.mjs -- node bench/chat/ab.mjs`.
import fs from "node:fs";
import os from "node:os";
import { corpusQuestions } from "./corpus.mjs";
import { connectDb, extractiveBot, visitors } from "./fixtures.mjs";

const CORPUS = process.env.CORPUS ?? "postgres";
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const db = await connectDb();
const { bot, chunkCount } = await extractiveBot(db, "AB", CORPUS, 10000);
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
const call = async (q) => {
  await db.query("begin");
  await db.query(`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, [
    JSON.stringify({ sub: visitor.id, role: "authenticated", is_anonymous: true }),
  ]);
  const t0 = performance.now();
  const { rows } = await db.query("select chunk_id, score from public.match_chunks($1, $2, 8)", [bot.id, q]);
  const ms = performance.now() - t0;
  await db.query("commit");
  return { ms, rows: rows.map((r) => `${r.chunk_id}:${r.score}`).join(",") };
};
const stat = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return `median ${s[Math.floor(s.length / 2)].toFixed(1)} / p90 ${s[Math.floor(s.length * 0.9)].toFixed(1)} ms`;
};
console.log(`corpus ${CORPUS}, ${chunkCount} chunks, ${qs.length} questions`);
const results = { A: [], B: [] };
const all = { A: [], B: [] };
let diffs = 0;
for (let r = 0; r < ROUNDS; r++) {
  for (const v of r % 2 ? ["B", "A"] : ["A", "B"]) {
    await db.query(v === "A" ? A : B);
    const times = [];
    for (const [i, q] of qs.entries()) {
      await call(q);
      const { ms, rows } = await call(q);
      times.push(ms);
      if (results[v][i] === undefined) results[v][i] = rows;
    }
    all[v].push(...times);
    console.log(
      `round ${r + 1} ${v}: ${stat(times)}; first 23 ${stat(times.slice(0, 23))}; load ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(" / ")}`,
    );
  }
}
qs.forEach((q, i) => {
  if (results.A[i] !== results.B[i]) {
    diffs++;
    console.log(`DIFF ${JSON.stringify(q)}\n  A ${results.A[i]}\n  B ${results.B[i]}`);
  }
});
console.log(`all rounds A: ${stat(all.A)}; B: ${stat(all.B)}; ${diffs} questions differ`);
await db.query(A);
await db.end();
