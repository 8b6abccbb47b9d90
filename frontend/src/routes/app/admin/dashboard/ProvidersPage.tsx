// /app/admin/dashboard/providers: which providers the platform has keys for (the admin-platform
// function, booleans only) and how each provider answered in the period.
import { FormattedMessage, FormattedNumber, useIntl } from "react-intl";
import { usePlatformProvidersQuery } from "../../../../data/adminDashboard/platform-providers-query";
import { useAdminProviderStatsQuery, type AdminPeriod } from "../../../../data/adminDashboard/section-queries";
import { DataTable } from "../../../../features/adminDashboard/DataTable";
import { QueryState } from "../../../../features/adminDashboard/QueryState";
import { providerName } from "../../../../features/adminDashboard/providers";
import { SectionFrame } from "./SectionFrame";

function Providers({ days }: { days: AdminPeriod }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const keys = usePlatformProvidersQuery();
  const stats = useAdminProviderStatsQuery(days);
  const yesNo = (v: boolean) => <FormattedMessage id={v ? "adminDashboard.yes" : "adminDashboard.no"} />;
  const ms = (v: number | null) => (v === null ? "—" : intl.formatMessage({ id: "adminDashboard.ms" }, { ms: v }));
  const pct = (part: number, whole: number) => (whole ? intl.formatNumber(part / whole, { style: "percent", maximumFractionDigits: 1 }) : "—");
  return (
    <>
      <QueryState query={keys}>
        {(data) => (
          <DataTable caption={t("adminDashboard.providers.keysCaption")} rows={data.providers} rowKey={(r) => r.provider} columns={[
            { key: "provider", header: t("adminDashboard.providers.provider"), cell: (r) => providerName(intl, r.provider) },
            { key: "key", header: t("adminDashboard.providers.platformKey"), cell: (r) => yesNo(r.platform_key) },
            { key: "url", header: t("adminDashboard.providers.baseUrl"), cell: (r) => yesNo(r.base_url) },
            { key: "model", header: t("adminDashboard.providers.defaultModel"), cell: (r) => <code>{r.default_model}</code> },
          ]} />
        )}
      </QueryState>
      <QueryState query={stats} isEmpty={(rows) => rows.length === 0}>
        {(rows) => (
          <DataTable caption={t("adminDashboard.providers.statsCaption")} rows={rows} rowKey={(r) => r.provider} columns={[
            { key: "provider", header: t("adminDashboard.providers.provider"), cell: (r) => providerName(intl, r.provider) },
            { key: "answers", header: t("adminDashboard.figure.answers"), numeric: true, cell: (r) => <FormattedNumber value={r.answers} /> },
            { key: "errors", header: t("adminDashboard.figure.provider-errors"), numeric: true, cell: (r) => <FormattedNumber value={r.errors} /> },
            { key: "rate", header: t("adminDashboard.providers.errorRate"), numeric: true, cell: (r) => pct(r.errors, r.answers) },
            { key: "p50", header: t("adminDashboard.figure.latency-p50-ms"), numeric: true, cell: (r) => ms(r.latency_p50_ms) },
            { key: "p95", header: t("adminDashboard.figure.latency-p95-ms"), numeric: true, cell: (r) => ms(r.latency_p95_ms) },
            { key: "first", header: t("adminDashboard.providers.firstToken"), numeric: true, cell: (r) => ms(r.first_token_p50_ms) },
            { key: "tokens", header: t("adminDashboard.figure.tokens"), numeric: true, cell: (r) => <FormattedNumber value={r.tokens} /> },
            { key: "bots", header: t("adminDashboard.providers.bots"), numeric: true, cell: (r) => <FormattedNumber value={r.bots} /> },
          ]} />
        )}
      </QueryState>
    </>
  );
}

export default function ProvidersPage() {
  return <SectionFrame section="providers">{(days) => <Providers days={days} />}</SectionFrame>;
}
