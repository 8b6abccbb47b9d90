// Rows of public.data_sources as the app reads them (see the knowledge migration).
import type { Enums, Tables } from "../../lib/database";
import { ENUM_VALUES } from "../../lib/database";
import { jsonObject, type JsonObject } from "../../lib/json";

export type DataSourceType = Enums<"data_source_type">;
export type SyncSchedule = Enums<"sync_schedule">;
export type DataSourceStatus = Enums<"data_source_status">;

export const DATA_SOURCE_TYPES: readonly DataSourceType[] = ENUM_VALUES.data_source_type;
export const SYNC_SCHEDULES: readonly SyncSchedule[] = ENUM_VALUES.sync_schedule;

/** data_sources.settings (jsonb): what each type reads (see features/knowledge/form.ts). */
export type SourceSettings = JsonObject;

export type DataSource = Omit<
  Pick<Tables<"data_sources">, "id" | "bot_id" | "type" | "name" | "settings" | "sync_schedule" | "status" | "last_synced_at" | "next_sync_at" | "error" | "document_count" | "chunk_count" | "created_at" | "updated_at">,
  "settings"
> & { settings: SourceSettings };

export const DATA_SOURCE_COLUMNS =
  "id, bot_id, type, name, settings, sync_schedule, status, last_synced_at, next_sync_at, error, document_count, chunk_count, created_at, updated_at";

export function toDataSource(row: Omit<DataSource, "settings"> & { settings: Tables<"data_sources">["settings"] }): DataSource {
  return { ...row, settings: jsonObject(row.settings) };
}
