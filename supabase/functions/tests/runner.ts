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
import { describe, type Logger } from "../_shared/log.ts";
import { limitFromEnv } from "../_shared/rate-limit.ts";
import { judge } from "./judge.ts";
import {
  answeredScore,
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

async function scoreCase(
  service: Db,
  botId: string,
  c: TestCase,
  rules: PassRules,
  choice: ProviderChoice,
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
    let similarity: number | null = null;
    if (c.expected_answer.trim()) {
      similarity = Number(must(await service.rpc("answer_similarity", { answer, expected: c.expected_answer }), "similarity"));
    }
    const sim = similarityScore(c, similarity, rules);
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
  const bot = await loadBot(service, run.bot_id);
  const [choice, rules] = await Promise.all([chooseProvider(service, bot), settingsOf(service, bot.id)]);
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
    await service.from("test_runs").update({ progress_total: cases.length, snapshot: await snapshotOf(service, bot.id, choice) })
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
      const result = await scoreCase(service, bot.id, c, rules, choice, log);
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
    await notifyOwners(service, bot, run.id, comparison.regressions.length, log).catch((e) =>
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

/** Mails the team's owners through auth's mail path, as team-invite does: a sign-in link to the run. */
async function notifyOwners(service: Db, bot: { id: string; team_id: string }, runId: string, count: number, log: Logger) {
  const owners = must(
    await service.from("team_members").select("user_id").eq("team_id", bot.team_id).eq("role", "owner"),
    "owners",
  );
  const redirectTo = `${env.siteUrl.replace(/\/+$/, "")}/app/bots/${bot.id}/tests/${runId}?regressions=${count}`;
  let sent = 0;
  for (const { user_id } of owners) {
    const user = await service.auth.admin.getUserById(user_id);
    const email = user.data.user?.email;
    if (!email) continue;
    const otp = await service.auth.signInWithOtp({ email, options: { shouldCreateUser: false, emailRedirectTo: redirectTo } });
    if (otp.error) log.warn("regression_mail_failed", { code: otp.error.code ?? null, status: otp.error.status ?? null });
    else sent++;
  }
  if (sent) must(await service.from("test_runs").update({ notified_at: new Date().toISOString() }).eq("id", runId), "notified");
}
