// Live ingestion progress: postgres_changes on ingestion_jobs and data_sources for one bot (RLS on the
// realtime side decides what arrives). Each event is merged into the cached job lists, and
// a finished job refreshes the source's counters and documents.
import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { tableChanges, useRealtimeChannel } from "../../lib/realtime";
import { dataSourceKeys } from "../dataSources/keys";
import { toDataSource, type DataSource } from "../dataSources/types";
import { documentKeys } from "../documents/keys";
import { ingestionJobKeys } from "./keys";
import { isActiveJob, mergeJob, readJobErrors, type IngestionJob } from "./types";

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
  useRealtimeChannel(`ingestion-jobs:${botId}`, {
    listeners: [
      tableChanges("ingestion_jobs", `bot_id=eq.${botId}`, (payload) => {
        if (payload.eventType !== "DELETE" && payload.new.id) applyJobEvent(qc, { ...payload.new, errors: readJobErrors(payload.new.errors) });
      }),
      tableChanges("data_sources", `bot_id=eq.${botId}`, (payload) => {
        if (payload.eventType === "DELETE") {
          if (payload.old.id) applySourceEvent(qc, { id: payload.old.id }, true);
        } else if (payload.new.id) applySourceEvent(qc, toDataSource(payload.new));
      }),
    ],
    // After (re)connecting, catch up on anything missed while offline.
    onSubscribed: () => {
      void qc.invalidateQueries({ queryKey: ingestionJobKeys.all });
      void qc.invalidateQueries({ queryKey: dataSourceKeys.all });
    },
  });
}
