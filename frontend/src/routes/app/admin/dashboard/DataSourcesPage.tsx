// /app/admin/dashboard/data-sources: sync jobs by status, how long the oldest queued job has
// waited, and the latest failures with their error text.
import { FormattedMessage, FormattedNumber, FormattedRelativeTime, useIntl } from "react-intl";
import { useAdminIngestionQuery, type AdminPeriod } from "../../../../data/adminDashboard/section-queries";
import { DataTable } from "../../../../features/adminDashboard/DataTable";
import { QueryState } from "../../../../features/adminDashboard/QueryState";
import { SectionFrame } from "./SectionFrame";

function Ingestion({ days }: { days: AdminPeriod }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const ingestion = useAdminIngestionQuery(days);
  const when = (iso: string) => intl.formatDate(iso, { dateStyle: "medium", timeStyle: "short" });
  return (
    <QueryState query={ingestion}>
      {({ statuses, failures }) => {
        const queued = statuses.find((s) => s.status === "queued");
        return (
          <>
            <p role="note">
              {queued?.oldest_created_at ? (
                <FormattedMessage id="adminDashboard.sync.oldestQueued" values={{
                  age: <FormattedRelativeTime value={Math.round((Date.parse(queued.oldest_created_at) - Date.now()) / 60_000)} unit="minute" updateIntervalInSeconds={60} />,
                }} />
              ) : <FormattedMessage id="adminDashboard.sync.queueEmpty" />}
            </p>
            <DataTable caption={t("adminDashboard.sync.statusCaption", { days })} rows={statuses} rowKey={(r) => r.status} columns={[
              { key: "status", header: t("adminDashboard.sync.status"), cell: (r) => t(`adminDashboard.sync.status.${r.status}`) },
              { key: "jobs", header: t("adminDashboard.sync.jobs"), numeric: true, cell: (r) => <FormattedNumber value={r.jobs} /> },
              { key: "period", header: t("adminDashboard.sync.inPeriod"), numeric: true, cell: (r) => <FormattedNumber value={r.in_period} /> },
              { key: "oldest", header: t("adminDashboard.sync.oldest"), cell: (r) => (r.oldest_created_at ? when(r.oldest_created_at) : "—") },
            ]} />
            {failures.length === 0 ? <p><FormattedMessage id="adminDashboard.sync.noFailures" /></p> : (
              <DataTable caption={t("adminDashboard.sync.failuresCaption")} rows={failures} rowKey={(r) => r.job_id} columns={[
                { key: "source", header: t("adminDashboard.sync.source"), cell: (r) => `${r.data_source_name} (${r.data_source_type})` },
                { key: "bot", header: t("adminDashboard.sync.bot"), cell: (r) => `${r.bot_name} · ${r.team_name}` },
                { key: "when", header: t("adminDashboard.sync.failedAt"), cell: (r) => when(r.failed_at) },
                { key: "error", header: t("adminDashboard.sync.error"), cell: (r) => <span className="admin-error-text">{r.error || "—"}</span> },
              ]} />
            )}
          </>
        );
      }}
    </QueryState>
  );
}

export default function DataSourcesPage() {
  return <SectionFrame section="sync">{(days) => <Ingestion days={days} />}</SectionFrame>;
}
