// Live ingestion progress: postgres_changes on ingestion_jobs for one bot (RLS on the
// realtime side decides what arrives). Each event is merged into the cached job lists, and
// a finished job refreshes the source's counters and documents.
import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { getSupabase } from "../../lib/supabase";
import { dataSourceKeys } from "../dataSources/keys";
import { documentKeys } from "../documents/keys";
import { ingestionJobKeys } from "./keys";
import { isActiveJob, mergeJob, type IngestionJob } from "./types";

export function applyJobEvent(qc: QueryClient, row: IngestionJob): void {
  const merge = (list: IngestionJob[] | undefined) => (list ? mergeJob(list, row) : list);
  qc.setQueryData<IngestionJob[]>(ingestionJobKeys.byBot(row.bot_id), merge);
  const bySource = qc.getQueryData<IngestionJob[]>(ingestionJobKeys.bySource(row.data_source_id));
  if (bySource) qc.setQueryData(ingestionJobKeys.bySource(row.data_source_id), mergeJob(bySource, row));
  else void qc.invalidateQueries({ queryKey: ingestionJobKeys.bySource(row.data_source_id) });
  if (!isActiveJob(row)) {
    void qc.invalidateQueries({ queryKey: dataSourceKeys.detail(row.data_source_id) });
    void qc.invalidateQueries({ queryKey: dataSourceKeys.list(row.bot_id) });
    void qc.invalidateQueries({ queryKey: documentKeys.bySource(row.data_source_id) });
  }
}

export function useLiveJobs(botId: string): void {
  const qc = useQueryClient();
  useEffect(() => {
    const supabase = getSupabase();
    const channel = supabase
      .channel(`ingestion-jobs:${botId}`)
      .on("postgres_changes", { event: "*", schema: "public", table: "ingestion_jobs", filter: `bot_id=eq.${botId}` }, (payload) => {
        const row = payload.new as IngestionJob | undefined;
        if (row && "id" in row && row.id) applyJobEvent(qc, row);
      })
      .subscribe((status) => {
        // After (re)connecting, catch up on anything missed while offline.
        if (status === "SUBSCRIBED") void qc.invalidateQueries({ queryKey: ingestionJobKeys.all });
      });
    return () => {
      void supabase.removeChannel(channel);
    };
  }, [botId, qc]);
}
