// When a task is next due. Cron expressions (5 fields) are read in the task's IANA time zone by
// cron-parser; "every N hours" is computed by Postgres (public.claim_due_tasks) and only
// mirrored here for tasks saved without a next run.
import { CronExpressionParser } from "npm:cron-parser@5.4.0";

export interface Schedule {
  cron: string | null;
  timezone: string;
  every_hours: number | null;
}

/** The first slot strictly after `after`, or null when the expression is not valid. */
export function nextRunAfter(s: Schedule, after: Date): Date | null {
  if (s.every_hours) return new Date(after.getTime() + s.every_hours * 3600_000);
  if (!s.cron) return null;
  try {
    return CronExpressionParser.parse(s.cron, { currentDate: after, tz: s.timezone, strict: false }).next().toDate();
  } catch {
    return null;
  }
}

/** Whether a cron expression is valid (the task form checks before saving). */
export function cronProblem(cron: string, timezone: string): string | null {
  if (cron.trim().split(/\s+/).length !== 5) return "Use five fields: minute hour day-of-month month day-of-week";
  try {
    CronExpressionParser.parse(cron, { tz: timezone, strict: false });
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}
