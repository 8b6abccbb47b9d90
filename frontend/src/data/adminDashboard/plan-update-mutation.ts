// A platform administrator changes a plan: admin_update_plan applies the changed columns only,
// the table's checks validate them, and the audit log keeps the row before and after.
import { useMutation, useQueryClient, type UseMutationOptions } from "@tanstack/react-query";
import type { Json } from "../../lib/database";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { adminDashboardKeys } from "./keys";
import type { PlanRow } from "./plans-query";

export interface PlanChange {
  planId: string;
  changes: Partial<Omit<PlanRow, "id" | "created_at" | "updated_at">>;
}

export async function updatePlan({ planId, changes }: PlanChange): Promise<PlanRow> {
  return unwrap(await (await loadSupabase()).rpc("admin_update_plan", { plan_id: planId, changes: changes as Json })) as PlanRow;
}

export function useUpdatePlanMutation(options: Omit<UseMutationOptions<PlanRow, Error, PlanChange>, "mutationFn"> = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: updatePlan,
    onSuccess: (...args) => {
      void qc.invalidateQueries({ queryKey: adminDashboardKeys.plans() });
      void qc.invalidateQueries({ queryKey: ["plans"] });
      return options.onSuccess?.(...args);
    },
  });
}
