import { useQuery } from "@tanstack/react-query";
import { getSupabase } from "../../lib/supabase";
import { toAppError } from "../dataSources/types";
import { ingestionJobKeys } from "./keys";
import { JOB_COLUMNS, type IngestionJob } from "./types";

export async function fetchJobsForSource(sourceId: string, limit = 50): Promise<IngestionJob[]> {
  const { data, error } = await getSupabase().from("ingestion_jobs").select(JOB_COLUMNS).eq("data_source_id", sourceId).order("created_at", { ascending: false }).limit(limit);
  if (error) throw toAppError(error);
  return (data ?? []) as IngestionJob[];
}

/** Recent jobs of a bot's sources (the list shows the latest one per source). */
export async function fetchJobsForBot(botId: string, limit = 100): Promise<IngestionJob[]> {
  const { data, error } = await getSupabase().from("ingestion_jobs").select(JOB_COLUMNS).eq("bot_id", botId).order("created_at", { ascending: false }).limit(limit);
  if (error) throw toAppError(error);
  return (data ?? []) as IngestionJob[];
}

export function useSourceJobsQuery(sourceId: string) {
  return useQuery({ queryKey: ingestionJobKeys.bySource(sourceId), queryFn: () => fetchJobsForSource(sourceId) });
}

export function useBotJobsQuery(botId: string) {
  return useQuery({ queryKey: ingestionJobKeys.byBot(botId), queryFn: () => fetchJobsForBot(botId) });
}
