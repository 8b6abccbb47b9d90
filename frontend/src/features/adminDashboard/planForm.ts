// The plan editor's form model: text fields per column, and the changes a submitted form makes
// (only the columns that differ, so admin_update_plan logs exactly what changed).
import type { PlanRow } from "../../data/adminDashboard/plans-query";
import { LOCALES } from "../../i18n/locales";

/** Limits the screen edits: a number, or empty for unlimited (null). */
export const LIMIT_COLUMNS = [
  "bots", "messages_per_month", "data_sources", "stored_characters", "members", "channels", "power_ups", "test_runs_per_month",
] as const;
/** Yes / no / not restricted (null). */
export const FLAG_COLUMNS = ["api_access", "powered_by_removable"] as const;
/** Required whole numbers. */
export const NUMBER_COLUMNS = ["sort_order", "chat_requests_per_minute"] as const;
/** Never edited: the key and the timestamps. */
const KEY_COLUMNS = ["id", "created_at", "updated_at", "name"] as const;
const EDITED = new Set<string>([...LIMIT_COLUMNS, ...FLAG_COLUMNS, ...NUMBER_COLUMNS, ...KEY_COLUMNS]);

export type PlanForm = Record<string, string>;

export function toForm(plan: PlanRow): PlanForm {
  const form: PlanForm = {};
  const names = (plan.name ?? {}) as Record<string, string>;
  for (const l of LOCALES) form[`name.${l.code}`] = names[l.code] ?? "";
  for (const c of [...NUMBER_COLUMNS, ...LIMIT_COLUMNS]) form[c] = plan[c] === null ? "" : String(plan[c]);
  for (const c of FLAG_COLUMNS) form[c] = plan[c] === null ? "" : String(plan[c]);
  return form;
}

/** Columns the table has that this screen does not edit (added later, e.g. prices): shown read-only. */
export function otherColumns(plan: PlanRow): Array<[string, unknown]> {
  return Object.entries(plan).filter(([k]) => !EDITED.has(k));
}

export type FormProblem = { field: string; id: string };

/** The changed columns, or the first problem of the form. */
export function changesOf(plan: PlanRow, form: PlanForm): { changes: Record<string, unknown>; problem: FormProblem | null } {
  const changes: Record<string, unknown> = {};
  const names: Record<string, string> = {};
  for (const l of LOCALES) {
    const v = (form[`name.${l.code}`] ?? "").trim();
    if (!v) return { changes, problem: { field: `name.${l.code}`, id: "adminDashboard.plans.nameRequired" } };
    names[l.code] = v;
  }
  const oldNames = (plan.name ?? {}) as Record<string, string>;
  if (LOCALES.some((l) => oldNames[l.code] !== names[l.code])) changes.name = { ...oldNames, ...names };
  for (const c of [...NUMBER_COLUMNS, ...LIMIT_COLUMNS]) {
    const raw = (form[c] ?? "").trim();
    const required = (NUMBER_COLUMNS as readonly string[]).includes(c);
    if (!raw && required) return { changes, problem: { field: c, id: "adminDashboard.plans.numberRequired" } };
    const value = raw ? Number(raw) : null;
    if (value !== null && (!Number.isInteger(value) || (c !== "sort_order" && value < 0))) return { changes, problem: { field: c, id: "adminDashboard.plans.wholeNumber" } };
    if (value !== plan[c]) changes[c] = value;
  }
  for (const c of FLAG_COLUMNS) {
    const value = form[c] === "" ? null : form[c] === "true";
    if (value !== plan[c]) changes[c] = value;
  }
  return { changes, problem: null };
}
