import { useQuery } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { taskKeys } from "./keys";
import { TASK_COLUMNS, type Task } from "./types";

export async function fetchTask(id: string): Promise<Task> {
  return unwrap(await (await loadSupabase()).from("tasks").select(TASK_COLUMNS).eq("id", id).single());
}

export function useTaskQuery(id: string) {
  return useQuery({ queryKey: taskKeys.detail(id), queryFn: () => fetchTask(id) });
}
