// The stack half of bench/answers/run.mjs (runs with a stack's env): ingests the corpus through
// the real `ingest` function as text sources, retrieves the passages the engine would (match_chunks,
// 8 passages) for every labelled question, and asks every question through the real `chat`
// function (extractive default). Writes passages.json.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { call, ingestText, ownerWithBot, serviceKey, userToken } from "../chat/api.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");

const MATCH_COUNT = 8; // as the engine (supabase/functions/_shared/engine/index.ts)

const labelled = JSON.parse(fs.readFileSync(path.join(here, "questions.json"), "utf8"));
const { token, bot } = await ownerWithBot("Package docs");
// Six data sources: the free plan allows five (PT402); benches run on the business plan.
await call("PATCH", `/rest/v1/teams?id=eq.${bot.team_id}`, { token: serviceKey, body: { plan_id: "business" } });

const corpus = [];
for (const pkg of labelled.corpus) {
  const dir = path.join(root, "node_modules", pkg);
  const { version } = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  const text = fs.readFileSync(path.join(dir, "README.md"), "utf8");
  corpus.push({ pkg, version, chars: text.length });
  await ingestText(token, bot.id, `${pkg} README`, text);
}
const chunks = (await call("GET", `/rest/v1/chunks?bot_id=eq.${bot.id}&select=id`, { token: serviceKey })).length;
console.log(`ingested ${corpus.length} READMEs as ${chunks} chunks`);

const questions = [
  ...labelled.answerable.map((a, i) => ({ ...a, answerable: true, half: i % 2 ? "held-out" : "calibration" })),
  ...labelled.unanswerable.map((q, i) => ({ q, answerable: false, half: i % 2 ? "held-out" : "calibration" })),
];
// The database allows a user 30 new chats a minute: a new asking visitor every 15 questions.
let asker = null;
for (const [i, question] of questions.entries()) {
  if (i % 15 === 0) asker = await userToken("bench-answers-visitor");
  question.passages = await call("POST", "/rest/v1/rpc/match_chunks", {
    token,
    body: { p_bot_id: bot.id, p_query: question.q, p_match_count: MATCH_COUNT },
  });
  const live = await call("POST", "/functions/v1/chat", {
    token: asker,
    accept: "application/json",
    body: { bot_id: bot.id, message: question.q },
  });
  question.live = { content: live.content, sources: live.sources.length };
}
fs.writeFileSync(
  path.join(here, "passages.json"),
  JSON.stringify({ date: new Date().toISOString(), corpus, chunks, match_count: MATCH_COUNT, questions }, null, 1) +
    "\n",
);
console.log(`retrieved and asked ${questions.length} questions; wrote bench/answers/passages.json`);
