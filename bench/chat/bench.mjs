// The measuring half of bench/chat/run.mjs; runs with a stack's env (see run.mjs).
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { corpusDocuments, corpusQuestions, insertKnowledge } from "./corpus.mjs";
import { connectDb, ownerTeam, visitors } from "./fixtures.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));

const failures = [];
const REQUESTS = Number(process.env.REQUESTS ?? 50);
const WARMUP = Number(process.env.WARMUP ?? 5);
const CHUNKS = Number(process.env.CHUNKS ?? 10000);
const SHOP_DELAY_MS = Number(process.env.SHOP_DELAY_MS ?? 50);
// CORPUS=synthetic (default): CHUNKS generated chunks; CORPUS=postgres: the PostgreSQL docs (corpus.mjs).
const CORPUS = process.env.CORPUS ?? "synthetic";
// TOOL=0: leave out the tool-call bot (issue 19's scenario).
const WITH_TOOL = process.env.TOOL !== "0";
const { SUPABASE_URL: api, SUPABASE_ANON_KEY: anonKey } = process.env;

async function setup(db) {
  const documents = await corpusDocuments(CORPUS, CHUNKS);
  const { ownerId, teamId } = await ownerTeam(db, "Bench");
  const bots = {};
  for (const [key, provider] of [
    ["extractive", "extractive"],
    ["openai_compatible", "openai_compatible"],
    ...(WITH_TOOL ? [["tool_call", "openai_compatible"]] : []),
  ]) {
    const {
      rows: [bot],
    } = await db.query(
      `insert into public.bots (team_id, name, visibility, model_provider, model, created_by) values ($1, $2, 'public', $3, 'zero-latency', $4) returning id`,
      [teamId, `Bench ${key}`, provider, ownerId],
    );
    bots[key] = bot.id;
    await insertKnowledge(db, bot.id, documents);
  }
  return { teamId, bots };
}

/**
 * A zero-latency OpenAI-compatible server: streams a fixed 20-token answer at once. Asked with the
 * tool `lookup_order` and no tool result yet in the conversation, it streams a call of that tool
 * instead (the real chat.completions tool_calls deltas), so a bot with that power-up makes one
 * tool round trip per answer: model step, HTTP action, model step.
 */
/** performance.now() of every request the zero-latency server received. */
const modelCalls = [];

function zeroLatencyServer() {
  const tokens = Array.from({ length: 20 }, (_, i) => `word${i} `);
  const server = http.createServer((req, res) => {
    // When the model call arrives (its headers; before the body): "request -> model call".
    modelCalls.push(performance.now());
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      let body = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        /* a plain answer */
      }
      const wantsTool =
        (body.tools ?? []).some((t) => t.function?.name === "lookup_order") &&
        !(body.messages ?? []).some((m) => m.role === "tool");
      res.writeHead(200, { "content-type": "text/event-stream" });
      const base = { id: "x", object: "chat.completion.chunk", created: 0, model: "zero-latency" };
      const frame = (choices, extra = {}) => `data: ${JSON.stringify({ ...base, choices, ...extra })}\n\n`;
      let out = "";
      if (wantsTool) {
        const call = {
          index: 0,
          id: "call_bench",
          type: "function",
          function: { name: "lookup_order", arguments: "" },
        };
        out += frame([{ index: 0, delta: { role: "assistant", tool_calls: [call] }, finish_reason: null }]);
        out += frame([
          {
            index: 0,
            delta: { tool_calls: [{ index: 0, function: { arguments: JSON.stringify({ order_id: "A-1001" }) } }] },
            finish_reason: null,
          },
        ]);
        out += frame([{ index: 0, delta: {}, finish_reason: "tool_calls" }]);
        out += frame([], { usage: { prompt_tokens: 100, completion_tokens: 10 } });
      } else {
        for (const t of tokens) out += frame([{ index: 0, delta: { content: t }, finish_reason: null }]);
        out += frame([], { usage: { prompt_tokens: 100, completion_tokens: 20 } });
      }
      res.end(out + "data: [DONE]\n\n");
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** The HTTP action's target: an order API on 127.0.0.1 that answers after SHOP_DELAY_MS. */
function shopServer() {
  const server = http.createServer((req, res) => {
    req.resume();
    setTimeout(() => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ order: { id: "A-1001", status: "shipped", carrier: "DHL" } }));
    }, SHOP_DELAY_MS);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

const questions = corpusQuestions(CORPUS);

async function one(token, botId, q) {
  const t0 = performance.now();
  const res = await fetch(`${api}/functions/v1/chat`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, apikey: anonKey, "content-type": "application/json" },
    body: JSON.stringify({ bot_id: botId, message: q }),
  });
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  let firstByte = null,
    firstToken = null,
    firstTool = null,
    text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    firstByte ??= performance.now() - t0;
    text += dec.decode(value, { stream: true });
    if (firstToken === null && text.includes("event: token")) firstToken = performance.now() - t0;
    if (firstTool === null && text.includes("event: tool")) firstTool = performance.now() - t0;
  }
  const full = performance.now() - t0;
  const modelCall = modelCalls.find((at) => at >= t0);
  // With PARLEY_CHAT_TIMINGS=1 the engine ends the stream with `: timings {...}` (ms from the
  // request's start to the end of each stage; stream.ts).
  const timings = /^: timings (.*)$/m.exec(text);
  if (res.status !== 200 || !text.includes("event: done")) {
    failures.push(`chat ${res.status}: ${text.replace(/\s+/g, " ").slice(-300)}`);
    return null;
  }
  const done = JSON.parse(/event: done\ndata: (.*)\n/.exec(text)[1]);
  return {
    firstByte,
    firstToken,
    firstTool,
    full,
    modelCall: modelCall === undefined ? null : modelCall - t0,
    serverFirstToken: done.first_token_ms,
    serverLatency: done.latency_ms,
    stages: timings ? JSON.parse(timings[1]) : {},
  };
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
const fmt = (x) => `${x.toFixed(1)}`;

/** Median full answer per scenario, for the tool call's added time. */
const medianFull = {};

async function scenario(name, botId, { tool = false } = {}) {
  // The visitor must exist in auth.users for the chat's foreign key.
  const [{ token }] = await visitors(db, 1);
  for (let i = 0; i < WARMUP; i++) await one(token, botId, questions[i % questions.length]);
  const runs = [];
  for (let i = 0; i < REQUESTS; i++) {
    // One visitor sends more than the database's per-user insert limit allows in a minute
    // (migration 20261121030100); the benchmark measures the engine, not that limit.
    await db.query("delete from private.rate_limits where key like 'db:%'");
    const r = await one(token, botId, questions[i % questions.length]);
    if (r) runs.push(r);
  }
  const row = (label, key) => {
    const xs = runs.map((r) => (typeof key === "function" ? key(r) : r[key])).filter((x) => typeof x === "number");
    if (!xs.length) return `| ${name} | ${label} | failed | | | |`;
    return `| ${name} | ${label} | ${fmt(pct(xs, 50))} | ${fmt(pct(xs, 95))} | ${fmt(Math.min(...xs))} | ${fmt(Math.max(...xs))} |`;
  };
  if (runs.length)
    medianFull[name] = pct(
      runs.map((r) => r.full),
      50,
    );
  return [
    row("first byte (meta event)", "firstByte"),
    ...(name === "extractive" ? [] : [row("request → model call (the server's clock)", "modelCall")]),
    ...(tool ? [row("tool event (the action's line)", "firstTool")] : []),
    row("first token", "firstToken"),
    row("full answer", "full"),
    row("server first_token_ms", "serverFirstToken"),
    // The engine's own marks (PARLEY_CHAT_TIMINGS=1): ms from the request's start to each stage's end.
    ...[...new Set(runs.flatMap((r) => Object.keys(r.stages)))].map((stage) =>
      row(`server: ${stage} done at`, (r) => r.stages[stage]),
    ),
  ];
}

/** The HTTP action's own time as the engine measured it (power_up_calls.duration_ms), after warm-up. */
async function actionTimes(botId) {
  const { rows } = await db.query(
    "select duration_ms from public.power_up_calls where bot_id = $1 and status = 'ok' order by created_at offset $2",
    [botId, WARMUP],
  );
  const {
    rows: [{ failed }],
  } = await db.query("select count(*)::int as failed from public.power_up_calls where bot_id = $1 and status <> 'ok'", [
    botId,
  ]);
  if (failed) failures.push(`${failed} HTTP action calls failed`);
  return rows.map((r) => r.duration_ms);
}

const db = await connectDb();
const t = performance.now();
const { teamId, bots } = await setup(db);
console.log(
  `${CORPUS}: ${CORPUS === "synthetic" ? CHUNKS : "all"} chunks per bot in ${((performance.now() - t) / 1000).toFixed(1)} s`,
);
const server = await zeroLatencyServer();
const shop = await shopServer();
await db.query(
  `insert into public.team_provider_keys (team_id, provider, api_key, base_url) values ($1, 'openai_compatible', 'bench', $2)`,
  [teamId, `http://127.0.0.1:${server.address().port}/v1`],
);
if (WITH_TOOL) {
  // The tool-call bot's one power-up: an HTTP action with a parameter (so only a model calls it).
  await db.query(
    `insert into public.power_ups (bot_id, type, name, label, description, settings) values ($1, 'http', 'lookup_order', 'Looked up your order', 'Look up an order by its number', $2)`,
    [
      bots.tool_call,
      {
        method: "GET",
        url: `http://127.0.0.1:${shop.address().port}/orders/{{order_id}}`,
        parameters: { type: "object", properties: { order_id: { type: "string" } }, required: ["order_id"] },
        response_path: "order",
        max_chars: 2000,
        timeout_ms: 10000,
      },
    ],
  );
}

/** match_chunks alone through PostgREST as the visitor: the retrieval share of the first token. */
async function retrieval(botId) {
  const [{ token }] = await visitors(db, 1);
  const xs = [];
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    const t0 = performance.now();
    const res = await fetch(`${api}/rest/v1/rpc/match_chunks`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, apikey: anonKey, "content-type": "application/json" },
      body: JSON.stringify({ p_bot_id: botId, p_query: questions[i % questions.length], p_match_count: 8 }),
    });
    const rows = await res.json();
    if (!Array.isArray(rows) || !rows.length) {
      failures.push(`match_chunks: ${JSON.stringify(rows).slice(0, 160)}`);
      continue;
    }
    if (i >= WARMUP) xs.push(performance.now() - t0);
  }
  if (!xs.length) return "| retrieval only | match_chunks RPC (PostgREST) | failed | | | |";
  return `| retrieval only | match_chunks RPC (PostgREST) | ${fmt(pct(xs, 50))} | ${fmt(pct(xs, 95))} | ${fmt(Math.min(...xs))} | ${fmt(Math.max(...xs))} |`;
}

const PLAIN = "openai_compatible (zero latency)";
const TOOL = "openai_compatible + 1 HTTP action (zero latency model)";
const rows = [
  await retrieval(bots.extractive),
  ...(await scenario("extractive", bots.extractive)),
  ...(await scenario(PLAIN, bots.openai_compatible)),
  ...(WITH_TOOL ? await scenario(TOOL, bots.tool_call, { tool: true }) : []),
];
const action = WITH_TOOL ? await actionTimes(bots.tool_call) : [];
if (action.length) {
  rows.push(
    `| ${TOOL} | the action's own time (power_up_calls.duration_ms) | ${fmt(pct(action, 50))} | ${fmt(pct(action, 95))} | ${fmt(Math.min(...action))} | ${fmt(Math.max(...action))} |`,
  );
}
const added = !WITH_TOOL
  ? "Tool round trip: not run (TOOL=0)."
  : medianFull[TOOL] !== undefined && medianFull[PLAIN] !== undefined && action.length
    ? `Tool round trip: full answer ${fmt(medianFull[TOOL] - medianFull[PLAIN])} ms slower (median) than without the power-up; the action itself took ${fmt(pct(action, 50))} ms (shop delay ${SHOP_DELAY_MS} ms), so the engine added ${fmt(medianFull[TOOL] - medianFull[PLAIN] - pct(action, 50))} ms over the action's own time (a second model step, the tool messages, storing the call).`
    : "Tool round trip: not measured (failed requests).";
server.close();
shop.close();
await db.end();

const report = [
  `Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}, load before ${os.loadavg()[0].toFixed(2)}`,
  `Requests: ${REQUESTS} per scenario after ${WARMUP} warm-up, sequential, each a new chat; corpus ${CORPUS}${CORPUS === "synthetic" ? ` (${CHUNKS} chunks per bot)` : ""}.`,
  "",
  "| scenario | measure | median ms | p95 ms | min ms | max ms |",
  "| --- | --- | ---: | ---: | ---: | ---: |",
  ...rows,
  "",
  added,
  "",
  `Failed requests: ${failures.length}${failures.length ? ` (first: ${failures[0]})` : ""}`,
].join("\n");
console.log(report);
fs.writeFileSync(
  path.resolve(here, process.env.RESULTS ?? (CORPUS === "synthetic" ? `results-${CHUNKS}.md` : `results-${CORPUS}.md`)),
  report + "\n",
);
