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

/** POST /tests/bots/{botId}/suggestions → 200: new cases with status "suggested" (accept: set active; discard: delete). */
export interface TestSuggestionsAnswer {
  created: number;
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

/** One score of a result (test_results.scores[]). */
export interface TestScore {
  name: "source" | "phrases" | "similarity" | "answered" | "judge";
  /** Whether the score counts for pass/fail (a rule the owner set, and the case gives what it needs). */
  applies: boolean;
  passed: boolean;
  /** 0..1 */
  score: number;
  explanation: string;
  /** The judge's reasoning. */
  reasoning?: string;
}
