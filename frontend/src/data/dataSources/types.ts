// Rows of public.data_sources as the app reads them (see the knowledge migration).
export type DataSourceType = "web" | "file" | "notion" | "youtube" | "text";
export type SyncSchedule = "never" | "daily" | "weekly" | "monthly";
export type DataSourceStatus = "idle" | "queued" | "running" | "ready" | "error" | "cancelled";

export const DATA_SOURCE_TYPES: readonly DataSourceType[] = ["web", "file", "notion", "youtube", "text"];
export const SYNC_SCHEDULES: readonly SyncSchedule[] = ["never", "daily", "weekly", "monthly"];

export interface DataSource {
  id: string;
  bot_id: string;
  type: DataSourceType;
  name: string;
  settings: Record<string, unknown>;
  sync_schedule: SyncSchedule;
  status: DataSourceStatus;
  last_synced_at: string | null;
  next_sync_at: string | null;
  error: string | null;
  document_count: number;
  chunk_count: number;
  created_at: string;
  updated_at: string;
}

export const DATA_SOURCE_COLUMNS =
  "id, bot_id, type, name, settings, sync_schedule, status, last_synced_at, next_sync_at, error, document_count, chunk_count, created_at, updated_at";

/** A PostgREST / Storage / function error as an Error with a code, for the UI to explain. */
export function toAppError(error: { message?: string; code?: string } | null | undefined, fallback = "request_failed"): Error & { code: string } {
  return Object.assign(new Error(error?.message || fallback), { code: error?.code || fallback });
}
