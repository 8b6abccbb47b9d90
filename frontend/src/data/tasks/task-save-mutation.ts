import { useMutation, useQueryClient } from "@tanstack/react-query";
import { refused, toAppError, unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { taskKeys } from "./keys";
import type { TaskInput, TaskType } from "./types";

export type TaskSave = { botId: string; input: TaskInput } & ({ id: string } | { id?: undefined; type: TaskType });

/** Creates (with a type) or updates a task; answers its id. */
export async function saveTask(s: TaskSave): Promise<string> {
  const db = await loadSupabase();
  const row = s.input;
  if (s.id === undefined) return unwrap(await db.from("tasks").insert({ ...row, bot_id: s.botId, type: s.type }).select("id").single()).id;
  const { error, count } = await db.from("tasks").update(row, { count: "exact" }).eq("id", s.id);
  if (error) throw toAppError(error);
  if (count === 0) throw refused("This task no longer exists or you may not change it.");
  return s.id;
}

export function useSaveTaskMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: saveTask,
    onSuccess: (id, v) => {
      void qc.invalidateQueries({ queryKey: taskKeys.detail(id) });
      return qc.invalidateQueries({ queryKey: taskKeys.list(v.botId) });
    },
  });
}
