// A test run: claim a queued run, ask the bot every active case through the answering engine
// (ephemeral: nothing stored as a chat), score each answer, keep progress and counts on the run
// (realtime shows them), stop when cancelled, then compare with the previous finished run:
// cases that passed there and fail now are regressions, stored on the run and mailed to the
// team's owners.
import type { Db } from "../_shared/clients.ts";
import type { ChatSource } from "../_shared/contracts/chat.ts";
import type { TestScore } from "../_shared/contracts/tests.ts";
import { must } from "../_shared/db.ts";
import { loadBot } from "../_shared/engine/bot.ts";
import { collectAnswer, startAnswer } from "../_shared/engine/index.ts";
import { chooseProvider, type ProviderChoice } from "../_shared/engine/provider.ts";
import { env } from "../_shared/env.ts";
import { type EmbeddingConfig, embeddingProviderForTeam, embedTexts } from "../_shared/knowledge/embeddings.ts";
import { describe, type Logger } from "../_shared/log.ts";
import { sendMail } from "../_shared/mail.ts";
import { limitFromEnv } from "../_shared/rate-limit.ts";
import { judge } from "./judge.ts";
import { type RegressionReport, regressionMail } from "./regression-mail.ts";
import {
  answeredScore,
  cosine,
  DEFAULT_RULES,
  judgeScore,
  type PassRules,
  passes,
  phraseScore,
  similarityScore,
  sourceScore,
} from "./score.ts";

interface TestCase {
  id: string;
  question: string;
  history: unknown;
  expected_answer: string;
  required_phrases: string[];
  forbidden_phrases: string[];
  expected_sources: string[];
}

interface RunSettings extends PassRules {
  notify_regressions: boolean;
}

type Turn = { role: "user" | "assistant"; content: string };

function historyOf(value: unknown): Turn[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((t): t is Turn =>
      !!t && typeof t === "object" && (t.role === "user" || t.role === "assistant") && typeof t.content === "string" && t.content.trim() !== ""
    )
    .map((t) => ({ role: t.role, content: t.content }));
}

async function settingsOf(service: Db, botId: string): Promise<RunSettings> {
  const row = must(await service.from("bot_test_settings").select("*").eq("bot_id", botId).maybeSingle(), "test settings");
  if (!row) return { ...DEFAULT_RULES, notify_regressions: true };
  return {
    top_k: row.top_k,
    require_answer: row.require_answer,
    require_source: row.require_source,
    min_similarity: Number(row.min_similarity),
    min_judge_score: Number(row.min_judge_score),
    notify_regressions: row.notify_regressions,
  };
}

/** What was tested: the bot's answering settings and the state of its knowledge. */
async function snapshotOf(service: Db, botId: string, choice: ProviderChoice) {
  const bot = must(
    await service.from("bots").select("instructions, model_provider, model, temperature, language").eq("id", botId).single(),
    "bot",
  );
  const count = async (table: "documents" | "chunks") => {
    const res = await service.from(table).select("id", { count: "exact", head: true }).eq("bot_id", botId);
    if (res.error) throw new Error(`${table} count: ${res.error.message}`);
    return res.count ?? 0;
  };
  const latest = must(
    await service.from("documents").select("updated_at").eq("bot_id", botId).order("updated_at", { ascending: false }).limit(1),
    "documents",
  );
  return {
    instructions: bot.instructions,
    provider: choice.kind === "model" ? choice.provider : "extractive",
    model: choice.kind === "model" ? choice.model : null,
    configured_provider: bot.model_provider,
    temperature: Number(bot.temperature),
    language: bot.language,
    knowledge: { documents: await count("documents"), chunks: await count("chunks"), updated_at: latest[0]?.updated_at ?? null },
  };
}

/** An embedding of the expected answer must not hold a run up long: trigram similarity still works. */
const SIMILARITY_EMBEDDING_TIMEOUT_MS = 15_000;

/**
 * Similarity of the answer to the expected one: the cosine of their embeddings when the team has
 * an embeddings provider (the engine's path, _shared/knowledge/embeddings.ts), otherwise, or when
 * embedding fails, trigram word similarity (SQL answer_similarity).
 */
async function similarityOf(service: Db, embedding: EmbeddingConfig | null, expected: string, answer: string) {
  if (embedding && answer.trim()) {
    const vectors = await embedTexts(embedding, [expected, answer], SIMILARITY_EMBEDDING_TIMEOUT_MS);
    if (vectors) return { score: cosine(vectors[0], vectors[1]), method: "embedding" as const };
  }
  return { score: Number(must(await service.rpc("answer_similarity", { answer, expected }), "similarity")), method: "trigram" as const };
}

async function scoreCase(
  service: Db,
  botId: string,
  c: TestCase,
  rules: PassRules,
  choice: ProviderChoice,
  embedding: EmbeddingConfig | null,
  log: Logger,
) {
  const started = performance.now();
  let answer = "";
  let sources: ChatSource[] = [];
  let error: string | null = null;
  try {
    const got = await collectAnswer(
      await startAnswer({
        botId,
        message: c.question,
        conversation: { kind: "ephemeral", purpose: "test", history: historyOf(c.history) },
        log,
      }),
    );
    answer = got.content;
    sources = got.sources;
    if (got.error) error = `${got.error.code}: ${got.error.message}`;
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  const scores: TestScore[] = [];
  if (!error) {
    const source = sourceScore(c, sources, rules);
    const phrases = phraseScore(c, answer);
    const measured = c.expected_answer.trim() ? await similarityOf(service, embedding, c.expected_answer, answer) : null;
    const sim = similarityScore(c, measured?.score ?? null, rules, measured?.method);
    const grade = choice.kind === "model" && c.expected_answer.trim()
      ? await judge(choice, { question: c.question, expected: c.expected_answer, answer })
      : null;
    for (const s of [source, phrases, sim, answeredScore(answer, sources, rules), judgeScore(grade, rules)]) if (s) scores.push(s);
  }
  return {
    case_id: c.id,
    bot_id: botId,
    question: c.question,
    answer,
    sources: sources as unknown as never,
    scores: scores as unknown as never,
    passed: passes(scores, error),
    error,
    latency_ms: Math.round(performance.now() - started),
  };
}

/** Runs a queued run to its end. Returns false when the run was not queued (someone else took it). */
/** A test run's error when the team's monthly messages are used up (no case was asked). */
export const QUOTA_EXCEEDED = "quota_exceeded: The team's messages for this month are used up, so no test case was asked.";

export async function processRun(service: Db, runId: string, log: Logger): Promise<boolean> {
  const run = must(
    await service
      .from("test_runs")
      .update({ status: "running", started_at: new Date().toISOString() })
      .eq("id", runId)
      .eq("status", "queued")
      .select("id, bot_id, created_at")
      .maybeSingle(),
    "claim run",
  );
  if (!run) return false;
  const runLog = log.with({ run_id: run.id, bot_id: run.bot_id });
  try {
    await execute(service, run, runLog);
  } catch (e) {
    runLog.error("test_run_failed", { error: describe(e) });
    await service.from("test_runs").update({ status: "failed", error: "The run stopped on an internal error.", finished_at: new Date().toISOString() })
      .eq("id", run.id);
  }
  return true;
}

async function execute(service: Db, run: { id: string; bot_id: string; created_at: string }, log: Logger) {
  // A run queued before the team's monthly messages ran out asks the model nothing once they have.
  if (must(await service.rpc("message_quota_reached", { bot_id: run.bot_id }), "message quota")) {
    log.info("test_run_over_quota");
    must(
      await service.from("test_runs").update({ status: "failed", error: QUOTA_EXCEEDED, finished_at: new Date().toISOString() }).eq("id", run.id),
      "over quota",
    );
    return;
  }
  const bot = await loadBot(service, run.bot_id);
  const [choice, rules, embedding] = await Promise.all([
    chooseProvider(service, bot),
    settingsOf(service, bot.id),
    embeddingProviderForTeam(service, bot.team_id).catch(() => null),
  ]);
  const cases = must(
    await service
      .from("test_cases")
      .select("id, question, history, expected_answer, required_phrases, forbidden_phrases, expected_sources")
      .eq("bot_id", bot.id)
      .eq("status", "active")
      .order("created_at")
      .limit(2000),
    "cases",
  ) as TestCase[];
  must(
    await service.from("test_runs").update({ progress_total: cases.length, snapshot: { ...(await snapshotOf(service, bot.id, choice)), similarity: embedding ? "embedding" : "trigram" } })
      .eq("id", run.id),
    "start run",
  );

  let next = 0;
  let done = 0;
  let passed = 0;
  let cancelled = false;
  const concurrency = Math.max(1, limitFromEnv("PARLEY_TEST_CONCURRENCY", 4));
  const worker = async () => {
    while (!cancelled && next < cases.length) {
      const c = cases[next++];
      const flag = must(await service.from("test_runs").select("cancel_requested").eq("id", run.id).single(), "cancel flag");
      if (flag.cancel_requested) {
        cancelled = true;
        return;
      }
      const result = await scoreCase(service, bot.id, c, rules, choice, embedding, log);
      must(await service.from("test_results").upsert({ run_id: run.id, ...result }, { onConflict: "run_id,case_id" }), "result");
      done++;
      if (result.passed) passed++;
      must(
        await service.from("test_runs").update({ progress_done: done, passed_count: passed, failed_count: done - passed }).eq("id", run.id),
        "progress",
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, cases.length || 1) }, worker));

  if (cancelled) {
    must(await service.from("test_runs").update({ status: "cancelled", finished_at: new Date().toISOString() }).eq("id", run.id), "cancel");
    return;
  }
  const comparison = await compareWithPrevious(service, run);
  must(
    await service.from("test_runs").update({
      status: "succeeded",
      // The workers' progress updates may land out of order; the final counts are these.
      progress_done: done,
      passed_count: passed,
      failed_count: done - passed,
      finished_at: new Date().toISOString(),
      previous_run_id: comparison.previousRunId,
      regressions: comparison.regressions,
      regression_count: comparison.regressions.length,
      fixed_count: comparison.fixed,
    }).eq("id", run.id),
    "finish run",
  );
  if (comparison.regressions.length && rules.notify_regressions) {
    const report = { id: run.id, total: done, passed, fixed: comparison.fixed, regressions: comparison.regressions };
    await notifyRegressions(service, bot, report, cases, log).catch((e) =>
      log.warn("regression_mail_failed", { error: describe(e) })
    );
  }
}

/** The previous finished run of the bot, and what changed since: regressions (passed → failed) and fixes. */
async function compareWithPrevious(service: Db, run: { id: string; bot_id: string; created_at: string }) {
  const previous = must(
    await service
      .from("test_runs")
      .select("id")
      .eq("bot_id", run.bot_id)
      .eq("status", "succeeded")
      .neq("id", run.id)
      .lt("created_at", run.created_at)
      .order("created_at", { ascending: false })
      .limit(1)
      .maybeSingle(),
    "previous run",
  );
  if (!previous) return { previousRunId: null, regressions: [] as string[], fixed: 0 };
  const results = must(
    await service.from("test_results").select("run_id, case_id, passed").in("run_id", [previous.id, run.id]).not("case_id", "is", null),
    "results",
  );
  const before = new Map(results.filter((r) => r.run_id === previous.id).map((r) => [r.case_id!, r.passed]));
  const now = results.filter((r) => r.run_id === run.id);
  return {
    previousRunId: previous.id,
    regressions: now.filter((r) => !r.passed && before.get(r.case_id!) === true).map((r) => r.case_id!),
    fixed: now.filter((r) => r.passed && before.get(r.case_id!) === false).length,
  };
}

/**
 * Mails those the bot's test settings name (owners, admins, chosen members, extra addresses;
 * public.test_regression_recipients), each in their language, with a link to the run's new failures.
 */
async function notifyRegressions(
  service: Db,
  bot: { id: string },
  run: { id: string; total: number; passed: number; fixed: number; regressions: string[] },
  cases: TestCase[],
  log: Logger,
) {
  const recipients = must(await service.rpc("test_regression_recipients", { bot_id: bot.id }), "regression recipients");
  const { name } = must(await service.from("bots").select("name").eq("id", bot.id).single(), "bot name");
  const report: RegressionReport = {
    bot: name,
    link: `${env.siteUrl.replace(/\/+$/, "")}/app/bots/${bot.id}/tests/${run.id}?filter=new`,
    total: run.total,
    passed: run.passed,
    fixed: run.fixed,
    regressions: run.regressions.length,
    questions: run.regressions.map((id) => cases.find((c) => c.id === id)?.question ?? "").filter(Boolean),
  };
  const byLanguage = new Map<string, string[]>();
  for (const r of recipients) byLanguage.set(r.language, [...(byLanguage.get(r.language) ?? []), r.email]);
  let sent = 0;
  for (const [language, to] of byLanguage) {
    const result = await sendMail({ to, ...regressionMail(language, report) });
    if (result.skipped) log.warn("regression_mail_skipped", { reason: result.skipped });
    sent += result.sent;
  }
  if (sent) must(await service.from("test_runs").update({ notified_at: new Date().toISOString() }).eq("id", run.id), "notified");
}
