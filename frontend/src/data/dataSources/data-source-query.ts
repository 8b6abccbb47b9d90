import { useQuery } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { dataSourceKeys } from "./keys";
import { DATA_SOURCE_COLUMNS, toDataSource, type DataSource } from "./types";

/** One data source, or null when it does not exist or RLS hides it. */
export async function fetchDataSource(id: string): Promise<DataSource | null> {
  const row = unwrap(await (await loadSupabase()).from("data_sources").select(DATA_SOURCE_COLUMNS).eq("id", id).maybeSingle());
  return row ? toDataSource(row) : null;
}

export function useDataSourceQuery(id: string) {
  return useQuery({ queryKey: dataSourceKeys.detail(id), queryFn: () => fetchDataSource(id) });
}
