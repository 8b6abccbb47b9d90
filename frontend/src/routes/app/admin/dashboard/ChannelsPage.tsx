// /app/admin/dashboard/channels: channels per type, their messages in the period, and the
// platform-wide switch of each type.
import { useAdminChannelUsageQuery, type AdminPeriod } from "../../../../data/adminDashboard/section-queries";
import { FeatureUsage } from "../../../../features/adminDashboard/FeatureUsage";
import { QueryState } from "../../../../features/adminDashboard/QueryState";
import { SectionFrame } from "./SectionFrame";

function ChannelUsage({ days }: { days: AdminPeriod }) {
  const usage = useAdminChannelUsageQuery(days);
  return (
    <QueryState query={usage}>
      {(rows) => <FeatureUsage kind="channel" rows={rows.map((r) => ({ type: r.type, total: r.channels, enabled: r.enabled, activity: r.messages, disabled: r.disabled }))} />}
    </QueryState>
  );
}

export default function ChannelsPage() {
  return <SectionFrame section="channel">{(days) => <ChannelUsage days={days} />}</SectionFrame>;
}
