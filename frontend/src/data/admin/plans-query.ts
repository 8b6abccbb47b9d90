// The plans a team can be moved to (anyone reads plans), in their display order.
import { useQuery } from "@tanstack/react-query";
import type { Tables } from "../../lib/database";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { adminKeys } from "./keys";

export type PlanChoice = Pick<Tables<"plans">, "id" | "name" | "sort_order">;

export async function fetchPlanChoices(): Promise<PlanChoice[]> {
  return unwrap(await (await loadSupabase()).from("plans").select("id, name, sort_order").order("sort_order")) ?? [];
}

export function usePlanChoicesQuery() {
  return useQuery({ queryKey: adminKeys.plans(), queryFn: fetchPlanChoices, staleTime: 60_000 });
}
