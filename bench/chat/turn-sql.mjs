// The SQL of one chat turn, statement by statement (issue 17): what each of the engine's round
// trips costs Postgres, without PostgREST, the gateway and Deno around it. One client, one
// backend, TURNS (100) visitors' turns in sequence, each a new chat and then CONTINUED (2) more
// turns in it, as load.mjs's visitors send them, each statement in its own transaction with the
// role and claims PostgREST sets: start_chat_turn (service role), open_chat_turn_and_match (the
// visitor, with the engine's history: the turn and match_chunks in one call; TOGETHER=0 or a
// database without it: open_chat_turn and match_chunks apart), the answer's insert (service role).
// Per statement: the backend's CPU time (/proc/<pid>/stat of the backend, so the stack must run
// on this machine) and the wall time, medians and totals. CORPUS / CHUNKS as in load.mjs (the
// chunk count changes only match_chunks). Runs under scripts/with-stack.mjs:
//   node scripts/with-stack.mjs -- node bench/chat/turn-sql.mjs
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { corpusQuestions } from "./corpus.mjs";
import { connectDb, extractiveBot, visitors } from "./fixtures.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));

const TURNS = Number(process.env.TURNS ?? 100);
const CONTINUED = Number(process.env.CONTINUED ?? 2);
const CORPUS = process.env.CORPUS ?? "synthetic";
const CHUNKS = Number(process.env.CHUNKS ?? 1000);
const HISTORY = 20;
const db = await connectDb();

const { bot } = await extractiveBot(db, "Turn SQL", CORPUS, CHUNKS);
const questions = corpusQuestions(CORPUS);
const crowd = await visitors(db, TURNS);

// Does open_chat_turn take history_limit (this branch) or not (before)?
const {
  rows: [{ n: openArgs }],
} = await db.query("select max(pronargs)::int as n from pg_proc where proname = 'open_chat_turn'");
const withHistory = openArgs >= 9;
// Does the database have open_chat_turn_and_match (the engine's one call for open + retrieval,
// 20261130010000)? TOGETHER=0 measures the two apart, as the engine made them before.
const {
  rows: [{ together: hasTogether }],
} = await db.query(
  "select to_regprocedure('public.open_chat_turn_and_match(uuid, text, uuid, jsonb, text, text, text, uuid, integer, integer)') is not null as together",
);
const together = hasTogether && process.env.TOGETHER !== "0";

const {
  rows: [{ pid }],
} = await db.query("select pg_backend_pid() as pid");
const ticks = () => {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(f[11]) + Number(f[12]);
};
const cpuNs = () => process.hrtime.bigint();

const spent = {}; // step -> { cpu: ticks, wall: [ms] }
/** One PostgREST-like transaction: role, claims, the statement. */
async function step(name, role, claims, sql, args) {
  const t0 = cpuNs();
  const c0 = ticks();
  await db.query("begin");
  await db.query(`select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)`, [
    role,
    JSON.stringify(claims),
  ]);
  const res = await db.query(sql, args);
  await db.query("commit");
  const s = (spent[name] ??= { cpu: 0, wall: [] });
  s.cpu += ticks() - c0;
  s.wall.push(Number(cpuNs() - t0) / 1e6);
  return res.rows;
}

// Self time of each SQL function (track_functions = all), to see what inside a statement costs.
await db.query("alter system set track_functions = 'all'");
await db.query("select pg_reload_conf()");
await new Promise((r) => setTimeout(r, 500));
const functionTimes = async () =>
  new Map(
    (
      await db.query(
        "select schemaname || '.' || funcname as f, calls::float8 as calls, self_time::float8 as self from pg_stat_user_functions",
      )
    ).rows.map((r) => [r.f, r]),
  );
await db.query("select pg_stat_clear_snapshot()");
const functionsBefore = await functionTimes();

const service = { role: "service_role" };
const started = performance.now();
let n = 0;
for (const [i, v] of crowd.entries()) {
  const claims = { sub: v.id, role: "authenticated", aud: "authenticated", is_anonymous: true };
  let chatId = null;
  let passages = [];
  for (let m = 0; m <= CONTINUED; m++) {
    const question = questions[(i + m) % questions.length];
    const [start] = await step(
      "start_chat_turn",
      "service_role",
      service,
      "select * from public.start_chat_turn($1, $2, $3, $4, $5)",
      [bot.id, [`chat:user:${v.id}`, `chat:ip:10.0.${i >> 8}.${i & 255}`], [20, 120], [60, 60], v.id],
    );
    if (together) {
      const [open] = await step(
        chatId ? "open_chat_turn_and_match (continued)" : "open_chat_turn_and_match (new chat)",
        "authenticated",
        claims,
        "select * from public.open_chat_turn_and_match($1, $2, $3, turn_pass => $4, history_limit => $5, match_count => 8)",
        [bot.id, question, chatId, start.turn_pass, HISTORY],
      );
      chatId = open.opened_chat_id;
      passages = open.passages ?? [];
    } else {
      const [open] = await step(
        chatId ? "open_chat_turn (continued)" : "open_chat_turn (new chat)",
        "authenticated",
        claims,
        withHistory
          ? "select * from public.open_chat_turn($1, $2, $3, turn_pass => $4, history_limit => $5)"
          : "select * from public.open_chat_turn($1, $2, $3, turn_pass => $4)",
        withHistory
          ? [bot.id, question, chatId, start.turn_pass, HISTORY]
          : [bot.id, question, chatId, start.turn_pass],
      );
      if (chatId && !withHistory) {
        // Before: the history and the handoff state were two more round trips.
        await step(
          "history (before: its own round trip)",
          "authenticated",
          claims,
          "select id, role, content, error from public.messages where chat_id = $1 order by created_at desc limit $2",
          [chatId, HISTORY + 1],
        );
        await step(
          "handoff state (before: its own round trip)",
          "service_role",
          service,
          "select needs_human from public.chats where id = $1",
          [chatId],
        );
      }
      chatId = open.opened_chat_id;
      passages = await step("match_chunks", "authenticated", claims, "select * from public.match_chunks($1, $2, 8)", [
        bot.id,
        question,
      ]);
    }
    await step(
      "answer insert",
      "service_role",
      service,
      `insert into public.messages (chat_id, bot_id, role, content, sources, prompt_tokens, completion_tokens, latency_ms, first_token_ms, model, provider, error, actions)
       values ($1, $2, 'assistant', $3, $4, 0, 0, 100, 50, null, 'extractive', null, '[]')`,
      [
        chatId,
        bot.id,
        passages[0]?.content?.slice(0, 300) ?? "I don't know.",
        JSON.stringify(passages.slice(0, 3).map((p) => ({ id: p.id }))),
      ],
    );
    n++;
  }
}
const wall = (performance.now() - started) / 1000;
await new Promise((r) => setTimeout(r, 1100)); // statistics are flushed at most once a second
await db.query("select pg_stat_clear_snapshot()");
const functionsAfter = await functionTimes();
await db.end();
const fnRows = [...functionsAfter.values()]
  .map((r) => {
    const b = functionsBefore.get(r.f) ?? { calls: 0, self: 0 };
    return { f: r.f, calls: r.calls - b.calls, self: r.self - b.self };
  })
  .filter((r) => r.calls > 0)
  .sort((a, b) => b.self - a.self)
  .slice(0, 15)
  .map((r) => `| ${r.f} | ${(r.calls / n).toFixed(1)} | ${(r.self / n).toFixed(2)} |`);

const hz = 100;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
let total = 0;
let totalWithoutRetrieval = 0;
const rows = Object.entries(spent).map(([name, s]) => {
  const cpuMs = (1000 * s.cpu) / hz;
  total += cpuMs;
  if (name !== "match_chunks") totalWithoutRetrieval += cpuMs;
  return `| ${name} | ${s.wall.length} | ${(cpuMs / s.wall.length).toFixed(2)} | ${median(s.wall).toFixed(2)} |`;
});
const report = [
  `Machine: ${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(
      " / ",
    )} at the end; corpus ${CORPUS} (${CHUNKS} chunks); ${n} turns (${TURNS} chats × ${CONTINUED + 1}) in ${wall.toFixed(1)} s; open_chat_turn ${withHistory ? "returns the history" : "without history (before)"}; ${together ? "open and retrieval in one call (open_chat_turn_and_match: the open rows include match_chunks)" : "open and retrieval apart"}.`,
  "",
  "| statement (own transaction, role and claims set) | calls | backend CPU ms per call | wall ms median |",
  "| --- | ---: | ---: | ---: |",
  ...rows,
  "",
  `Postgres CPU per message: **${(total / n).toFixed(1)} ms**${together ? "" : `, without match_chunks **${(totalWithoutRetrieval / n).toFixed(1)} ms**`} (the backend's ticks, 10 ms resolution, summed over ${n} messages).`,
  "",
  "SQL functions with the most self time (pg_stat_user_functions; wall time inside them, which one client makes close to CPU):",
  "",
  "| function | calls per message | self ms per message |",
  "| --- | ---: | ---: |",
  ...fnRows,
].join("\n");
console.log(report);
if (process.env.RESULTS) fs.writeFileSync(path.resolve(here, process.env.RESULTS), report + "\n");
