import { useMutation, useQueryClient } from "@tanstack/react-query";
import { AppError, toAppError } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { documentKeys } from "../documents/keys";
import { ingestionJobKeys } from "../ingestionJobs/keys";
import { dataSourceKeys } from "./keys";

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
