import { useMutation, useQueryClient } from "@tanstack/react-query";
import { AppError, toAppError, unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { documentKeys } from "../documents/keys";
import { ingestionJobKeys } from "../ingestionJobs/keys";
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

/** Deleting the row cascades to its documents, chunks, jobs and secrets (foreign keys). */
export async function deleteDataSource({ id }: { id: string; botId: string }): Promise<void> {
  const { error, count } = await (await loadSupabase()).from("data_sources").delete({ count: "exact" }).eq("id", id);
  if (error) throw toAppError(error);
  if (count === 0) throw new AppError({ status: 404, code: "not_found", message: "This data source no longer exists or you may not delete it." });
}

export function useDeleteDataSourceMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteDataSource,
    onSuccess: (_r, v) => {
      qc.removeQueries({ queryKey: dataSourceKeys.detail(v.id) });
      qc.removeQueries({ queryKey: documentKeys.bySource(v.id) });
      qc.removeQueries({ queryKey: ingestionJobKeys.bySource(v.id) });
      return qc.invalidateQueries({ queryKey: dataSourceKeys.list(v.botId) });
    },
  });
}

export function useSyncDataSourceMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id }: { id: string; botId: string }) => startSync(id, "manual"),
    onSettled: (_r, _e, v) => {
      void qc.invalidateQueries({ queryKey: ingestionJobKeys.bySource(v.id) });
      void qc.invalidateQueries({ queryKey: dataSourceKeys.detail(v.id) });
      return qc.invalidateQueries({ queryKey: dataSourceKeys.list(v.botId) });
    },
  });
}
