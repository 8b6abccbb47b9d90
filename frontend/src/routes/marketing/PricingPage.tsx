// /pricing — the plans with their prices and limits, read from the plans table (nothing hard-coded).
import { useState } from "react";
import { FormattedMessage } from "react-intl";
import { ErrorNote } from "../../components/ErrorNote";
import { LocalizedLink, useLocale } from "../../components/LocalizedLink";
import { buttonClassName, Loading } from "../../components/ui";
import { usePlansQuery } from "../../data/billing/plans-query";
import { IntervalSwitch, type Interval, PlanCards } from "../../features/billing/PlanCards";
import "../../features/billing/billing.css";

export default function PricingPage() {
  const locale = useLocale();
  const plans = usePlansQuery();
  const [interval, setInterval] = useState<Interval>("month");
  return (
    <div className="billing-page">
      <h1><FormattedMessage id="pricing.title" /></h1>
      <p className="billing-muted"><FormattedMessage id="pricing.lead" /></p>
      <IntervalSwitch value={interval} onChange={setInterval} />
      {plans.isPending ? <Loading /> : plans.isError ? <ErrorNote error={plans.error} /> : (
        <PlanCards
          plans={plans.data}
          interval={interval}
          currency="usd"
          locale={locale}
          action={(plan) => (
            <LocalizedLink className={buttonClassName({})} to={plan.id === "free" ? "/app/auth/register" : "/app/billing"}>
              <FormattedMessage id={plan.id === "free" ? "pricing.start" : "pricing.choose"} />
            </LocalizedLink>
          )}
        />
      )}
    </div>
  );
}
