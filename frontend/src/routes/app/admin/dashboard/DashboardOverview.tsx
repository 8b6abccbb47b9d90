// Used by DashboardPage only; a route-level piece because it joins two features (charts, adminDashboard).
// The dashboard's figures: headline numbers of the period and one chart per figure, each chart
// a titled figure with its numbers in a table for screen readers (BarChart) and, for everyone,
// the whole period as a table under a disclosure.
import { FormattedMessage, FormattedNumber, useIntl } from "react-intl";
import type { AdminOverview } from "../../../../data/adminDashboard/overview-query";
import { BarChart, type ChartPoint, type ChartSeries } from "../../../../features/charts/BarChart";
import { DataTable } from "../../../../features/adminDashboard/DataTable";
import { idPart } from "../../../../features/adminDashboard/period";

const PALETTE = ["var(--primary)", "#0ea5e9", "#16a34a", "#f59e0b", "#9333ea", "#db2777", "#64748b"];

export function DashboardOverview({ data }: { data: AdminOverview }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const label = (day: string) => intl.formatDate(`${day}T00:00:00Z`, { month: "short", day: "numeric", timeZone: "UTC" });
  const points = (values: (d: AdminOverview["days"][number]) => Record<string, number>): ChartPoint[] =>
    data.days.map((d) => ({ label: label(d.day), values: values(d) }));
  const one = (key: string, color = PALETTE[0]!): ChartSeries[] => [{ key, name: t(`adminDashboard.figure.${idPart(key)}`), color }];
  const dayHeader = t("adminDashboard.figure.day");
  const headline: Array<[string, number]> = [
    ["adminDashboard.total.users", data.totals.users],
    ["adminDashboard.total.teams", data.totals.teams],
    ["adminDashboard.total.activeTeams", data.totals.active_teams],
    ["adminDashboard.total.bots", data.totals.bots],
    ["adminDashboard.total.chats", data.totals.chats],
    ["adminDashboard.total.messages", Number(data.totals.messages)],
    ["adminDashboard.total.signups", data.period.signups],
    ["adminDashboard.total.tokens", data.period.tokens],
  ];
  const tokenSeries: ChartSeries[] = data.providers.map((p, i) => ({ key: p, name: p, color: PALETTE[i % PALETTE.length]! }));
  const ms = (v: number | null) => (v === null ? "—" : intl.formatMessage({ id: "adminDashboard.ms" }, { ms: v }));

  return (
    <>
      <dl className="admin-headline" aria-label={t("adminDashboard.headline")}>
        {headline.map(([id, value]) => (
          <div key={id}>
            <dt><FormattedMessage id={id} /></dt>
            <dd><FormattedNumber value={value} /></dd>
          </div>
        ))}
      </dl>
      <div className="admin-charts">
        <BarChart title={t("adminDashboard.figure.signups")} labelHeader={dayHeader} points={points((d) => ({ signups: d.signups }))} series={one("signups")} />
        <BarChart title={t("adminDashboard.figure.active-teams")} labelHeader={dayHeader} points={points((d) => ({ active_teams: d.active_teams }))} series={one("active_teams", PALETTE[1])} />
        <BarChart title={t("adminDashboard.chart.created")} labelHeader={dayHeader} points={points((d) => ({ new_bots: d.new_bots, new_chats: d.new_chats }))}
          series={[...one("new_bots", PALETTE[2]), ...one("new_chats", PALETTE[3])]} />
        <BarChart title={t("adminDashboard.chart.messages")} labelHeader={dayHeader} points={points((d) => ({ messages: d.messages, answers: d.answers }))}
          series={[...one("messages", PALETTE[1]), ...one("answers", PALETTE[4])]} />
        <BarChart title={t("adminDashboard.chart.tokens")} labelHeader={dayHeader}
          points={data.tokens.map((d) => ({ label: label(d.day), values: d.byProvider }))} series={tokenSeries.length ? tokenSeries : one("tokens")} />
        <BarChart title={t("adminDashboard.chart.latency")} labelHeader={dayHeader} points={points((d) => ({ latency_p50_ms: d.latency_p50_ms ?? 0, latency_p95_ms: d.latency_p95_ms ?? 0 }))}
          series={[...one("latency_p50_ms", PALETTE[0]), ...one("latency_p95_ms", PALETTE[5])]} />
        <BarChart title={t("adminDashboard.chart.problems")} labelHeader={dayHeader}
          points={points((d) => ({ provider_errors: d.provider_errors, negative_feedback: d.negative_feedback, sync_failures: d.sync_failures }))}
          series={[...one("provider_errors", "var(--danger)"), ...one("negative_feedback", PALETTE[3]), ...one("sync_failures", PALETTE[6])]} />
      </div>
      <details className="admin-details">
        <summary><FormattedMessage id="adminDashboard.table.show" /></summary>
        <DataTable
          caption={<FormattedMessage id="adminDashboard.table.caption" />}
          rows={data.days}
          rowKey={(d) => d.day}
          columns={[
            { key: "day", header: dayHeader, cell: (d) => label(d.day) },
            ...(["signups", "active_teams", "new_bots", "new_chats", "messages", "answers"] as const).map((k) => ({
              key: k, header: t(`adminDashboard.figure.${idPart(k)}`), numeric: true, cell: (d: AdminOverview["days"][number]) => <FormattedNumber value={d[k]} />,
            })),
            { key: "tokens", header: t("adminDashboard.figure.tokens"), numeric: true, cell: (d) => <FormattedNumber value={Number(d.prompt_tokens) + Number(d.completion_tokens)} /> },
            { key: "p50", header: t("adminDashboard.figure.latency-p50-ms"), numeric: true, cell: (d) => ms(d.latency_p50_ms) },
            { key: "p95", header: t("adminDashboard.figure.latency-p95-ms"), numeric: true, cell: (d) => ms(d.latency_p95_ms) },
            ...(["provider_errors", "negative_feedback", "sync_failures"] as const).map((k) => ({
              key: k, header: t(`adminDashboard.figure.${idPart(k)}`), numeric: true, cell: (d: AdminOverview["days"][number]) => <FormattedNumber value={d[k]} />,
            })),
          ]}
        />
      </details>
    </>
  );
}
