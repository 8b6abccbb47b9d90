// The measuring half of bench/chat/run.mjs; runs with a stack's env (see run.mjs).
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const require = createRequire(path.join(root, "stack", "package.json"));
const pg = require("pg");

const failures = [];
const REQUESTS = Number(process.env.REQUESTS ?? 50);
const WARMUP = Number(process.env.WARMUP ?? 5);
const CHUNKS = Number(process.env.CHUNKS ?? 10000);
const SHOP_DELAY_MS = Number(process.env.SHOP_DELAY_MS ?? 50);
const {
  SUPABASE_URL: api,
  SUPABASE_ANON_KEY: anonKey,
  SUPABASE_DB_URL: dbUrl,
  SUPABASE_JWT_SECRET: secret,
} = process.env;

const b64url = (b) => Buffer.from(b).toString("base64url");
function mint(sub) {
  const now = Math.floor(Date.now() / 1000);
  const head = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const body = b64url(
    JSON.stringify({ sub, role: "authenticated", aud: "authenticated", iat: now, exp: now + 7200, is_anonymous: true }),
  );
  const sig = crypto.createHmac("sha256", secret).update(`${head}.${body}`).digest("base64url");
  return `${head}.${body}.${sig}`;
}

// Words for generated knowledge: a realistic spread of terms for full-text search.
const vocab = (
  "account billing invoice password reset security login export import notes folder share team member role admin owner " +
  "workspace sync offline mobile desktop browser extension calendar reminder tag search filter archive trash restore backup " +
  "plan upgrade downgrade refund payment card receipt tax region language theme dark light shortcut keyboard editor markdown " +
  "table image attachment pdf upload limit storage quota notification email digest webhook api token integration slack " +
  "calendar zapier template checklist task due date priority comment mention history version conflict device session"
).split(" ");
function sentence(rng) {
  const n = 8 + Math.floor(rng() * 10);
  const words = Array.from({ length: n }, () => vocab[Math.floor(rng() * vocab.length)]);
  return words.join(" ").replace(/^./, (c) => c.toUpperCase()) + ".";
}
function mulberry32(a) {
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function setup(db) {
  const ownerId = crypto.randomUUID();
  await db.query(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_anonymous)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, '', now(), '{"provider":"email"}', '{}', now(), now(), false)`,
    [ownerId, `bench-${ownerId}@parley.test`],
  );
  const {
    rows: [team],
  } = await db.query(`insert into public.teams (name, slug, created_by) values ('Bench', $1, $2) returning id`, [
    `bench-${ownerId.slice(0, 8)}`,
    ownerId,
  ]);
  const bots = {};
  for (const [key, provider] of [
    ["extractive", "extractive"],
    ["openai_compatible", "openai_compatible"],
    ["tool_call", "openai_compatible"],
  ]) {
    const {
      rows: [bot],
    } = await db.query(
      `insert into public.bots (team_id, name, visibility, model_provider, model, created_by) values ($1, $2, 'public', $3, 'zero-latency', $4) returning id`,
      [team.id, `Bench ${key}`, provider, ownerId],
    );
    bots[key] = bot.id;
    const {
      rows: [source],
    } = await db.query(
      `insert into public.data_sources (bot_id, type, name) values ($1, 'text', 'Generated') returning id`,
      [bot.id],
    );
    const rng = mulberry32(42);
    const DOCS = 100;
    const perDoc = Math.ceil(CHUNKS / DOCS);
    for (let d = 0; d < DOCS; d++) {
      const {
        rows: [doc],
      } = await db.query(
        `insert into public.documents (data_source_id, bot_id, title, url) values ($1, $2, $3, $4) returning id`,
        [source.id, bot.id, `Article ${d}`, `https://help.example.test/articles/${d}`],
      );
      const values = [];
      const params = [];
      for (let c = 0; c < perDoc && d * perDoc + c < CHUNKS; c++) {
        const content = Array.from({ length: 6 }, () => sentence(rng)).join(" ");
        params.push(doc.id, bot.id, c, `Article ${d} > Section ${c}`, content);
        const i = params.length;
        values.push(`($${i - 4}, $${i - 3}, $${i - 2}, $${i - 1}, $${i})`);
      }
      await db.query(
        `insert into public.chunks (document_id, bot_id, position, heading_path, content) values ${values.join(",")}`,
        params,
      );
    }
  }
  await db.query("analyze public.chunks");
  return { teamId: team.id, bots };
}

/**
 * A zero-latency OpenAI-compatible server: streams a fixed 20-token answer at once. Asked with the
 * tool `lookup_order` and no tool result yet in the conversation, it streams a call of that tool
 * instead (the real chat.completions tool_calls deltas), so a bot with that power-up makes one
 * tool round trip per answer: model step, HTTP action, model step.
 */
function zeroLatencyServer() {
  const tokens = Array.from({ length: 20 }, (_, i) => `word${i} `);
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      let body = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        /* a plain answer */
      }
      const wantsTool = (body.tools ?? []).some((t) => t.function?.name === "lookup_order") && !(body.messages ?? []).some((m) => m.role === "tool");
      res.writeHead(200, { "content-type": "text/event-stream" });
      const base = { id: "x", object: "chat.completion.chunk", created: 0, model: "zero-latency" };
      const frame = (choices, extra = {}) => `data: ${JSON.stringify({ ...base, choices, ...extra })}\n\n`;
      let out = "";
      if (wantsTool) {
        const call = { index: 0, id: "call_bench", type: "function", function: { name: "lookup_order", arguments: "" } };
        out += frame([{ index: 0, delta: { role: "assistant", tool_calls: [call] }, finish_reason: null }]);
        out += frame([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: JSON.stringify({ order_id: "A-1001" }) } }] }, finish_reason: null }]);
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

const questions = [
  "How do I reset my password?",
  "Can I export my notes as PDF?",
  "How does billing and invoice work?",
  "How do I share a folder with my team?",
  "Is there a dark theme?",
  "What are the storage limits for uploads?",
  "How do I restore notes from the trash?",
  "Do you support webhooks and an API token?",
];

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
  if (res.status !== 200 || !text.includes("event: done")) {
    failures.push(`chat ${res.status}: ${text.replace(/\s+/g, " ").slice(0, 160)}`);
    return null;
  }
  const done = JSON.parse(/event: done\ndata: (.*)\n/.exec(text)[1]);
  return { firstByte, firstToken, firstTool, full, serverFirstToken: done.first_token_ms, serverLatency: done.latency_ms };
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
const fmt = (x) => `${x.toFixed(1)}`;

/** Median full answer per scenario, for the tool call's added time. */
const medianFull = {};

async function scenario(name, botId, { tool = false } = {}) {
  const token = mint(crypto.randomUUID());
  // The visitor must exist in auth.users for the chat's foreign key.
  const sub = JSON.parse(Buffer.from(token.split(".")[1], "base64url")).sub;
  await db.query(
    `insert into auth.users (instance_id, id, aud, role, raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_anonymous)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', '{"provider":"anonymous"}', '{}', now(), now(), true)`,
    [sub],
  );
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
    if (!runs.length) return `| ${name} | ${label} | failed | | | |`;
    const xs = runs.map((r) => r[key]);
    return `| ${name} | ${label} | ${fmt(pct(xs, 50))} | ${fmt(pct(xs, 95))} | ${fmt(Math.min(...xs))} | ${fmt(Math.max(...xs))} |`;
  };
  if (runs.length) medianFull[name] = pct(runs.map((r) => r.full), 50);
  return [
    row("first byte (meta event)", "firstByte"),
    ...(tool ? [row("tool event (the action's line)", "firstTool")] : []),
    row("first token", "firstToken"),
    row("full answer", "full"),
    row("server first_token_ms", "serverFirstToken"),
  ];
}

/** The HTTP action's own time as the engine measured it (power_up_calls.duration_ms), after warm-up. */
async function actionTimes(botId) {
  const { rows } = await db.query(
    "select duration_ms from public.power_up_calls where bot_id = $1 and status = 'ok' order by created_at offset $2",
    [botId, WARMUP],
  );
  const { rows: [{ failed }] } = await db.query("select count(*)::int as failed from public.power_up_calls where bot_id = $1 and status <> 'ok'", [botId]);
  if (failed) failures.push(`${failed} HTTP action calls failed`);
  return rows.map((r) => r.duration_ms);
}

const db = new pg.Client({ connectionString: dbUrl });
await db.connect();
const t = performance.now();
const { teamId, bots } = await setup(db);
console.log(`generated ${CHUNKS} chunks per bot in ${((performance.now() - t) / 1000).toFixed(1)} s`);
const server = await zeroLatencyServer();
const shop = await shopServer();
await db.query(
  `insert into public.team_provider_keys (team_id, provider, api_key, base_url) values ($1, 'openai_compatible', 'bench', $2)`,
  [teamId, `http://127.0.0.1:${server.address().port}/v1`],
);
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

/** match_chunks alone through PostgREST as the visitor: the retrieval share of the first token. */
async function retrieval(botId) {
  const sub = crypto.randomUUID();
  await db.query(
    `insert into auth.users (instance_id, id, aud, role, raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_anonymous)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', '{"provider":"anonymous"}', '{}', now(), now(), true)`,
    [sub],
  );
  const token = mint(sub);
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
  ...(await scenario(TOOL, bots.tool_call, { tool: true })),
];
const action = await actionTimes(bots.tool_call);
if (action.length) {
  rows.push(`| ${TOOL} | the action's own time (power_up_calls.duration_ms) | ${fmt(pct(action, 50))} | ${fmt(pct(action, 95))} | ${fmt(Math.min(...action))} | ${fmt(Math.max(...action))} |`);
}
const added = medianFull[TOOL] !== undefined && medianFull[PLAIN] !== undefined && action.length
  ? `Tool round trip: full answer ${fmt(medianFull[TOOL] - medianFull[PLAIN])} ms slower (median) than without the power-up; the action itself took ${fmt(pct(action, 50))} ms (shop delay ${SHOP_DELAY_MS} ms), so the engine added ${fmt(medianFull[TOOL] - medianFull[PLAIN] - pct(action, 50))} ms over the action's own time (a second model step, the tool messages, storing the call).`
  : "Tool round trip: not measured (failed requests).";
server.close();
shop.close();
await db.end();

const report = [
  `Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}, load before ${os.loadavg()[0].toFixed(2)}`,
  `Requests: ${REQUESTS} per scenario after ${WARMUP} warm-up, sequential, each a new chat; ${CHUNKS} chunks per bot.`,
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
fs.writeFileSync(path.join(here, process.env.RESULTS ?? `results-${CHUNKS}.md`), report + "\n");
