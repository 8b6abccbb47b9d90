// /app/billing/success: Stripe sent the browser back; the plan changes when Stripe's webhook has
// confirmed the payment, so this waits for the team's subscription to show it, then says so.
import { FormattedMessage } from "react-intl";
import { LocalizedLink } from "../../components/LocalizedLink";
import { Spinner } from "../../components/ui";
import { usePlansQuery } from "../../data/billing/plans-query";
import { useSubscriptionQuery } from "../../data/billing/subscription-query";
import { planName } from "./PlanCards";
import "./billing.css";

export function CheckoutSuccess({ teamId, locale }: { teamId: string; locale: string }) {
  const plans = usePlansQuery();
  const sub = useSubscriptionQuery(teamId, (q) => {
    const s = q.state.data;
    return s && s.plan_id !== "free" && s.stripe_subscription_id ? false : 1500;
  });
  const s = sub.data;
  const confirmed = !!s && s.plan_id !== "free" && !!s.stripe_subscription_id;
  const plan = plans.data?.find((p) => p.id === s?.plan_id);
  return (
    <div className="billing-page">
      <h1><FormattedMessage id="billing.success.title" /></h1>
      {confirmed ? (
        <p data-testid="success-plan">
          <FormattedMessage id="billing.success.confirmed" values={{ plan: <strong key="plan">{plan ? planName(plan, locale) : s.plan_id}</strong> }} />
        </p>
      ) : (
        <p role="status"><Spinner /> <FormattedMessage id="billing.success.waiting" /></p>
      )}
      <p><LocalizedLink to={`/app/billing?team=${teamId}`}><FormattedMessage id="billing.back" /></LocalizedLink></p>
    </div>
  );
}

export function CheckoutCancelled({ teamId }: { teamId: string }) {
  return (
    <div className="billing-page">
      <h1><FormattedMessage id="billing.cancel.title" /></h1>
      <p><FormattedMessage id="billing.cancel.text" /></p>
      <p><LocalizedLink to={teamId ? `/app/billing?team=${teamId}` : "/app/billing"}><FormattedMessage id="billing.back" /></LocalizedLink></p>
    </div>
  );
}
