// The billing screen's body for one team: the current plan and its renewal, the usage meters,
// the plans to move to (checkout, prorated change, cancel at the period's end, resume), the
// Stripe portal and the invoices. Without Stripe keys on the server it shows plans and usage and
// says payments are not configured.
import { useState } from "react";
import { FormattedDate, FormattedMessage } from "react-intl";
import { ErrorNote } from "../../components/ErrorNote";
import { Button, Loading } from "../../components/ui";
import { useBillingConfigQuery } from "../../data/billing/billing-config-query";
import { useCancelMutation } from "../../data/billing/cancel-mutation";
import { useCheckoutMutation } from "../../data/billing/checkout-mutation";
import { useInvoicesQuery } from "../../data/billing/invoices-query";
import { usePlanChangeMutation } from "../../data/billing/plan-change-mutation";
import { usePlansQuery } from "../../data/billing/plans-query";
import { usePortalMutation } from "../../data/billing/portal-mutation";
import { useSubscriptionQuery } from "../../data/billing/subscription-query";
import type { Plan, Subscription } from "../../data/billing/types";
import { useUsageQuery } from "../../data/billing/usage-query";
import { Invoices } from "./Invoices";
import { IntervalSwitch, type Interval, PlanCards, planName } from "./PlanCards";
import { UsageMeters } from "./UsageMeters";
import "./billing.css";

const isLive = (s: Subscription | null | undefined) =>
  !!s?.stripe_subscription_id && s.plan_id !== "free" && s.status !== "canceled" && s.status !== "incomplete_expired";

export function BillingOverview({ teamId, locale }: { teamId: string; locale: string }) {
  const config = useBillingConfigQuery();
  const plans = usePlansQuery();
  const subscription = useSubscriptionQuery(teamId);
  const usage = useUsageQuery(teamId);
  const invoices = useInvoicesQuery(teamId);
  const checkout = useCheckoutMutation();
  const change = usePlanChangeMutation();
  const cancel = useCancelMutation();
  const portal = usePortalMutation();
  const [interval, setInterval] = useState<Interval>("month");

  if (plans.isPending || subscription.isPending) return <Loading />;
  if (plans.isError) return <ErrorNote error={plans.error} />;
  if (subscription.isError) return <ErrorNote error={subscription.error} />;
  const sub = subscription.data;
  if (!sub) return <p className="billing-note"><FormattedMessage id="billing.ownersOnly" /></p>;
  const current = plans.data.find((p) => p.id === sub.plan_id);
  const configured = config.data?.configured === true;
  const live = isLive(sub);
  const currency = sub.currency ?? "usd";
  const busy = checkout.isPending || change.isPending || cancel.isPending || portal.isPending;
  const go = (url: string) => window.location.assign(url);

  const action = (plan: Plan) => {
    if (!configured || plan.id === sub.plan_id) return null;
    if (plan.id === "free") {
      return live && !sub.cancel_at_period_end ? (
        <Button theme="secondary" disabled={busy} onClick={() => cancel.mutate({ team_id: teamId })}>
          <FormattedMessage id="billing.action.downgrade" />
        </Button>
      ) : null;
    }
    if (live) {
      return (
        <Button disabled={busy} onClick={() => change.mutate({ team_id: teamId, plan_id: plan.id, interval, currency, locale })}>
          <FormattedMessage id="billing.action.switch" values={{ plan: planName(plan, locale) }} />
        </Button>
      );
    }
    return (
      <Button disabled={busy} onClick={() => checkout.mutate({ team_id: teamId, plan_id: plan.id, interval, currency, locale }, { onSuccess: (r) => go(r.url) })}>
        <FormattedMessage id="billing.action.upgrade" values={{ plan: planName(plan, locale) }} />
      </Button>
    );
  };

  return (
    <div className="billing-page">
      <section aria-labelledby="billing-current">
        <h2 id="billing-current"><FormattedMessage id="billing.current.title" /></h2>
        <p data-testid="current-plan">
          <FormattedMessage id="billing.current.plan" values={{ plan: <strong key="plan">{current ? planName(current, locale) : sub.plan_id}</strong> }} />
        </p>
        {live && sub.current_period_end && (
          <p data-testid="renewal">
            <FormattedMessage
              id={sub.cancel_at_period_end ? "billing.current.endsOn" : "billing.current.renewsOn"}
              values={{ date: <FormattedDate key="date" value={sub.current_period_end} dateStyle="long" /> }}
            />
          </p>
        )}
        {(sub.status === "past_due" || sub.status === "unpaid") && sub.grace_until && (
          <p className="billing-note" role="alert">
            <FormattedMessage id="billing.current.pastDue" values={{ date: <FormattedDate key="date" value={sub.grace_until} dateStyle="long" /> }} />
          </p>
        )}
        {!configured && config.isSuccess && (
          <p className="billing-note" data-testid="payments-not-configured"><FormattedMessage id="billing.notConfigured" /></p>
        )}
        {configured && (
          <div className="billing-actions">
            {live && sub.cancel_at_period_end && (
              <Button disabled={busy} onClick={() => cancel.mutate({ team_id: teamId, resume: true })}>
                <FormattedMessage id="billing.action.resume" />
              </Button>
            )}
            {sub.stripe_customer_id && (
              <Button theme="secondary" disabled={busy} onClick={() => portal.mutate({ team_id: teamId, locale }, { onSuccess: (r) => go(r.url) })}>
                <FormattedMessage id="billing.action.portal" />
              </Button>
            )}
          </div>
        )}
        <ErrorNote error={checkout.error ?? change.error ?? cancel.error ?? portal.error} />
      </section>

      <section aria-labelledby="billing-usage">
        <h2 id="billing-usage"><FormattedMessage id="billing.usage.title" /></h2>
        {usage.isPending ? <Loading /> : usage.isError ? <ErrorNote error={usage.error} /> : <UsageMeters meters={usage.data} />}
      </section>

      <section aria-labelledby="billing-plans">
        <h2 id="billing-plans"><FormattedMessage id="billing.plans.title" /></h2>
        <IntervalSwitch value={interval} onChange={setInterval} />
        <PlanCards plans={plans.data} interval={interval} currency={currency} locale={locale} currentPlanId={sub.plan_id} action={action} />
      </section>

      <section aria-labelledby="billing-invoices">
        <h2 id="billing-invoices"><FormattedMessage id="billing.invoices.title" /></h2>
        {invoices.isPending ? <Loading /> : invoices.isError ? <ErrorNote error={invoices.error} /> : <Invoices invoices={invoices.data} />}
      </section>
    </div>
  );
}
