import { useQuery } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { taskKeys } from "./keys";
import { TASK_COLUMNS, type Task } from "./types";

export async function fetchTasks(botId: string): Promise<Task[]> {
  return unwrap(await (await loadSupabase()).from("tasks").select(TASK_COLUMNS).eq("bot_id", botId).order("created_at")) ?? [];
}

export function useTasksQuery(botId: string) {
  return useQuery({ queryKey: taskKeys.list(botId), queryFn: () => fetchTasks(botId) });
}
