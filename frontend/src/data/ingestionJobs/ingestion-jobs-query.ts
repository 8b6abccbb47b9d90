import { useQuery } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { ingestionJobKeys } from "./keys";
import { JOB_COLUMNS, toIngestionJob, type IngestionJob } from "./types";

export async function fetchJobsForSource(sourceId: string, limit = 50): Promise<IngestionJob[]> {
  const rows = unwrap(await (await loadSupabase()).from("ingestion_jobs").select(JOB_COLUMNS).eq("data_source_id", sourceId).order("created_at", { ascending: false }).limit(limit));
  return (rows ?? []).map(toIngestionJob);
}

/** Recent jobs of a bot's sources (the list shows the latest one per source). */
export async function fetchJobsForBot(botId: string, limit = 100): Promise<IngestionJob[]> {
  const rows = unwrap(await (await loadSupabase()).from("ingestion_jobs").select(JOB_COLUMNS).eq("bot_id", botId).order("created_at", { ascending: false }).limit(limit));
  return (rows ?? []).map(toIngestionJob);
}

export function useSourceJobsQuery(sourceId: string) {
  return useQuery({ queryKey: ingestionJobKeys.bySource(sourceId), queryFn: () => fetchJobsForSource(sourceId) });
}

export function useBotJobsQuery(botId: string) {
  return useQuery({ queryKey: ingestionJobKeys.byBot(botId), queryFn: () => fetchJobsForBot(botId) });
}
