import { useQuery } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { testKeys } from "./keys";
import { RESULT_COLUMNS, RUN_COLUMNS, readScores, readSources, toRun, type TestResult, type TestRun } from "./types";

/** A bot's runs, newest first. */
export async function fetchTestRuns(botId: string, limit = 50): Promise<TestRun[]> {
  const rows = unwrap(await (await loadSupabase()).from("test_runs").select(RUN_COLUMNS).eq("bot_id", botId).order("created_at", { ascending: false }).limit(limit));
  return (rows ?? []).map(toRun);
}

/** The newest run that finished (its counts and regressions are final), or null. */
export async function fetchLatestFinishedTestRun(botId: string): Promise<TestRun | null> {
  const row = unwrap(
    await (await loadSupabase()).from("test_runs").select(RUN_COLUMNS).eq("bot_id", botId).eq("status", "succeeded").order("created_at", { ascending: false }).limit(1).maybeSingle(),
  );
  return row ? toRun(row) : null;
}

export async function fetchTestRun(runId: string): Promise<TestRun | null> {
  const row = unwrap(await (await loadSupabase()).from("test_runs").select(RUN_COLUMNS).eq("id", runId).maybeSingle());
  return row ? toRun(row) : null;
}

export async function fetchTestResults(runId: string): Promise<TestResult[]> {
  const rows = unwrap(await (await loadSupabase()).from("test_results").select(RESULT_COLUMNS).eq("run_id", runId).order("question").limit(5000));
  return (rows ?? []).map((r) => ({ ...r, scores: readScores(r.scores), sources: readSources(r.sources) }));
}

export function useTestRunsQuery(botId: string) {
  return useQuery({ queryKey: testKeys.runs(botId), queryFn: () => fetchTestRuns(botId) });
}

export function useLatestFinishedTestRunQuery(botId: string) {
  return useQuery({ queryKey: testKeys.latestRun(botId), queryFn: () => fetchLatestFinishedTestRun(botId) });
}

export function useTestRunQuery(runId: string) {
  return useQuery({ queryKey: testKeys.run(runId), queryFn: () => fetchTestRun(runId) });
}

/** A run's results; `null` id (no previous run) gives an empty list. */
export function useTestResultsQuery(runId: string | null | undefined) {
  return useQuery({ queryKey: testKeys.results(runId ?? "none"), queryFn: () => (runId ? fetchTestResults(runId) : Promise.resolve([])) });
}
