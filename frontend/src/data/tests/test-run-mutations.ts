// The tests function's actions, as the signed-in user (the function asks can_manage_bot).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type {
  TestImportAnswer,
  TestImportRequest,
  TestRunAnswer,
  TestRunCancelAnswer,
  TestSuggestionsAnswer,
} from "@shared/contracts/tests.ts";
import { callFunction, requestFunction } from "../../lib/functions";
import { testKeys } from "./keys";

export const startTestRun = (botId: string) => callFunction<TestRunAnswer>(`tests/bots/${botId}/runs`);
export const cancelTestRun = (runId: string) => callFunction<TestRunCancelAnswer>(`tests/runs/${runId}/cancel`);
export const suggestTestCases = (botId: string) => callFunction<TestSuggestionsAnswer>(`tests/bots/${botId}/suggestions`);
export const importTestCases = (botId: string, csv: string) =>
  callFunction<TestImportAnswer>(`tests/bots/${botId}/import`, { csv } satisfies TestImportRequest);
export async function exportTestCases(botId: string): Promise<Blob> {
  return await (await requestFunction(`tests/bots/${botId}/export`, { method: "GET", accept: "text/csv" })).blob();
}

export function useStartTestRunMutation(botId: string) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: () => startTestRun(botId), onSettled: () => qc.invalidateQueries({ queryKey: testKeys.runs(botId) }) });
}

export function useCancelTestRunMutation(botId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (runId: string) => cancelTestRun(runId),
    onSettled: (_a, _e, runId) => {
      void qc.invalidateQueries({ queryKey: testKeys.runs(botId) });
      void qc.invalidateQueries({ queryKey: testKeys.run(runId) });
    },
  });
}

export function useSuggestTestCasesMutation(botId: string) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: () => suggestTestCases(botId), onSettled: () => qc.invalidateQueries({ queryKey: testKeys.cases(botId) }) });
}

export function useImportTestCasesMutation(botId: string) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (csv: string) => importTestCases(botId, csv), onSettled: () => qc.invalidateQueries({ queryKey: testKeys.cases(botId) }) });
}
