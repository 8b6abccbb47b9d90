import { useQuery } from "@tanstack/react-query";
import { getSupabase } from "../../lib/supabase";
import { dataSourceKeys } from "./keys";
import { DATA_SOURCE_COLUMNS, toAppError, type DataSource } from "./types";

/** One data source, or null when it does not exist or RLS hides it. */
export async function fetchDataSource(id: string): Promise<DataSource | null> {
  const { data, error } = await getSupabase().from("data_sources").select(DATA_SOURCE_COLUMNS).eq("id", id).maybeSingle();
  if (error) throw toAppError(error);
  return (data as DataSource | null) ?? null;
}

export function useDataSourceQuery(id: string) {
  return useQuery({ queryKey: dataSourceKeys.detail(id), queryFn: () => fetchDataSource(id) });
}
