// Where match_chunks spends its time (issue 17), statement by statement: sets up one extractive
// bot with CORPUS (corpus.mjs), then calls match_chunks as an anonymous visitor with auto_explain
// logging every nested statement's plan with actual times (auto_explain.log_nested_statements,
// log_analyze; the LOG lines reach this client through client_min_messages = log). Prints, per
// question, each statement of match_chunk_candidates with its time, and the whole call.
// Runs under scripts/with-stack.mjs: `CORPUS=postgres node scripts/with-stack.mjs -- node bench/chat/explain.mjs`.
// Env: CORPUS (synthetic), CHUNKS (10000), QUESTIONS (3), PLANS=1 to print the plans whole.
import os from "node:os";
import { corpusQuestions } from "./corpus.mjs";
import { connectDb, extractiveBot, visitors } from "./fixtures.mjs";

const CORPUS = process.env.CORPUS ?? "synthetic";
const CHUNKS = Number(process.env.CHUNKS ?? 10000);
const QUESTIONS = Number(process.env.QUESTIONS ?? 3);

const db = await connectDb();
const { bot, chunkCount } = await extractiveBot(db, "Explain", CORPUS, CHUNKS);
const [visitor] = await visitors(db, 1);

const logs = [];
db.on("notice", (n) => logs.push(n.message));
await db.query("load 'auto_explain'");
for (const s of [
  "set auto_explain.log_min_duration = 0",
  "set auto_explain.log_analyze = on",
  "set auto_explain.log_buffers = on",
  "set auto_explain.log_nested_statements = on",
  "set client_min_messages = log",
]) {
  await db.query(s);
}
console.log(
  `load ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(" / ")}; corpus ${CORPUS}, ${chunkCount} chunks`,
);
for (const q of corpusQuestions(CORPUS).slice(0, QUESTIONS)) {
  for (const round of ["cold", "warm"]) {
    logs.length = 0;
    await db.query("begin");
    await db.query(`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, [
      JSON.stringify({ sub: visitor.id, role: "authenticated", is_anonymous: true }),
    ]);
    const t0 = performance.now();
    await db.query("select * from public.match_chunks($1, $2, 8)", [bot.id, q]);
    const ms = performance.now() - t0;
    await db.query("commit");
    if (round === "cold") continue;
    console.log(`\n## ${JSON.stringify(q)}: ${ms.toFixed(1)} ms`);
    for (const l of logs) {
      const duration = /^duration: ([\d.]+) ms/.exec(l)?.[1];
      const query = /Query Text: ([\s\S]*?)\n/.exec(l)?.[1]?.replace(/\s+/g, " ").slice(0, 150);
      const top = /\n(\s*->\s*)?([A-Z][^\n]*?\(actual time=[^\n]*)/.exec(l)?.[2]?.slice(0, 160);
      if (duration && Number(duration) >= 1) console.log(`- ${duration} ms  ${query}\n    ${top ?? ""}`);
      if (process.env.PLANS === "1") console.log(l);
    }
  }
}
await db.end();
