// The source row and its jobs are fetched separately, and a fast job can finish between the
// two reads (or before the realtime channel is up). When a source still says queued/running
// but its latest job has finished, its counters are stale: read them again, once per job state.
// The reverse too: the source is written just before its job, so a source that finished after
// the job started while the job still says queued/running means the job's last write was missed.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { dataSourceKeys } from "../dataSources/keys";
import type { DataSource } from "../dataSources/types";
import { documentKeys } from "../documents/keys";
import { ingestionJobKeys } from "./keys";
import { isActiveJob, type IngestionJob } from "./types";

export function isStaleAfterJob(source: Pick<DataSource, "status" | "updated_at">, job: Pick<IngestionJob, "status" | "finished_at"> | undefined): boolean {
  if (!job || isActiveJob(job)) return false;
  if (source.status === "queued" || source.status === "running" || source.status === "idle") return true;
  return !!job.finished_at && source.updated_at < job.finished_at;
}

/** The source's final state is written just before its job's: a finished source with a job still active. */
export function isJobStaleAfterSource(source: Pick<DataSource, "status" | "last_synced_at">, job: Pick<IngestionJob, "status" | "created_at"> | undefined): boolean {
  if (!job || !isActiveJob(job)) return false;
  if (source.status === "queued" || source.status === "running" || source.status === "idle") return false;
  return !!source.last_synced_at && source.last_synced_at >= job.created_at;
}

export function useStaleSourceCheck(sources: readonly Pick<DataSource, "id" | "bot_id" | "status" | "updated_at" | "last_synced_at">[], latest: (id: string) => IngestionJob | undefined): void {
  const qc = useQueryClient();
  const stale = sources.filter((s) => isStaleAfterJob(s, latest(s.id)) || isJobStaleAfterSource(s, latest(s.id)));
  const key = stale.map((s) => `${s.id}:${latest(s.id)?.id}:${latest(s.id)?.status}:${s.updated_at}`).join(",");
  useEffect(() => {
    if (!stale.length) return;
    const reread = () => {
      for (const s of stale) {
        void qc.invalidateQueries({ queryKey: dataSourceKeys.detail(s.id) });
        void qc.invalidateQueries({ queryKey: dataSourceKeys.list(s.bot_id) });
        void qc.invalidateQueries({ queryKey: documentKeys.bySource(s.id) });
        void qc.invalidateQueries({ queryKey: ingestionJobKeys.bySource(s.id) });
        void qc.invalidateQueries({ queryKey: ingestionJobKeys.byBot(s.bot_id) });
      }
    };
    reread();
    // The row is written just after the job: a few bounded retries cover a missed event.
    const timers = [1000, 3000, 8000].map((ms) => setTimeout(reread, ms));
    return () => timers.forEach(clearTimeout);
  }, [key, qc]);
}
