import type { Enums, Tables } from "../../lib/database";

export type Task = Pick<Tables<"tasks">,
  "id" | "bot_id" | "name" | "type" | "cron" | "timezone" | "every_hours" | "settings" | "recipient_ids" | "webhook_endpoint_id" | "enabled" | "next_run_at" | "last_run_at" | "last_status" | "created_at">;
export const TASK_COLUMNS = "id, bot_id, name, type, cron, timezone, every_hours, settings, recipient_ids, webhook_endpoint_id, enabled, next_run_at, last_run_at, last_status, created_at";
export type TaskType = Enums<"task_type">;
export const TASK_TYPES: readonly TaskType[] = ["digest", "ask", "sync", "test"];

export type TaskRun = Pick<Tables<"task_runs">, "id" | "trigger" | "status" | "scheduled_for" | "started_at" | "finished_at" | "duration_ms" | "output" | "error">;
export const RUN_COLUMNS = "id, trigger, status, scheduled_for, started_at, finished_at, duration_ms, output, error";

/** What the task form edits (tasks' insertable columns). */
export interface TaskInput {
  name: string;
  cron: string | null;
  timezone: string;
  every_hours: number | null;
  settings: { prompt?: string; data_source_ids?: string[]; period_hours?: number; channel_id?: string; channel_recipient?: string };
  recipient_ids: string[];
  webhook_endpoint_id: string | null;
  enabled: boolean;
}
