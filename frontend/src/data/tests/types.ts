import { TEST_SCORE_REASON_CODES, type TestScore as StoredScore, type TestScoreReasonCode } from "@shared/contracts/tests.ts";
import type { Json, Tables } from "../../lib/database";
import { jsonObject, jsonObjects, jsonString } from "../../lib/json";

const jsonNumber = (v: Json | undefined): number | undefined => (typeof v === "number" ? v : undefined);

export type TestCase = Pick<
  Tables<"test_cases">,
  "id" | "bot_id" | "status" | "question" | "language" | "expected_answer" | "required_phrases" | "forbidden_phrases" | "expected_sources" | "tags" | "origin" | "created_at"
> & { history: HistoryTurn[] };
export const CASE_COLUMNS = "id, bot_id, status, question, history, language, expected_answer, required_phrases, forbidden_phrases, expected_sources, tags, origin, created_at";

/** A turn of the conversation before a case's question (test_cases.history). */
export interface HistoryTurn {
  role: "user" | "assistant";
  content: string;
}

/** test_cases.history as turns; anything else in the array is left out, as the runner does. */
export function readHistory(value: Json | undefined): HistoryTurn[] {
  return jsonObjects(value).flatMap((o) => {
    const role = o.role === "user" || o.role === "assistant" ? o.role : undefined;
    const content = jsonString(o.content);
    return role && content !== undefined ? [{ role, content }] : [];
  });
}

export type TestRun = Pick<
  Tables<"test_runs">,
  "id" | "bot_id" | "trigger" | "status" | "progress_done" | "progress_total" | "passed_count" | "failed_count" | "regression_count" | "regressions" | "fixed_count" | "previous_run_id" | "cancel_requested" | "started_at" | "finished_at" | "created_at"
> & { snapshot: RunSnapshot };
export const RUN_COLUMNS =
  "id, bot_id, trigger, status, progress_done, progress_total, passed_count, failed_count, regression_count, regressions, fixed_count, previous_run_id, cancel_requested, started_at, finished_at, created_at, snapshot";

export interface RunSnapshot {
  provider?: string;
  model?: string;
  documents?: number;
  chunks?: number;
}

export interface ResultSource {
  title: string;
  url?: string;
}

export type TestResult = Pick<Tables<"test_results">, "id" | "run_id" | "case_id" | "question" | "answer" | "passed" | "error" | "latency_ms"> & {
  sources: ResultSource[];
  scores: TestScore[];
};
export const RESULT_COLUMNS = "id, run_id, case_id, question, answer, passed, error, latency_ms, sources, scores";

const SCORE_NAMES = ["source", "phrases", "similarity", "answered", "judge"] as const;

export type ReasonParam = string | number | string[];
/** Why a score is what it is: message `tests.reason.<code>` with its parameters. */
export interface ScoreReason {
  code: TestScoreReasonCode;
  params: Record<string, ReasonParam>;
}
/**
 * A stored score. Results stored before scores carried reasons have none: their English
 * explanation is all there is to show.
 */
export type TestScore = Omit<StoredScore, "reasons"> & { reasons: ScoreReason[] };

function readParam(v: Json | undefined): ReasonParam | undefined {
  if (typeof v === "string" || typeof v === "number") return v;
  if (Array.isArray(v)) return v.map((x) => (typeof x === "string" || typeof x === "number" ? String(x) : "")).filter(Boolean);
  return undefined;
}

/** The reasons of a score; null when one of them is unknown to this app (a newer server), so the explanation is shown instead. */
export function readReasons(value: Json | undefined): ScoreReason[] | null {
  const reasons: ScoreReason[] = [];
  for (const o of jsonObjects(value)) {
    const code = TEST_SCORE_REASON_CODES.find((c) => c === o.code);
    if (!code) return null;
    const params: Record<string, ReasonParam> = {};
    for (const [k, v] of Object.entries(jsonObject(o.params))) {
      const p = readParam(v);
      if (p !== undefined) params[k] = p;
    }
    reasons.push({ code, params });
  }
  return reasons;
}

export function readScores(value: Json | undefined): TestScore[] {
  return jsonObjects(value).flatMap((o) => {
    const name = SCORE_NAMES.find((n) => n === jsonString(o.name));
    if (!name) return [];
    return [{
      name,
      applies: o.applies !== false,
      passed: o.passed === true,
      score: jsonNumber(o.score) ?? 0,
      explanation: jsonString(o.explanation) ?? "",
      reasons: readReasons(o.reasons) ?? [],
      reasoning: jsonString(o.reasoning),
    }];
  });
}

export function readSources(value: Json | undefined): ResultSource[] {
  return jsonObjects(value).map((o) => ({ title: jsonString(o.title) ?? "", url: jsonString(o.url) }));
}

export function readSnapshot(value: Json | undefined): RunSnapshot {
  const o = jsonObject(value);
  const knowledge = jsonObject(o.knowledge);
  return { provider: jsonString(o.provider), model: jsonString(o.model), documents: jsonNumber(knowledge.documents), chunks: jsonNumber(knowledge.chunks) };
}

export function toRun(row: Omit<TestRun, "snapshot"> & { snapshot: Json }): TestRun {
  return { ...row, snapshot: readSnapshot(row.snapshot) };
}

export const isActiveRun = (run: Pick<TestRun, "status"> | undefined) => run?.status === "queued" || run?.status === "running";

/** Pass rate in percent of a finished run (null while nothing was answered). */
export function passRate(run: Pick<TestRun, "passed_count" | "failed_count">): number | null {
  const total = run.passed_count + run.failed_count;
  return total ? Math.round((run.passed_count / total) * 100) : null;
}

/** Run duration in seconds. */
export function runSeconds(run: Pick<TestRun, "started_at" | "finished_at">): number | null {
  if (!run.started_at || !run.finished_at) return null;
  return Math.max(0, Math.round((Date.parse(run.finished_at) - Date.parse(run.started_at)) / 1000));
}
