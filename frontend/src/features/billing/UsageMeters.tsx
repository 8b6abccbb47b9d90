// Every limit of the team's plan with what the team uses of it.
import { FormattedMessage, FormattedNumber } from "react-intl";
import type { UsageMeter } from "../../data/billing/types";
import { idPart } from "./PlanCards";

export function UsageMeters({ meters }: { meters: UsageMeter[] }) {
  return (
    <ul className="billing-meters">
      {meters.map((m) => {
        const flag = m.limit_name === "api_access" || m.limit_name === "powered_by_removable";
        const full = !m.unlimited && m.limit_value !== null && m.used >= m.limit_value;
        return (
          <li key={m.limit_name} data-limit={m.limit_name} data-full={full ? "true" : undefined}>
            <span className="billing-meter-name"><FormattedMessage id={`billing.meter.${idPart(m.limit_name)}`} /></span>
            {flag ? (
              <span><FormattedMessage id={m.unlimited ? "billing.meter.included" : "billing.meter.notIncluded"} /></span>
            ) : (
              <>
                <span className="billing-meter-value">
                  <FormattedNumber value={m.used} /> / {m.unlimited ? <FormattedMessage id="billing.meter.unlimited" /> : <FormattedNumber value={m.limit_value ?? 0} />}
                </span>
                {!m.unlimited && m.limit_value ? (
                  <meter min={0} max={m.limit_value} value={Math.min(m.used, m.limit_value)} high={m.limit_value * 0.8} optimum={0} />
                ) : null}
              </>
            )}
          </li>
        );
      })}
    </ul>
  );
}
