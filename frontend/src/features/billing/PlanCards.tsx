// The plans side by side, read from the plans table (prices and limits are never written into the
// app): the pricing page and the billing screen show the same cards; `action` adds a button.
import type { ReactNode } from "react";
import { FormattedMessage, FormattedNumber } from "react-intl";
import { PLAN_LIMITS } from "@shared/contracts/billing.ts";
import type { Plan, PlanPrices } from "../../data/billing/types";

export type Interval = "month" | "year";

/** A limit's or status's snake_case name as a message id segment (ids are camelCase). */
export const idPart = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

export function planName(plan: Pick<Plan, "name" | "id">, locale: string): string {
  const names = plan.name as Record<string, string>;
  return names[locale] ?? names.en ?? plan.id;
}

export function IntervalSwitch({ value, onChange }: { value: Interval; onChange: (v: Interval) => void }) {
  return (
    <div className="billing-interval" role="group" aria-label="interval">
      {(["month", "year"] as const).map((i) => (
        <button key={i} type="button" aria-pressed={value === i} onClick={() => onChange(i)}>
          <FormattedMessage id={`billing.interval.${i}`} />
        </button>
      ))}
    </div>
  );
}

function Price({ plan, interval, currency }: { plan: Plan; interval: Interval; currency: string }) {
  const amount = (plan.prices as PlanPrices)[currency]?.[interval];
  if (amount === undefined) return <p className="billing-price"><FormattedMessage id="billing.price.free" /></p>;
  return (
    <p className="billing-price">
      <FormattedNumber value={amount / 100} style="currency" currency={currency.toUpperCase()} />
      <span> <FormattedMessage id={`billing.price.per.${interval}`} /></span>
    </p>
  );
}

/** One line per limit: "20 bots", "Unlimited channels", "HTTP API included"... */
export function LimitLine({ name, value }: { name: string; value: number | boolean | null }) {
  if (name === "api_access" || name === "powered_by_removable") {
    return <FormattedMessage id={`billing.limit.${idPart(name)}.${value === false ? "no" : "yes"}`} />;
  }
  if (value === null) return <FormattedMessage id={`billing.limit.${idPart(name)}.unlimited`} />;
  return <FormattedMessage id={`billing.limit.${idPart(name)}`} values={{ count: Number(value) }} />;
}

export function PlanCards({ plans, interval, currency, locale, currentPlanId, action }: {
  plans: Plan[];
  interval: Interval;
  currency: string;
  locale: string;
  currentPlanId?: string;
  action?: (plan: Plan) => ReactNode;
}) {
  return (
    <ul className="billing-plans">
      {plans.map((plan) => (
        <li key={plan.id} className="billing-plan" data-plan={plan.id} aria-current={plan.id === currentPlanId ? "true" : undefined}>
          <h3>{planName(plan, locale)}</h3>
          {plan.id === currentPlanId && <p className="billing-badge"><FormattedMessage id="billing.plan.current" /></p>}
          <Price plan={plan} interval={interval} currency={currency} />
          <ul className="billing-limits">
            {PLAN_LIMITS.map((name) => (
              <li key={name}><LimitLine name={name} value={(plan as unknown as Record<string, number | boolean | null>)[name] ?? null} /></li>
            ))}
          </ul>
          {action?.(plan)}
        </li>
      ))}
    </ul>
  );
}
