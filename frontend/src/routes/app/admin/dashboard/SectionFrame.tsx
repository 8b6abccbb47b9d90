// The frame of a dashboard section that has a period: AdminFrame with the period picker and a
// one-line introduction naming the period; the section's body gets the period.
import type { ReactNode } from "react";
import { useIntl } from "react-intl";
import type { AdminPeriod } from "../../../../data/adminDashboard/rpc";
import { AdminFrame } from "../../../../features/admin/AdminFrame";
import { PeriodPicker, useAdminPeriod } from "../../../../features/adminDashboard/period";
import "../../../../features/adminDashboard/adminDashboard.css";

export function SectionFrame({ section, children }: { section: string; children: (days: AdminPeriod) => ReactNode }) {
  const intl = useIntl();
  const [days, setDays] = useAdminPeriod();
  return (
    <AdminFrame title={intl.formatMessage({ id: `adminDashboard.${section}.title` })} actions={<PeriodPicker value={days} onChange={setDays} />}>
      <p className="form-note">{intl.formatMessage({ id: `adminDashboard.${section}.intro` }, { days })}</p>
      {children(days)}
    </AdminFrame>
  );
}
