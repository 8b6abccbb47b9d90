import { useQuery } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { dataSourceKeys } from "./keys";
import { DATA_SOURCE_COLUMNS, toDataSource, type DataSource } from "./types";

export async function fetchDataSources(botId: string): Promise<DataSource[]> {
  const rows = unwrap(await (await loadSupabase()).from("data_sources").select(DATA_SOURCE_COLUMNS).eq("bot_id", botId).order("created_at", { ascending: false }));
  return (rows ?? []).map(toDataSource);
}

export function useDataSourcesQuery(botId: string) {
  return useQuery({ queryKey: dataSourceKeys.list(botId), queryFn: () => fetchDataSources(botId) });
}
