// Runs inside scripts/with-stack.mjs (see run.mjs): a bot with CHUNKS generated passages, CASES
// test cases about them, RUNS manual runs through POST /functions/v1/tests/bots/{id}/runs; each
// polled until it ends. Writes bench/tests/results.md.
import { serviceClient } from "../../supabase/functions/_shared/testing.ts";
import { createBot } from "../../supabase/functions/chat/test-helpers.ts";
import { callFunction } from "../../supabase/functions/_shared/testing.ts";

const CASES = Number(Deno.env.get("CASES") ?? 100);
const RUNS = Number(Deno.env.get("RUNS") ?? 3);
const CHUNKS = Number(Deno.env.get("CHUNKS") ?? 200);

// A seeded PRNG so every run of the benchmark indexes the same text.
let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const WORDS = "account billing invoice password export notebook tag share team sync offline mobile desktop backup restore encrypt plan upgrade refund support email login security device archive search filter template reminder calendar attachment".split(" ");
const pick = () => WORDS[Math.floor(rand() * WORDS.length)];
const sentence = () => `${pick()} ${pick()} ${pick()} ${pick()} ${pick()} ${pick()} ${pick()}.`.replace(/^./, (c) => c.toUpperCase());

const topics = Array.from({ length: CHUNKS }, (_, i) => `Topic ${i} ${pick()} ${pick()}`);
const { botId, owner } = await createBot({
  chunks: topics.map((t, i) => ({ title: `Guide ${Math.floor(i / 10)}`, heading: t, content: `${t}: ${sentence()} ${sentence()} ${sentence()} The code for this topic is K${i}.` , url: `https://docs.example.test/${i}` })),
});
const service = serviceClient();
const cases = Array.from({ length: CASES }, (_, i) => {
  const n = Math.floor((i * CHUNKS) / CASES);
  return {
    bot_id: botId,
    created_by: owner.user.id,
    question: `What is the code for ${topics[n]}?`,
    expected_answer: `The code for this topic is K${n}.`,
    required_phrases: [`K${n}`],
    forbidden_phrases: [],
    expected_sources: [`https://docs.example.test/${n}`],
  };
});
const inserted = await service.from("test_cases").insert(cases);
if (inserted.error) throw inserted.error;
await service.rpc("answer_similarity", { answer: "warm", expected: "warm" });

const rows: string[] = [];
for (let r = 0; r < RUNS; r++) {
  const t0 = performance.now();
  const res = await callFunction("tests", { method: "POST", token: owner.token, path: `/bots/${botId}/runs` });
  if (res.status !== 202) throw new Error(`start: ${res.status} ${await res.text()}`);
  const { run_id } = await res.json();
  let run: Record<string, any> | null = null;
  for (;;) {
    const { data } = await service.from("test_runs").select("*").eq("id", run_id).single();
    if (data && ["succeeded", "failed", "cancelled"].includes(data.status)) { run = data; break; }
    await new Promise((ok) => setTimeout(ok, 100));
  }
  const wall = (performance.now() - t0) / 1000;
  const server = (Date.parse(run!.finished_at) - Date.parse(run!.started_at)) / 1000;
  const { data: results } = await service.from("test_results").select("latency_ms").eq("run_id", run_id);
  const lat = (results ?? []).map((x: { latency_ms: number }) => x.latency_ms).sort((a: number, b: number) => a - b);
  const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))];
  const line = `| ${r + 1} | ${run!.status} | ${run!.passed_count}/${run!.progress_total} | ${wall.toFixed(2)} | ${server.toFixed(2)} | ${(CASES / server).toFixed(1)} | ${q(0.5)} | ${q(0.95)} |`;
  console.log(line);
  rows.push(line);
}

const out = `# bench/tests results

${new Date().toISOString().slice(0, 10)}, ${Deno.build.os} ${Deno.build.arch}, ${navigator.hardwareConcurrency} cores (shared), a fresh local stack,
${CASES} cases, ${CHUNKS} chunks, the extractive default, PARLEY_TEST_CONCURRENCY ${Deno.env.get("PARLEY_TEST_CONCURRENCY") ?? "4 (default)"}.

| run | status | passed | wall s (start → seen finished) | server s (started_at → finished_at) | cases/s | case ms p50 | case ms p95 |
| --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join("\n")}
`;
await Deno.writeTextFile(new URL("./results.md", import.meta.url), out);
console.log(out);
