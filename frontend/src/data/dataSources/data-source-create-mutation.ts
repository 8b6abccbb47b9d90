import { useMutation, useQueryClient } from "@tanstack/react-query";
import { AppError, unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { startSync, storeNotionToken } from "./ingest";
import { dataSourceKeys } from "./keys";
import { DATA_SOURCE_COLUMNS, toDataSource, type DataSource, type DataSourceType, type SourceSettings, type SyncSchedule } from "./types";

export interface NewDataSource {
  botId: string;
  type: DataSourceType;
  name: string;
  settings: SourceSettings;
  syncSchedule: SyncSchedule;
  /** Notion only: a pasted token, stored through the ingest function, never in the row. */
  notionToken?: string;
  /** Notion only: a connection made through Notion's OAuth; its token moves to the source server-side. */
  notionConnectionId?: string;
}

/** Inserts the row (RLS decides), hands it a Notion token or connection if any, then starts the first sync. */
export async function createDataSource(input: NewDataSource): Promise<{ source: DataSource; syncError?: AppError }> {
  const supabase = await loadSupabase();
  const { data: auth } = await supabase.auth.getSession();
  const row = unwrap(
    await supabase
      .from("data_sources")
      .insert({ bot_id: input.botId, type: input.type, name: input.name.trim(), settings: input.settings, sync_schedule: input.syncSchedule, created_by: auth.session?.user.id })
      .select(DATA_SOURCE_COLUMNS)
      .single(),
  );
  const source = toDataSource(row);
  try {
    if (input.type === "notion" && input.notionConnectionId) await storeNotionToken(source.id, { connectionId: input.notionConnectionId });
    else if (input.type === "notion" && input.notionToken) await storeNotionToken(source.id, { accessToken: input.notionToken });
    await startSync(source.id, "create");
    return { source };
  } catch (e) {
    // The source exists either way; its page shows the failure and offers "sync now".
    if (e instanceof AppError) return { source, syncError: e };
    throw e;
  }
}

export function useCreateDataSourceMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createDataSource,
    onSuccess: (_r, v) => qc.invalidateQueries({ queryKey: dataSourceKeys.list(v.botId) }),
  });
}
