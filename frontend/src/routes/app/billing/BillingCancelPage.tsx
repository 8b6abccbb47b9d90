// /app/billing/cancel — the owner left Stripe Checkout without paying.
import { CheckoutCancelled } from "../../../features/billing/CheckoutReturn";
import { useBillingTeam } from "./teamParam";

export default function BillingCancelPage() {
  const { team } = useBillingTeam();
  return <CheckoutCancelled teamId={team?.id ?? ""} />;
}
