// POST /functions/v1/ingest/...: data source syncs as background jobs.
import type { Database } from "../database.types.ts";

export type IngestionJobStatus = Database["public"]["Enums"]["ingestion_job_status"];

/** POST /ingest/sources/{id}/sync → 202 IngestJobAnswer; 409 sync_in_progress (details.job_id). */
export interface IngestSyncRequest {
  /** Default "manual"; "create" for the first sync right after the source was added. */
  trigger?: "manual" | "create";
}

/** 202 of sync, retry and reingest: the job that now runs. */
export interface IngestJobAnswer {
  job_id: string;
}

/** POST /ingest/jobs/{id}/cancel → 200. */
export interface IngestCancelAnswer {
  job_id: string;
  status: IngestionJobStatus;
  /** Present when the job was still queued or running and will stop at its next step. */
  cancel_requested?: true;
}

/** POST /ingest/notion/token: a pasted integration token, or a connection made with notion-connect. */
export type NotionTokenRequest =
  | { data_source_id: string; access_token: string }
  | { data_source_id: string; connection_id: string };

export interface NotionTokenAnswer {
  ok: true;
}

/** POST /ingest/tick (the scheduler, service role) → 200. */
export interface IngestTickAnswer {
  started: { data_source_id: string; job_id: string }[];
}
