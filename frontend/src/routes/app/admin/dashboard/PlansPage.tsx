// /app/admin/dashboard/plans: every plan's names, order, limits and flags, editable.
import { useIntl } from "react-intl";
import { usePlansQuery } from "../../../../data/adminDashboard/plans-query";
import { AdminFrame } from "../../../../features/admin/AdminFrame";
import { PlanEditor } from "../../../../features/adminDashboard/PlanEditor";
import { QueryState } from "../../../../features/adminDashboard/QueryState";
import "../../../../features/adminDashboard/adminDashboard.css";

export default function PlansPage() {
  const intl = useIntl();
  const plans = usePlansQuery();
  return (
    <AdminFrame title={intl.formatMessage({ id: "adminDashboard.plans.title" })}>
      <p className="form-note">{intl.formatMessage({ id: "adminDashboard.plans.intro" })}</p>
      <QueryState query={plans} isEmpty={(rows) => rows.length === 0}>
        {(rows) => rows.map((p) => <PlanEditor key={p.id} plan={p} />)}
      </QueryState>
    </AdminFrame>
  );
}
