// Live ingestion progress: postgres_changes on ingestion_jobs and data_sources for one bot (RLS on the
// realtime side decides what arrives). Each event is merged into the cached job lists, and
// a finished job refreshes the source's counters and documents.
import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { getSupabase } from "../../lib/supabase";
import { dataSourceKeys } from "../dataSources/keys";
import type { DataSource } from "../dataSources/types";
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

/** A data_sources change: the ingest function writes status and counters after the job row. */
export function applySourceEvent(qc: QueryClient, row: Partial<DataSource> & { id: string }, deleted = false): void {
  if (deleted) qc.removeQueries({ queryKey: dataSourceKeys.detail(row.id) });
  else {
    const cur = qc.getQueryData<DataSource | null>(dataSourceKeys.detail(row.id));
    if (cur) qc.setQueryData(dataSourceKeys.detail(row.id), { ...cur, ...row });
    void qc.invalidateQueries({ queryKey: dataSourceKeys.detail(row.id) });
    void qc.invalidateQueries({ queryKey: documentKeys.bySource(row.id) });
  }
  void qc.invalidateQueries({ queryKey: dataSourceKeys.lists() });
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
      .on("postgres_changes", { event: "*", schema: "public", table: "data_sources", filter: `bot_id=eq.${botId}` }, (payload) => {
        const row = (payload.eventType === "DELETE" ? payload.old : payload.new) as (Partial<DataSource> & { id?: string }) | undefined;
        if (row?.id) applySourceEvent(qc, row as Partial<DataSource> & { id: string }, payload.eventType === "DELETE");
      })
      .subscribe((status) => {
        // After (re)connecting, catch up on anything missed while offline.
        if (status === "SUBSCRIBED") {
          void qc.invalidateQueries({ queryKey: ingestionJobKeys.all });
          void qc.invalidateQueries({ queryKey: dataSourceKeys.all });
        }
      });
    return () => {
      void supabase.removeChannel(channel);
    };
  }, [botId, qc]);
}
