import { useQuery } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { taskKeys } from "./keys";
import { RUN_COLUMNS, type TaskRun } from "./types";

export async function fetchTaskRuns(taskId: string): Promise<TaskRun[]> {
  return unwrap(await (await loadSupabase()).from("task_runs").select(RUN_COLUMNS).eq("task_id", taskId).order("started_at", { ascending: false }).limit(50)) ?? [];
}

export function useTaskRunsQuery(taskId: string) {
  return useQuery({
    queryKey: taskKeys.runs(taskId),
    queryFn: () => fetchTaskRuns(taskId),
    // a test task's run ends when its test run does: look again until it has
    refetchInterval: (q) => (q.state.data?.some((r) => r.status === "running") ? 5000 : false),
  });
}
