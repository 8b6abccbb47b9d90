import { useMutation, useQueryClient } from "@tanstack/react-query";
import { AppError, toAppError } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { dataSourceKeys } from "../dataSources/keys";
import { documentKeys } from "./keys";

/** Deletes one document; its chunks go with it (on delete cascade). */
export async function deleteDocument({ id }: { id: string; sourceId: string }): Promise<void> {
  const { error, count } = await (await loadSupabase()).from("documents").delete({ count: "exact" }).eq("id", id);
  if (error) throw toAppError(error);
  if (count === 0) throw new AppError({ status: 404, code: "not_found", message: "This document no longer exists or you may not delete it." });
}

export function useDeleteDocumentMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteDocument,
    onSuccess: (_r, v) => {
      qc.removeQueries({ queryKey: documentKeys.detail(v.id) });
      void qc.invalidateQueries({ queryKey: dataSourceKeys.detail(v.sourceId) });
      return qc.invalidateQueries({ queryKey: documentKeys.bySource(v.sourceId) });
    },
  });
}
