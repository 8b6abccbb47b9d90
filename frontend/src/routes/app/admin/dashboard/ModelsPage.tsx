// /app/admin/dashboard/models: the models each provider offers in the bot settings, the model
// the engine uses when a bot names none (admin-platform), and which models bots use and answer with.
import { FormattedNumber, useIntl } from "react-intl";
import { MODEL_PROVIDERS, MODEL_SUGGESTIONS } from "../../../../data/bots/types";
import { usePlatformProvidersQuery } from "../../../../data/adminDashboard/platform-providers-query";
import { useAdminModelUsageQuery, type AdminPeriod } from "../../../../data/adminDashboard/section-queries";
import { DataTable } from "../../../../features/adminDashboard/DataTable";
import { QueryState } from "../../../../features/adminDashboard/QueryState";
import { providerName } from "../../../../features/adminDashboard/providers";
import { SectionFrame } from "./SectionFrame";

function Models({ days }: { days: AdminPeriod }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const platform = usePlatformProvidersQuery();
  const usage = useAdminModelUsageQuery(days);
  const defaults = new Map((platform.data?.providers ?? []).map((p) => [p.provider as string, p.default_model]));
  return (
    <>
      <DataTable caption={t("adminDashboard.models.offeredCaption")} rows={[...MODEL_PROVIDERS]} rowKey={(p) => p} columns={[
        { key: "provider", header: t("adminDashboard.providers.provider"), cell: (p) => providerName(intl, p) },
        { key: "models", header: t("adminDashboard.models.offered"), cell: (p) => MODEL_SUGGESTIONS[p].length ? MODEL_SUGGESTIONS[p].join(", ") : "—" },
        { key: "default", header: t("adminDashboard.providers.defaultModel"), cell: (p) => (p === "extractive" ? "—" : defaults.get(p) ?? (platform.isPending ? "…" : "—")) },
      ]} />
      <QueryState query={usage} isEmpty={(rows) => rows.length === 0}>
        {(rows) => (
          <DataTable caption={t("adminDashboard.models.usageCaption")} rows={rows} rowKey={(r) => `${r.provider}/${r.model}`} columns={[
            { key: "provider", header: t("adminDashboard.providers.provider"), cell: (r) => providerName(intl, r.provider) },
            { key: "model", header: t("adminDashboard.models.model"), cell: (r) => (r.model ? <code>{r.model}</code> : t("adminDashboard.models.default")) },
            { key: "bots", header: t("adminDashboard.models.bots"), numeric: true, cell: (r) => <FormattedNumber value={r.bots} /> },
            { key: "answers", header: t("adminDashboard.figure.answers"), numeric: true, cell: (r) => <FormattedNumber value={r.answers} /> },
          ]} />
        )}
      </QueryState>
    </>
  );
}

export default function ModelsPage() {
  return <SectionFrame section="models">{(days) => <Models days={days} />}</SectionFrame>;
}
