// /app/admin/dashboard: platform figures per day over 7, 30 or 90 days, with headline numbers.
import { useAdminOverviewQuery } from "../../../../data/adminDashboard/overview-query";
import type { AdminPeriod } from "../../../../data/adminDashboard/rpc";
import { QueryState } from "../../../../features/adminDashboard/QueryState";
import { DashboardOverview } from "./DashboardOverview";
import { SectionFrame } from "./SectionFrame";

function Overview({ days }: { days: AdminPeriod }) {
  const overview = useAdminOverviewQuery(days);
  return <QueryState query={overview}>{(data) => <DashboardOverview data={data} />}</QueryState>;
}

export default function DashboardPage() {
  return <SectionFrame section="overview">{(days) => <Overview days={days} />}</SectionFrame>;
}
