import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ingestionJobKeys } from "../ingestionJobs/keys";
import { startSync } from "./ingest";
import { dataSourceKeys } from "./keys";

export function useSyncDataSourceMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id }: { id: string; botId: string }) => startSync(id, "manual"),
    onSettled: (_r, _e, v) => {
      void qc.invalidateQueries({ queryKey: ingestionJobKeys.bySource(v.id) });
      void qc.invalidateQueries({ queryKey: dataSourceKeys.detail(v.id) });
      return qc.invalidateQueries({ queryKey: dataSourceKeys.list(v.botId) });
    },
  });
}
