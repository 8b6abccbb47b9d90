// A paid team moves to another paid plan or interval (prorated by Stripe).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { PlanChangeRequest } from "@shared/contracts/billing.ts";
import { callFunction } from "../../lib/functions";
import { billingKeys } from "./keys";

export function changePlan(body: PlanChangeRequest): Promise<unknown> {
  return callFunction("billing/change", body);
}

export function usePlanChangeMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: changePlan,
    onSettled: (_r, _e, v) => qc.invalidateQueries({ queryKey: billingKeys.team(v.team_id) }),
  });
}
