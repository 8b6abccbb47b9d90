// Usage per channel or power-up type, with the platform-wide switch of each type. Turning a type
// off asks first: creating or enabling one of its kind is then refused for every team.
import { useState } from "react";
import { FormattedMessage, FormattedNumber, useIntl } from "react-intl";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { ErrorNote } from "../../components/ErrorNote";
import { Button } from "../../components/ui";
import { useSetFeatureEnabledMutation, type FeatureKind } from "../../data/adminDashboard/feature-enabled-mutation";
import { DataTable, type Column } from "./DataTable";
import { idPart } from "./period";

export interface FeatureRow {
  type: string;
  total: number;
  enabled: number;
  /** Messages (channels) or calls (power-ups) in the period. */
  activity: number;
  errors?: number;
  disabled: boolean;
}

/** Types that cannot be switched off (every bot has its web channel). */
const FIXED: Record<FeatureKind, readonly string[]> = { channel: ["web"], power_up: [] };

export function FeatureUsage({ kind, rows }: { kind: FeatureKind; rows: FeatureRow[] }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const toggle = useSetFeatureEnabledMutation();
  const [asking, setAsking] = useState<FeatureRow | null>(null);
  const typeName = (type: string) => t(`adminDashboard.${idPart(kind)}.type.${type}`);
  const columns: Column<FeatureRow>[] = [
    { key: "type", header: t("adminDashboard.feature.type"), cell: (r) => typeName(r.type) },
    { key: "total", header: t(`adminDashboard.${idPart(kind)}.total`), numeric: true, cell: (r) => <FormattedNumber value={r.total} /> },
    { key: "enabled", header: t("adminDashboard.feature.enabled"), numeric: true, cell: (r) => <FormattedNumber value={r.enabled} /> },
    { key: "activity", header: t(`adminDashboard.${idPart(kind)}.activity`), numeric: true, cell: (r) => <FormattedNumber value={r.activity} /> },
    ...(kind === "power_up" ? [{ key: "errors", header: t("adminDashboard.power-up.errors"), numeric: true, cell: (r: FeatureRow) => <FormattedNumber value={r.errors ?? 0} /> }] : []),
    {
      key: "status", header: t("adminDashboard.feature.status"),
      cell: (r) => (r.disabled ? <span className="admin-badge-off"><FormattedMessage id="adminDashboard.feature.off" /></span> : <FormattedMessage id="adminDashboard.feature.on" />),
    },
    {
      key: "switch", header: <span className="sr-only"><FormattedMessage id="adminDashboard.feature.switch" /></span>,
      cell: (r) => FIXED[kind].includes(r.type) ? <FormattedMessage id="adminDashboard.feature.alwaysOn" /> : r.disabled ? (
        <Button size="sm" theme="white" loading={toggle.isPending && toggle.variables?.type === r.type}
          onClick={() => toggle.mutate({ kind, type: r.type, enabled: true })}>
          <FormattedMessage id="adminDashboard.feature.turnOn" values={{ type: typeName(r.type) }} />
        </Button>
      ) : (
        <Button size="sm" theme="delete" onClick={() => setAsking(r)}>
          <FormattedMessage id="adminDashboard.feature.turnOff" values={{ type: typeName(r.type) }} />
        </Button>
      ),
    },
  ];
  return (
    <>
      <DataTable caption={t(`adminDashboard.${idPart(kind)}.caption`)} rows={rows} rowKey={(r) => r.type} columns={columns} />
      {toggle.isError && <ErrorNote error={toggle.error} />}
      <ConfirmDialog
        open={asking !== null}
        title={t("adminDashboard.feature.confirmTitle", { type: asking ? typeName(asking.type) : "" })}
        body={t("adminDashboard.feature.confirmText", { type: asking ? typeName(asking.type) : "" })}
        confirmLabel={t("adminDashboard.feature.confirm")}
        onConfirm={() => { if (asking) toggle.mutate({ kind, type: asking.type, enabled: false }); setAsking(null); }}
        onClose={() => setAsking(null)}
      />
    </>
  );
}
