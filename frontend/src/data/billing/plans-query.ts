import { useQuery } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { billingKeys } from "./keys";
import type { Plan } from "./types";

/** Every plan, in pricing order (anyone may read them, signed out too). */
export async function fetchPlans(): Promise<Plan[]> {
  return unwrap(await (await loadSupabase()).from("plans").select("*").order("sort_order")) ?? [];
}

export function usePlansQuery() {
  return useQuery({ queryKey: billingKeys.plans(), queryFn: fetchPlans });
}
