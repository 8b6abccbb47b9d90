import { useMutation, useQueryClient } from "@tanstack/react-query";
import { refused, unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { powerUpKeys } from "./keys";

export async function deletePowerUp({ id }: { id: string; botId: string }): Promise<void> {
  const rows = unwrap(await (await loadSupabase()).from("power_ups").delete().eq("id", id).select("id"));
  if (!rows?.length) throw refused("This power-up could not be deleted.");
}

export function usePowerUpDeleteMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deletePowerUp,
    onSuccess: (_r, v) => void qc.invalidateQueries({ queryKey: powerUpKeys.list(v.botId) }),
  });
}
