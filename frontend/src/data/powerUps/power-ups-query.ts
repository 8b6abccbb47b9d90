import { useQuery } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { powerUpKeys } from "./keys";
import { POWER_UP_COLUMNS, type PowerUp } from "./types";

export async function fetchPowerUps(botId: string): Promise<PowerUp[]> {
  return unwrap(await (await loadSupabase()).from("power_ups").select(POWER_UP_COLUMNS).eq("bot_id", botId).order("created_at")) ?? [];
}

export function usePowerUpsQuery(botId: string) {
  return useQuery({ queryKey: powerUpKeys.list(botId), queryFn: () => fetchPowerUps(botId) });
}
