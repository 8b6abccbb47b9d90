import { useQuery } from "@tanstack/react-query";
import type { BillingConfigAnswer } from "@shared/contracts/billing.ts";
import { callFunction } from "../../lib/functions";
import { billingKeys } from "./keys";

/** May this server take payments (Stripe keys set)? Without them billing shows plans and usage only. */
export function fetchBillingConfig(): Promise<BillingConfigAnswer> {
  return callFunction<BillingConfigAnswer>("billing/config", undefined, { method: "GET" });
}

export function useBillingConfigQuery() {
  return useQuery({ queryKey: billingKeys.config(), queryFn: fetchBillingConfig, staleTime: 5 * 60_000 });
}
