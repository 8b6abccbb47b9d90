// Audit-log entries as a table: when, who, what, on what (linked to the user or bot page), the
// state before and after.
import type { ReactNode } from "react";
import { FormattedMessage } from "react-intl";
import { LocalizedLink } from "../../components/LocalizedLink";
import type { AuditEntry } from "../../data/admin/audit-log-query";
import { AdminTable, type AdminColumn } from "./AdminTable";
import { adminPaths, When } from "./format";

const state = (value: unknown) =>
  value === null || value === undefined ? "—" : <code className="admin-json">{JSON.stringify(value)}</code>;

/** The name of a target type in the reader's language ("user", "team", "bot", "plan"), else the type as stored. */
export const TARGET_TYPES = ["user", "team", "bot", "plan"] as const;
export function TargetType({ type }: { type: string }) {
  return (TARGET_TYPES as readonly string[]).includes(type) ? (
    <FormattedMessage id={`admin.col.${type}`} />
  ) : (
    <code>{type}</code>
  );
}

/** The actions the database logs (private.log_admin_action callers); others show their id only. */
export const AUDIT_ACTIONS = [
  "user.ban",
  "user.unban",
  "user.password_reset",
  "user.delete",
  "team.plan_change",
  "bot.unlist",
  "bot.delete",
  "plan.update",
  "feature.enable",
  "feature.disable",
] as const;

/** An action in the reader's language with its stored id beside it (what the audit search matches); message ids use dashes. */
function AuditAction({ action }: { action: string }) {
  if (!(AUDIT_ACTIONS as readonly string[]).includes(action)) return <code>{action}</code>;
  return (
    <>
      <FormattedMessage id={`admin.action.${action.replace(/_/g, "-")}`} />{" "}
      <code className="admin-action-id">{action}</code>
    </>
  );
}

function target(e: AuditEntry): ReactNode {
  if (!e.target_id) return <TargetType type={e.target_type} />;
  const label = (
    <>
      <TargetType type={e.target_type} /> {e.target_id}
    </>
  );
  if (e.target_type === "user") return <LocalizedLink to={adminPaths.user(e.target_id)}>{label}</LocalizedLink>;
  if (e.target_type === "bot") return <LocalizedLink to={adminPaths.bot(e.target_id)}>{label}</LocalizedLink>;
  if (e.target_type === "team")
    return <LocalizedLink to={adminPaths.list("bots", { team: e.target_id })}>{label}</LocalizedLink>;
  return label;
}

const COLUMNS: AdminColumn<AuditEntry>[] = [
  { key: "when", label: "admin.col.when", cell: (e) => <When value={e.created_at} /> },
  {
    key: "actor",
    label: "admin.col.actor",
    cell: (e) =>
      e.actor_id ? <LocalizedLink to={adminPaths.user(e.actor_id)}>{e.actor_email ?? e.actor_id}</LocalizedLink> : "—",
  },
  { key: "action", label: "admin.col.action", cell: (e) => <AuditAction action={e.action} /> },
  { key: "target", label: "admin.col.target", cell: target },
  { key: "before", label: "admin.col.before", cell: (e) => state(e.before) },
  { key: "after", label: "admin.col.after", cell: (e) => state(e.after) },
];

export function AuditLogTable(props: {
  caption: ReactNode;
  rows: AuditEntry[] | undefined;
  pending: boolean;
  error: unknown;
  busy?: boolean;
}) {
  return (
    <AdminTable
      caption={props.caption}
      columns={COLUMNS}
      rows={props.rows}
      pending={props.pending}
      error={props.error}
      busy={props.busy}
    />
  );
}
