// Every plan with all its columns, in pricing order (anyone may read plans).
import { useQuery } from "@tanstack/react-query";
import type { Tables } from "../../lib/database";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { adminDashboardKeys } from "./keys";

export type PlanRow = Tables<"plans">;

export async function fetchPlans(): Promise<PlanRow[]> {
  return unwrap(await (await loadSupabase()).from("plans").select("*").order("sort_order").order("id")) ?? [];
}

export function usePlansQuery() {
  return useQuery({ queryKey: adminDashboardKeys.plans(), queryFn: fetchPlans });
}
