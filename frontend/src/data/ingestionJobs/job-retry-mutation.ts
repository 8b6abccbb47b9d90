import { useMutation, useQueryClient } from "@tanstack/react-query";
import { retryJob } from "../dataSources/ingest";
import { ingestionJobKeys } from "./keys";

export function useRetryJobMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ jobId }: { jobId: string; sourceId: string }) => retryJob(jobId),
    onSettled: (_r, _e, v) => qc.invalidateQueries({ queryKey: ingestionJobKeys.bySource(v.sourceId) }),
  });
}
