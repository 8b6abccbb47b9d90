// The dashboard's figures over a period: one row per UTC day (admin_dashboard_daily), tokens
// per day and provider (admin_dashboard_tokens) and the headline totals (admin_dashboard_totals).
import { useQuery } from "@tanstack/react-query";
import type { RpcRow } from "../../lib/database";
import { adminDashboardKeys } from "./keys";
import { adminRows, type AdminPeriod } from "./rpc";

/** A day's figures; the latencies are null on a day without answers. */
export type AdminDay = Omit<RpcRow<"admin_dashboard_daily">, "latency_p50_ms" | "latency_p95_ms"> & {
  latency_p50_ms: number | null;
  latency_p95_ms: number | null;
};

export interface AdminOverview {
  days: AdminDay[];
  /** Tokens per day, one key per provider (missing = 0). */
  tokens: { day: string; byProvider: Record<string, number> }[];
  providers: string[];
  totals: RpcRow<"admin_dashboard_totals">;
  /** Sums of the period. */
  period: { signups: number; newBots: number; newChats: number; messages: number; answers: number; tokens: number; providerErrors: number; negativeFeedback: number; syncFailures: number };
}

export function tokensByDay(days: AdminDay[], rows: RpcRow<"admin_dashboard_tokens">[]): Pick<AdminOverview, "tokens" | "providers"> {
  const providers = [...new Set(rows.map((r) => r.provider))].sort();
  const index = new Map(days.map((d) => [d.day, {} as Record<string, number>]));
  for (const r of rows) {
    const slot = index.get(r.day);
    if (slot) slot[r.provider] = (slot[r.provider] ?? 0) + Number(r.tokens);
  }
  return { providers, tokens: days.map((d) => ({ day: d.day, byProvider: index.get(d.day) ?? {} })) };
}

export function periodSums(days: AdminDay[]): AdminOverview["period"] {
  const sum = (f: (d: AdminDay) => number) => days.reduce((t, d) => t + Number(f(d)), 0);
  return {
    signups: sum((d) => d.signups),
    newBots: sum((d) => d.new_bots),
    newChats: sum((d) => d.new_chats),
    messages: sum((d) => d.messages),
    answers: sum((d) => d.answers),
    tokens: sum((d) => d.prompt_tokens + d.completion_tokens),
    providerErrors: sum((d) => d.provider_errors),
    negativeFeedback: sum((d) => d.negative_feedback),
    syncFailures: sum((d) => d.sync_failures),
  };
}

export async function fetchAdminOverview(days: AdminPeriod): Promise<AdminOverview> {
  const [daily, tokens, totals] = await Promise.all([
    adminRows("admin_dashboard_daily", { days }),
    adminRows("admin_dashboard_tokens", { days }),
    adminRows("admin_dashboard_totals", { days }),
  ]);
  const rows = daily as AdminDay[];
  return { days: rows, ...tokensByDay(rows, tokens), totals: totals[0]!, period: periodSums(rows) };
}

export function useAdminOverviewQuery(days: AdminPeriod) {
  return useQuery({ queryKey: adminDashboardKeys.overview(days), queryFn: () => fetchAdminOverview(days) });
}
