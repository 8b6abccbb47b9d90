// "Run now": the tasks function runs the task and answers the finished run (a test task's run
// is still "running": its test run ends it, and the run log refreshes until then).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { callFunction } from "../../lib/functions";
import { taskKeys } from "./keys";

export interface TaskRunAnswer {
  run_id: string;
  status: "succeeded" | "failed" | "running";
  output: Record<string, unknown>;
  error: string | null;
}

export function runTaskNow({ id }: { id: string; botId: string }): Promise<TaskRunAnswer> {
  return callFunction<TaskRunAnswer>(`tasks/${id}/run`, {});
}

export function useRunTaskMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: runTaskNow,
    onSettled: (_r, _e, v) => {
      void qc.invalidateQueries({ queryKey: taskKeys.runs(v.id) });
      void qc.invalidateQueries({ queryKey: taskKeys.detail(v.id) });
      return qc.invalidateQueries({ queryKey: taskKeys.list(v.botId) });
    },
  });
}
