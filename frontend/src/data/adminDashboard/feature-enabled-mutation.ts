// A platform administrator turns a channel or power-up type off (or back on) platform-wide.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { adminDashboardKeys } from "./keys";

export type FeatureKind = "channel" | "power_up";

export interface FeatureSwitch {
  kind: FeatureKind;
  type: string;
  enabled: boolean;
}

export async function setFeatureEnabled({ kind, type, enabled }: FeatureSwitch): Promise<boolean> {
  return unwrap(await (await loadSupabase()).rpc("admin_set_feature_enabled", { kind, type, enabled }));
}

export function useSetFeatureEnabledMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: setFeatureEnabled,
    onSuccess: (_r, v) => {
      void qc.invalidateQueries({ queryKey: v.kind === "channel" ? [...adminDashboardKeys.all, "channels"] : [...adminDashboardKeys.all, "power-ups"] });
      void qc.invalidateQueries({ queryKey: adminDashboardKeys.features() });
    },
  });
}
