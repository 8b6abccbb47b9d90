import { useMutation, useQueryClient } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { toJsonObject } from "../../lib/json";
import { loadSupabase } from "../../lib/supabase-ready";
import { powerUpKeys } from "./keys";
import { POWER_UP_COLUMNS, type PowerUp, type PowerUpType } from "./types";

export interface PowerUpInput {
  botId: string;
  /** Absent: create. */
  id?: string;
  type?: PowerUpType;
  name?: string;
  label?: string;
  description?: string;
  enabled?: boolean;
  example_phrases?: string[];
  settings?: Record<string, unknown>;
}

export async function savePowerUp({ botId, id, settings, ...fields }: PowerUpInput): Promise<PowerUp> {
  const supabase = await loadSupabase();
  const row = { ...fields, ...(settings ? { settings: toJsonObject(settings) } : {}) };
  if (id) return unwrap(await supabase.from("power_ups").update(row).eq("id", id).select(POWER_UP_COLUMNS).single());
  return unwrap(await supabase.from("power_ups").insert({ bot_id: botId, type: fields.type ?? "http", name: fields.name ?? "action", ...row }).select(POWER_UP_COLUMNS).single());
}

export function usePowerUpSaveMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: savePowerUp,
    onSuccess: (row, v) => {
      qc.setQueryData(powerUpKeys.detail(row.id), row);
      void qc.invalidateQueries({ queryKey: powerUpKeys.list(v.botId) });
    },
  });
}
