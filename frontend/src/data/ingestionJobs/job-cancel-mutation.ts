import { useMutation, useQueryClient } from "@tanstack/react-query";
import { cancelJob } from "../dataSources/ingest";
import { ingestionJobKeys } from "./keys";

export function useCancelJobMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ jobId }: { jobId: string; sourceId: string }) => cancelJob(jobId),
    onSettled: (_r, _e, v) => qc.invalidateQueries({ queryKey: ingestionJobKeys.bySource(v.sourceId) }),
  });
}
