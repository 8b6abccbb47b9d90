import { useMutation, useQueryClient } from "@tanstack/react-query";
import { reingestDocument } from "../dataSources/ingest";
import { ingestionJobKeys } from "../ingestionJobs/keys";

export function useReingestDocumentMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id }: { id: string; sourceId: string }) => reingestDocument(id),
    onSettled: (_r, _e, v) => qc.invalidateQueries({ queryKey: ingestionJobKeys.bySource(v.sourceId) }),
  });
}
