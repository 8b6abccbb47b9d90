// POST /functions/v1/tests/...: test runs of a bot's answers, suggestions, CSV import/export.
import type { Database } from "../database.types.ts";

export type TestRunStatus = Database["public"]["Enums"]["test_run_status"];
export type TestRunTrigger = Database["public"]["Enums"]["test_run_trigger"];

/** POST /tests/bots/{botId}/runs → 202 TestRunAnswer; 409 run_in_progress (details.run_id); 400 no_test_cases. */
export interface TestRunAnswer {
  run_id: string;
}

/** POST /tests/runs/{runId}/cancel → 200. */
export interface TestRunCancelAnswer {
  run_id: string;
  status: TestRunStatus;
  cancel_requested?: true;
}

/**
 * POST /tests/bots/{botId}/suggestions → 200: new cases with status "suggested" (accept: set active; discard: delete).
 * method: "model" when the bot's model wrote them from passages of its documents, "headings" when they come
 * from section headings and document titles (the extractive default, or the model wrote none).
 */
export interface TestSuggestionsAnswer {
  created: number;
  method: "model" | "headings";
}

/** POST /tests/bots/{botId}/import: a text/csv body, or this JSON (columns: TEST_CASE_CSV_COLUMNS) → 200 TestImportAnswer. */
export interface TestImportRequest {
  csv: string;
}


export interface TestImportAnswer {
  created: number;
  /** Rows that were refused, 1-based as in the file (the header is row 1). */
  errors: { row: number; message: string }[];
}

/** GET /tests/bots/{botId}/export → text/csv with these columns; lists are separated by " | ". */
export const TEST_CASE_CSV_COLUMNS = [
  "question",
  "expected_answer",
  "required_phrases",
  "forbidden_phrases",
  "expected_sources",
  "tags",
  "language",
  "history",
] as const;

/** POST /tests/tick (the scheduler, service role) → 200. */
export interface TestTickAnswer {
  queued: number;
  processed: string[];
}

/**
 * Why a score is what it is, as a code and its parameters, so that readers put it into their
 * own language (the app: message `tests.reason.<code>`). Numbers 0..1 are fractions; lists are
 * the case's own words (phrases, sources) and 1-based positions.
 */
export type TestScoreReason =
  | { code: "source.found"; params: { k: number; positions: number[] } }
  | { code: "source.missing"; params: { k: number; missing: string[] } }
  | { code: "phrases.missing"; params: { phrases: string[] } }
  | { code: "phrases.allPresent"; params: { count: number } }
  | { code: "phrases.forbidden"; params: { phrases: string[] } }
  | { code: "phrases.noForbidden"; params: Record<string, never> }
  | { code: "similarity.trigram" | "similarity.embedding"; params: { score: number; min: number } }
  | { code: "answered.nothing"; params: Record<string, never> }
  | { code: "answered.yes"; params: { sources: number } }
  | { code: "judge.error"; params: { error: string } }
  | { code: "judge.graded"; params: { score: number; min: number } };

export type TestScoreReasonCode = TestScoreReason["code"];
export const TEST_SCORE_REASON_CODES = [
  "source.found", "source.missing", "phrases.missing", "phrases.allPresent", "phrases.forbidden", "phrases.noForbidden",
  "similarity.trigram", "similarity.embedding", "answered.nothing", "answered.yes", "judge.error", "judge.graded",
] as const satisfies readonly TestScoreReasonCode[];

/** One score of a result (test_results.scores[]). */
export interface TestScore {
  name: "source" | "phrases" | "similarity" | "answered" | "judge";
  /** Whether the score counts for pass/fail (a rule the owner set, and the case gives what it needs). */
  applies: boolean;
  passed: boolean;
  /** 0..1 */
  score: number;
  /** The reasons in English, for API readers and mails (and all that results stored before reasons have). */
  explanation: string;
  /** The reasons as codes and parameters (results stored since scores carry them). */
  reasons?: TestScoreReason[];
  /** The judge's reasoning. */
  reasoning?: string;
}
