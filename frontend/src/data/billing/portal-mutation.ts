// Stripe's customer portal (payment methods, invoices): the browser goes to the returned page.
import { useMutation } from "@tanstack/react-query";
import type { PortalAnswer, PortalRequest } from "@shared/contracts/billing.ts";
import { callFunction } from "../../lib/functions";

export function openPortal(body: PortalRequest): Promise<PortalAnswer> {
  return callFunction<PortalAnswer>("billing/portal", body);
}

export function usePortalMutation() {
  return useMutation({ mutationFn: openPortal });
}
