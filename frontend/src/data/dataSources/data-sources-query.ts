import { useQuery } from "@tanstack/react-query";
import { getSupabase } from "../../lib/supabase";
import { dataSourceKeys } from "./keys";
import { DATA_SOURCE_COLUMNS, toAppError, type DataSource } from "./types";

export async function fetchDataSources(botId: string): Promise<DataSource[]> {
  const { data, error } = await getSupabase().from("data_sources").select(DATA_SOURCE_COLUMNS).eq("bot_id", botId).order("created_at", { ascending: false });
  if (error) throw toAppError(error);
  return (data ?? []) as DataSource[];
}

export function useDataSourcesQuery(botId: string) {
  return useQuery({ queryKey: dataSourceKeys.list(botId), queryFn: () => fetchDataSources(botId) });
}
