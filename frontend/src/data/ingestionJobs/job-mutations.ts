import { useMutation, useQueryClient } from "@tanstack/react-query";
import { cancelJob, retryJob } from "../dataSources/ingest";
import { ingestionJobKeys } from "./keys";

export function useCancelJobMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ jobId }: { jobId: string; sourceId: string }) => cancelJob(jobId),
    onSettled: (_r, _e, v) => qc.invalidateQueries({ queryKey: ingestionJobKeys.bySource(v.sourceId) }),
  });
}

export function useRetryJobMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ jobId }: { jobId: string; sourceId: string }) => retryJob(jobId),
    onSettled: (_r, _e, v) => qc.invalidateQueries({ queryKey: ingestionJobKeys.bySource(v.sourceId) }),
  });
}
