// Cancel at the period's end, or take that back (resume).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CancelRequest } from "@shared/contracts/billing.ts";
import { callFunction } from "../../lib/functions";
import { billingKeys } from "./keys";

export function cancelSubscription(body: CancelRequest): Promise<unknown> {
  return callFunction("billing/cancel", body);
}

export function useCancelMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: cancelSubscription,
    onSettled: (_r, _e, v) => qc.invalidateQueries({ queryKey: billingKeys.team(v.team_id) }),
  });
}
