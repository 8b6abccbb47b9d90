import { useMutation, useQueryClient } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { storeNotionToken } from "./ingest";
import { dataSourceKeys } from "./keys";
import { DATA_SOURCE_COLUMNS, toDataSource, type DataSource, type SourceSettings, type SyncSchedule } from "./types";

export interface DataSourcePatch {
  id: string;
  botId: string;
  name?: string;
  settings?: SourceSettings;
  sync_schedule?: SyncSchedule;
  /** Notion only: a new pasted token (stored through the ingest function). */
  notionToken?: string;
}

export async function updateDataSource({ id, botId: _botId, notionToken, ...patch }: DataSourcePatch): Promise<DataSource> {
  const row = unwrap(await (await loadSupabase()).from("data_sources").update(patch).eq("id", id).select(DATA_SOURCE_COLUMNS).single());
  if (notionToken) await storeNotionToken(id, { accessToken: notionToken });
  return toDataSource(row);
}

export function useUpdateDataSourceMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateDataSource,
    onSuccess: (row, v) => {
      qc.setQueryData(dataSourceKeys.detail(v.id), row);
      void qc.invalidateQueries({ queryKey: dataSourceKeys.list(v.botId) });
    },
  });
}
