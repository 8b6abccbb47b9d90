// The period picker of the dashboard and its sections (7/30/90 days). The period lives in the
// address (?days=30) so a link or a reload keeps it and every section shares it.
import { FormattedMessage, useIntl } from "react-intl";
import { useSearchParams } from "react-router";
import { PeriodSwitch } from "../../components/ui";
import { ADMIN_PERIODS, type AdminPeriod } from "../../data/adminDashboard/rpc";

export function useAdminPeriod(): [AdminPeriod, (p: AdminPeriod) => void] {
  const [params, setParams] = useSearchParams();
  const asked = Number(params.get("days"));
  const days = (ADMIN_PERIODS as readonly number[]).includes(asked) ? (asked as AdminPeriod) : 30;
  const set = (p: AdminPeriod) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      next.set("days", String(p));
      return next;
    }, { replace: true });
  return [days, set];
}

export function PeriodPicker({ value, onChange }: { value: AdminPeriod; onChange: (p: AdminPeriod) => void }) {
  const intl = useIntl();
  return (
    <PeriodSwitch periods={ADMIN_PERIODS} value={value} onChange={onChange}
      label={intl.formatMessage({ id: "adminDashboard.period.label" })}
      option={(p) => <FormattedMessage id="adminDashboard.period.days" values={{ days: p }} />} />
  );
}

/** A column or type name as part of a message id ("active_teams" → "active-teams"). */
export const idPart = (name: string) => name.replace(/_/g, "-");
