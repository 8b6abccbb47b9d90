import { useQuery } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { billingKeys } from "./keys";
import type { UsageMeter } from "./types";

/** Every plan limit of the team with its use (team_plan_usage). */
export async function fetchUsage(teamId: string): Promise<UsageMeter[]> {
  return (unwrap(await (await loadSupabase()).rpc("team_plan_usage", { team_id: teamId })) ?? []) as UsageMeter[];
}

export function useUsageQuery(teamId: string) {
  return useQuery({ queryKey: billingKeys.usage(teamId), queryFn: () => fetchUsage(teamId), enabled: !!teamId });
}
