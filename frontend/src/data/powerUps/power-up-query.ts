import { useQuery } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { powerUpKeys } from "./keys";
import { POWER_UP_COLUMNS, type PowerUp } from "./types";

export async function fetchPowerUp(id: string): Promise<PowerUp> {
  return unwrap(await (await loadSupabase()).from("power_ups").select(POWER_UP_COLUMNS).eq("id", id).single());
}

export function usePowerUpQuery(id: string) {
  return useQuery({ queryKey: powerUpKeys.detail(id), queryFn: () => fetchPowerUp(id) });
}
