import type { Enums, Json, Tables } from "../../lib/database";
import { jsonObjects, jsonString } from "../../lib/json";

export type IngestionJobStatus = Enums<"ingestion_job_status">;

/** One entry of ingestion_jobs.errors (jsonb): a page or file that failed or was skipped. */
export interface JobError {
  url?: string;
  code?: string;
  message?: string;
  level?: "error" | "warning";
}

type JobColumns = "id" | "data_source_id" | "bot_id" | "status" | "trigger" | "progress_done" | "progress_total" | "cancel_requested" | "started_at" | "finished_at" | "created_at" | "updated_at";

export type IngestionJob = Pick<Tables<"ingestion_jobs">, JobColumns> & { errors: JobError[] };

export function readJobErrors(value: Json | undefined): JobError[] {
  return jsonObjects(value).map((o) => {
    const level = jsonString(o.level);
    return { url: jsonString(o.url), code: jsonString(o.code), message: jsonString(o.message), level: level === "warning" || level === "error" ? level : undefined };
  });
}

export function toIngestionJob(row: Pick<Tables<"ingestion_jobs">, JobColumns | "errors">): IngestionJob {
  return { ...row, errors: readJobErrors(row.errors) };
}

export const JOB_COLUMNS =
  "id, data_source_id, bot_id, status, trigger, progress_done, progress_total, errors, cancel_requested, started_at, finished_at, created_at, updated_at";

export const isActiveJob = (job: Pick<IngestionJob, "status"> | null | undefined): boolean => job?.status === "queued" || job?.status === "running";

/** Percent done, 0–100, or null while the total is unknown (an indeterminate bar). */
export function jobPercent(job: Pick<IngestionJob, "status" | "progress_done" | "progress_total">): number | null {
  if (job.status === "succeeded") return 100;
  if (job.progress_total <= 0) return null;
  return Math.max(0, Math.min(100, Math.round((job.progress_done / job.progress_total) * 100)));
}

/** Newest first, one row per id (realtime updates replace older copies). */
export function mergeJob(list: readonly IngestionJob[], row: IngestionJob): IngestionJob[] {
  const rest = list.filter((j) => j.id !== row.id);
  const prev = list.find((j) => j.id === row.id);
  // Out-of-order events: never go back to an older version of the row.
  const next = prev && prev.updated_at > row.updated_at ? prev : row;
  return [next, ...rest].sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
}

/** The latest job per data source. */
export function latestJobBySource(jobs: readonly IngestionJob[]): Map<string, IngestionJob> {
  const out = new Map<string, IngestionJob>();
  for (const j of jobs) {
    const cur = out.get(j.data_source_id);
    if (!cur || cur.created_at < j.created_at) out.set(j.data_source_id, j);
  }
  return out;
}
