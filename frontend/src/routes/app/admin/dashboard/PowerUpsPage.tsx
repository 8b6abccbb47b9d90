// /app/admin/dashboard/power-ups: power-ups per type, their calls in the period, and the
// platform-wide switch of each type.
import { useAdminPowerUpUsageQuery, type AdminPeriod } from "../../../../data/adminDashboard/section-queries";
import { FeatureUsage } from "../../../../features/adminDashboard/FeatureUsage";
import { QueryState } from "../../../../features/adminDashboard/QueryState";
import { SectionFrame } from "./SectionFrame";

function PowerUpUsage({ days }: { days: AdminPeriod }) {
  const usage = useAdminPowerUpUsageQuery(days);
  return (
    <QueryState query={usage}>
      {(rows) => <FeatureUsage kind="power_up" rows={rows.map((r) => ({ type: r.type, total: r.power_ups, enabled: r.enabled, activity: r.calls, errors: r.errors, disabled: r.disabled }))} />}
    </QueryState>
  );
}

export default function PowerUpsPage() {
  return <SectionFrame section="power-up">{(days) => <PowerUpUsage days={days} />}</SectionFrame>;
}
