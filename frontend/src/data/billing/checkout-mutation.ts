// Stripe Checkout for a team on free: the browser goes to the returned page.
import { useMutation } from "@tanstack/react-query";
import type { CheckoutAnswer, CheckoutRequest } from "@shared/contracts/billing.ts";
import { callFunction } from "../../lib/functions";

export function startCheckout(body: CheckoutRequest): Promise<CheckoutAnswer> {
  return callFunction<CheckoutAnswer>("billing/checkout", body);
}

export function useCheckoutMutation() {
  return useMutation({ mutationFn: startCheckout });
}
