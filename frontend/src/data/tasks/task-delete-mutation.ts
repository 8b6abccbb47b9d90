import { useMutation, useQueryClient } from "@tanstack/react-query";
import { refused, toAppError } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { taskKeys } from "./keys";

export async function deleteTask({ id }: { id: string; botId: string }): Promise<void> {
  const { error, count } = await (await loadSupabase()).from("tasks").delete({ count: "exact" }).eq("id", id);
  if (error) throw toAppError(error);
  if (count === 0) throw refused("This task no longer exists or you may not delete it.");
}

export function useDeleteTaskMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteTask,
    onSuccess: (_r, v) => {
      qc.removeQueries({ queryKey: taskKeys.detail(v.id) });
      return qc.invalidateQueries({ queryKey: taskKeys.list(v.botId) });
    },
  });
}
