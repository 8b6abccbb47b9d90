// Per-day conversations, messages and ratings of one bot over the last `days` days, with totals
// and the average answer latency. Read under RLS, so only the bot's team sees them.
import { useQuery } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { bucketByDay, dayRange, type DayPoint } from "./aggregate";
import { statsKeys } from "./keys";

export const STAT_PERIODS = [7, 30, 90] as const;
export type StatPeriod = (typeof STAT_PERIODS)[number];

export interface BotStats {
  points: DayPoint[];
  totals: { conversations: number; messages: number; up: number; down: number };
  avgLatencyMs: number | null;
}

// Enough for the charts of a busy bot; a larger one would want a server-side aggregate.
const MAX_ROWS = 10_000;

export async function fetchBotStats(botId: string, days: number, now = new Date()): Promise<BotStats> {
  const db = await loadSupabase();
  const since = `${dayRange(days, now)[0]}T00:00:00Z`;
  const [chats, messages, feedback] = await Promise.all([
    db.from("chats").select("created_at").eq("bot_id", botId).gte("created_at", since).limit(MAX_ROWS),
    db.from("messages").select("created_at, role, latency_ms").eq("bot_id", botId).gte("created_at", since).limit(MAX_ROWS),
    db.from("message_feedback").select("created_at, rating").eq("bot_id", botId).gte("created_at", since).limit(MAX_ROWS),
  ]);
  const msgs = unwrap(messages) ?? [];
  const points = bucketByDay(days, now, { conversations: unwrap(chats) ?? [], messages: msgs, feedback: unwrap(feedback) ?? [] });
  const totals = points.reduce(
    (t, p) => ({ conversations: t.conversations + p.conversations, messages: t.messages + p.messages, up: t.up + p.up, down: t.down + p.down }),
    { conversations: 0, messages: 0, up: 0, down: 0 },
  );
  const latencies = msgs.flatMap((m) => (m.role === "assistant" && typeof m.latency_ms === "number" ? [m.latency_ms] : []));
  const avgLatencyMs = latencies.length ? Math.round(latencies.reduce((a, b) => a + b, 0) / latencies.length) : null;
  return { points, totals, avgLatencyMs };
}

export function useBotStatsQuery(botId: string, days: StatPeriod) {
  return useQuery({ queryKey: statsKeys.bot(botId, days), queryFn: () => fetchBotStats(botId, days) });
}
