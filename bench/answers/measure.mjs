// The stack half of bench/answers/run.mjs (runs with a stack's env): ingests the corpus through
// the real `ingest` function as text sources, retrieves the passages the engine would (match_chunks,
// 8 passages) for every labelled question, and asks every question through the real `chat`
// function (extractive default). Writes passages.json.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const { SUPABASE_URL: api, SUPABASE_ANON_KEY: anonKey, SUPABASE_SERVICE_ROLE_KEY: serviceKey } = process.env;
const MATCH_COUNT = 8; // as the engine (supabase/functions/_shared/engine/index.ts)

async function call(method, p, { token = anonKey, body, prefer, accept } = {}) {
  const res = await fetch(`${api}${p}`, {
    method,
    headers: {
      apikey: anonKey,
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      ...(prefer ? { prefer } : {}),
      ...(accept ? { accept } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

const labelled = JSON.parse(fs.readFileSync(path.join(here, "questions.json"), "utf8"));
const email = `bench-answers-${Date.now()}@parley.test`;
const password = "bench-password-123";
await call("POST", "/auth/v1/admin/users", { token: serviceKey, body: { email, password, email_confirm: true } });
const { access_token: token } = await call("POST", "/auth/v1/token?grant_type=password", { body: { email, password } });
const team = await call("POST", "/rest/v1/rpc/create_team", { token, body: { name: "Bench answers" } });
const [bot] = await call("POST", "/rest/v1/bots", {
  token,
  prefer: "return=representation",
  body: { team_id: team.id, name: "Package docs", language: "en", visibility: "public" },
});

const corpus = [];
for (const pkg of labelled.corpus) {
  const dir = path.join(root, "node_modules", pkg);
  const { version } = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  const text = fs.readFileSync(path.join(dir, "README.md"), "utf8");
  corpus.push({ pkg, version, chars: text.length });
  const [source] = await call("POST", "/rest/v1/data_sources", {
    token,
    prefer: "return=representation",
    body: { bot_id: bot.id, type: "text", name: `${pkg} README`, settings: { text, title: `${pkg} README` } },
  });
  const { job_id } = await call("POST", `/functions/v1/ingest/sources/${source.id}/sync`, { token, body: {} });
  for (;;) {
    const [job] = await call("GET", `/rest/v1/ingestion_jobs?id=eq.${job_id}&select=status,errors`, { token: serviceKey });
    if (job.status === "succeeded") break;
    if (!["queued", "running"].includes(job.status)) throw new Error(`${pkg}: ${job.status} ${JSON.stringify(job.errors)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
const chunks = (await call("GET", `/rest/v1/chunks?bot_id=eq.${bot.id}&select=id`, { token: serviceKey })).length;
console.log(`ingested ${corpus.length} READMEs as ${chunks} chunks`);

const questions = [
  ...labelled.answerable.map((a, i) => ({ ...a, answerable: true, half: i % 2 ? "held-out" : "calibration" })),
  ...labelled.unanswerable.map((q, i) => ({ q, answerable: false, half: i % 2 ? "held-out" : "calibration" })),
];
// The database allows a user 30 new chats a minute: a new asking visitor every 15 questions.
let asker = null;
async function visitor() {
  const mail = `bench-answers-visitor-${Date.now()}-${Math.random().toString(36).slice(2)}@parley.test`;
  await call("POST", "/auth/v1/admin/users", { token: serviceKey, body: { email: mail, password, email_confirm: true } });
  return (await call("POST", "/auth/v1/token?grant_type=password", { body: { email: mail, password } })).access_token;
}
for (const [i, question] of questions.entries()) {
  if (i % 15 === 0) asker = await visitor();
  question.passages = await call("POST", "/rest/v1/rpc/match_chunks", {
    token,
    body: { p_bot_id: bot.id, p_query: question.q, p_match_count: MATCH_COUNT },
  });
  const live = await call("POST", "/functions/v1/chat", { token: asker, accept: "application/json", body: { bot_id: bot.id, message: question.q } });
  question.live = { content: live.content, sources: live.sources.length };
}
fs.writeFileSync(
  path.join(here, "passages.json"),
  JSON.stringify({ date: new Date().toISOString(), corpus, chunks, match_count: MATCH_COUNT, questions }, null, 1) + "\n",
);
console.log(`retrieved and asked ${questions.length} questions; wrote bench/answers/passages.json`);
