// /app/billing/success — back from Stripe Checkout: waits for the webhook, then shows the new plan.
import { useLocale } from "../../../components/LocalizedLink";
import { Loading } from "../../../components/ui";
import { CheckoutSuccess } from "../../../features/billing/CheckoutReturn";
import { useBillingTeam } from "./teamParam";

export default function BillingSuccessPage() {
  const locale = useLocale();
  const { pending, team } = useBillingTeam();
  return pending || !team ? <Loading /> : <CheckoutSuccess teamId={team.id} locale={locale} />;
}
