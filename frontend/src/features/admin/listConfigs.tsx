// What each admin list shows: its columns (with the sort value of the sortable ones), its
// filters (URL parameter → RPC argument), its CSV columns and the links to the other lists
// (user → teams → bots → chats).
import type { ReactNode } from "react";
import { FormattedMessage, type IntlShape } from "react-intl";
import { LocalizedLink } from "../../components/LocalizedLink";
import type { SelectOption } from "../../components/ui";
import type { AdminListName, AdminRow } from "../../data/admin/lists";
import type { CsvColumn } from "../../data/admin/export";
import { isBanned } from "../../data/admin/types";
import { ENUM_VALUES } from "../../lib/database";
import type { AdminColumn } from "./AdminTable";
import { adminPaths, PlanName, SignInMethods, UserLink, When, YesNo } from "./format";

export interface FilterDef {
  /** The URL query parameter. */
  param: string;
  /** The RPC argument it becomes. */
  arg: string;
  label: string;
  /** A select (with its options) or an id set by a link, shown as a removable chip. */
  kind: "select" | "id" | "boolean";
  options?: (intl: IntlShape, extra: { plans: SelectOption[] }) => SelectOption[];
}

export interface ListConfig<N extends AdminListName> {
  name: N;
  title: string;
  searchable: boolean;
  columns: AdminColumn<AdminRow<N>>[];
  filters: FilterDef[];
  csv: CsvColumn<N>[];
}

const enumOptions = (intl: IntlShape, values: readonly string[], prefix: string): SelectOption[] => [
  { value: "", label: intl.formatMessage({ id: "admin.filter.any" }) },
  ...values.map((v) => ({ value: v, label: intl.formatMessage({ id: `${prefix}.${v}` }) })),
];
const booleanOptions = (intl: IntlShape): SelectOption[] => [
  { value: "", label: intl.formatMessage({ id: "admin.filter.any" }) },
  { value: "true", label: intl.formatMessage({ id: "admin.common.yes" }) },
  { value: "false", label: intl.formatMessage({ id: "admin.common.no" }) },
];
const link = (to: string, children: ReactNode) => <LocalizedLink to={to}>{children}</LocalizedLink>;

const users: ListConfig<"users"> = {
  name: "users",
  title: "admin.nav.users",
  searchable: true,
  filters: [
    {
      param: "kind",
      arg: "kind_filter",
      label: "admin.users.kind",
      kind: "select",
      options: (intl) =>
        ["all", "registered", "anonymous", "banned"].map((v) => ({
          value: v === "all" ? "" : v,
          label: intl.formatMessage({ id: `admin.users.kind.${v}` }),
        })),
    },
  ],
  columns: [
    { key: "email", label: "admin.col.email", cell: (r) => <UserLink id={r.id} email={r.email} /> },
    { key: "name", label: "admin.col.name", cell: (r) => r.display_name ?? "—" },
    { key: "providers", label: "admin.col.signIn", cell: (r) => <SignInMethods providers={r.providers} /> },
    { key: "created", label: "admin.col.created", sort: "created_at", cell: (r) => <When value={r.created_at} /> },
    { key: "lastSignIn", label: "admin.col.lastSignIn", cell: (r) => <When value={r.last_sign_in_at} /> },
    {
      key: "status",
      label: "admin.col.status",
      cell: (r) =>
        isBanned(r) ? (
          <span className="admin-badge admin-badge--danger">
            <FormattedMessage id="admin.users.banned" />
          </span>
        ) : r.is_anonymous ? (
          <span className="admin-badge">
            <FormattedMessage id="admin.users.guest" />
          </span>
        ) : (
          <FormattedMessage id="admin.users.active" />
        ),
    },
    {
      key: "teams",
      label: "admin.col.teams",
      cell: (r) => {
        const teams = (r.teams as { id: string; name: string }[] | null) ?? [];
        return teams.length
          ? link(
              adminPaths.list("teams", { member: r.id }),
              <FormattedMessage
                id="admin.users.teamCount"
                values={{ count: teams.length, names: teams.map((t) => t.name).join(", ") }}
              />,
            )
          : "—";
      },
    },
    {
      key: "chats",
      label: "admin.col.chats",
      cell: (r) => link(adminPaths.list("chats", { user: r.id }), <FormattedMessage id="admin.link.chats" />),
    },
  ],
  csv: [
    { header: "id", value: (r) => r.id },
    { header: "email", value: (r) => r.email },
    { header: "display_name", value: (r) => r.display_name },
    { header: "sign_in_methods", value: (r) => r.providers },
    { header: "created_at", value: (r) => r.created_at },
    { header: "last_sign_in_at", value: (r) => r.last_sign_in_at },
    { header: "banned_until", value: (r) => r.banned_until },
    { header: "anonymous", value: (r) => r.is_anonymous },
    { header: "teams", value: (r) => ((r.teams as { name: string }[] | null) ?? []).map((t) => t.name).join("; ") },
  ],
};

const teams: ListConfig<"teams"> = {
  name: "teams",
  title: "admin.nav.teams",
  searchable: true,
  filters: [
    {
      param: "plan",
      arg: "plan_filter",
      label: "admin.col.plan",
      kind: "select",
      options: (intl, { plans }) => [{ value: "", label: intl.formatMessage({ id: "admin.filter.any" }) }, ...plans],
    },
    {
      param: "personal",
      arg: "personal_filter",
      label: "admin.col.personal",
      kind: "boolean",
      options: booleanOptions,
    },
    { param: "member", arg: "member_filter", label: "admin.filter.member", kind: "id" },
  ],
  columns: [
    {
      key: "name",
      label: "admin.col.name",
      sort: "name",
      cell: (r) => (
        <>
          {r.name} <small>({r.slug})</small>
        </>
      ),
    },
    { key: "plan", label: "admin.col.plan", cell: (r) => <PlanName id={r.plan_id} /> },
    { key: "personal", label: "admin.col.personal", cell: (r) => <YesNo value={r.personal} /> },
    {
      key: "members",
      label: "admin.col.members",
      cell: (r) => link(adminPaths.list("team-members", { team: r.id }), r.member_count),
    },
    { key: "bots", label: "admin.col.bots", cell: (r) => link(adminPaths.list("bots", { team: r.id }), r.bot_count) },
    { key: "created", label: "admin.col.created", sort: "created_at", cell: (r) => <When value={r.created_at} /> },
  ],
  csv: [
    { header: "id", value: (r) => r.id },
    { header: "name", value: (r) => r.name },
    { header: "slug", value: (r) => r.slug },
    { header: "plan_id", value: (r) => r.plan_id },
    { header: "personal", value: (r) => r.personal },
    { header: "members", value: (r) => r.member_count },
    { header: "bots", value: (r) => r.bot_count },
    { header: "created_at", value: (r) => r.created_at },
  ],
};

const teamMembers: ListConfig<"team-members"> = {
  name: "team-members",
  title: "admin.nav.teamMembers",
  searchable: false,
  filters: [
    {
      param: "role",
      arg: "role_filter",
      label: "admin.col.role",
      kind: "select",
      options: (intl) => enumOptions(intl, ENUM_VALUES.team_role, "admin.role"),
    },
    { param: "team", arg: "team_filter", label: "admin.filter.team", kind: "id" },
    { param: "user", arg: "user_filter", label: "admin.filter.user", kind: "id" },
  ],
  columns: [
    {
      key: "team",
      label: "admin.col.team",
      cell: (r) => link(adminPaths.list("bots", { team: r.team_id }), r.team_name),
    },
    { key: "user", label: "admin.col.user", cell: (r) => <UserLink id={r.user_id} email={r.email} /> },
    { key: "name", label: "admin.col.name", cell: (r) => r.display_name ?? "—" },
    { key: "role", label: "admin.col.role", cell: (r) => <FormattedMessage id={`admin.role.${r.role}`} /> },
    { key: "created", label: "admin.col.joined", sort: "created_at", cell: (r) => <When value={r.created_at} /> },
  ],
  csv: [
    { header: "team_id", value: (r) => r.team_id },
    { header: "team", value: (r) => r.team_name },
    { header: "user_id", value: (r) => r.user_id },
    { header: "email", value: (r) => r.email },
    { header: "role", value: (r) => r.role },
    { header: "created_at", value: (r) => r.created_at },
  ],
};

const bots: ListConfig<"bots"> = {
  name: "bots",
  title: "admin.nav.bots",
  searchable: true,
  filters: [
    {
      param: "visibility",
      arg: "visibility_filter",
      label: "admin.col.visibility",
      kind: "select",
      options: (intl) => enumOptions(intl, ENUM_VALUES.bot_visibility, "admin.visibility"),
    },
    { param: "listed", arg: "listed_filter", label: "admin.col.listed", kind: "boolean", options: booleanOptions },
    { param: "team", arg: "team_filter", label: "admin.filter.team", kind: "id" },
  ],
  columns: [
    {
      key: "name",
      label: "admin.col.name",
      sort: "name",
      cell: (r) => <LocalizedLink to={adminPaths.bot(r.id)}>{r.name}</LocalizedLink>,
    },
    {
      key: "team",
      label: "admin.col.team",
      cell: (r) => link(adminPaths.list("bots", { team: r.team_id }), r.team_name),
    },
    {
      key: "visibility",
      label: "admin.col.visibility",
      cell: (r) => <FormattedMessage id={`admin.visibility.${r.visibility}`} />,
    },
    { key: "listed", label: "admin.col.listed", cell: (r) => <YesNo value={r.gallery_listed} /> },
    { key: "provider", label: "admin.col.provider", cell: (r) => r.model_provider },
    {
      key: "chats",
      label: "admin.col.chats",
      cell: (r) => link(adminPaths.list("chats", { bot: r.id }), r.chat_count),
    },
    { key: "created", label: "admin.col.created", sort: "created_at", cell: (r) => <When value={r.created_at} /> },
  ],
  csv: [
    { header: "id", value: (r) => r.id },
    { header: "name", value: (r) => r.name },
    { header: "team_id", value: (r) => r.team_id },
    { header: "team", value: (r) => r.team_name },
    { header: "visibility", value: (r) => r.visibility },
    { header: "gallery_listed", value: (r) => r.gallery_listed },
    { header: "model_provider", value: (r) => r.model_provider },
    { header: "language", value: (r) => r.language },
    { header: "chats", value: (r) => r.chat_count },
    { header: "created_at", value: (r) => r.created_at },
  ],
};

const CHANNELS = ["web", "widget", "api", "slack", "discord", "telegram", "whatsapp"] as const;

const chats: ListConfig<"chats"> = {
  name: "chats",
  title: "admin.nav.chats",
  searchable: true,
  filters: [
    {
      param: "channel",
      arg: "channel_filter",
      label: "admin.col.channel",
      kind: "select",
      options: (intl) => [
        { value: "", label: intl.formatMessage({ id: "admin.filter.any" }) },
        ...CHANNELS.map((c) => ({ value: c, label: intl.formatMessage({ id: `conversations.channel.${c}` }) })),
      ],
    },
    { param: "bot", arg: "bot_filter", label: "admin.filter.bot", kind: "id" },
    { param: "user", arg: "user_filter", label: "admin.filter.user", kind: "id" },
  ],
  columns: [
    { key: "title", label: "admin.col.title", cell: (r) => r.title ?? <FormattedMessage id="admin.chats.untitled" /> },
    {
      key: "bot",
      label: "admin.col.bot",
      cell: (r) => <LocalizedLink to={adminPaths.bot(r.bot_id)}>{r.bot_name}</LocalizedLink>,
    },
    { key: "user", label: "admin.col.user", cell: (r) => <UserLink id={r.user_id} email={r.user_email} /> },
    {
      key: "channel",
      label: "admin.col.channel",
      cell: (r) => <FormattedMessage id={`conversations.channel.${r.channel}`} />,
    },
    { key: "messages", label: "admin.col.messages", sort: "message_count", cell: (r) => r.message_count },
    { key: "last", label: "admin.col.lastMessage", cell: (r) => <When value={r.last_message_at} /> },
    { key: "created", label: "admin.col.created", sort: "created_at", cell: (r) => <When value={r.created_at} /> },
  ],
  csv: [
    { header: "id", value: (r) => r.id },
    { header: "title", value: (r) => r.title },
    { header: "bot_id", value: (r) => r.bot_id },
    { header: "bot", value: (r) => r.bot_name },
    { header: "user_id", value: (r) => r.user_id },
    { header: "user_email", value: (r) => r.user_email },
    { header: "channel", value: (r) => r.channel },
    { header: "messages", value: (r) => r.message_count },
    { header: "last_message_at", value: (r) => r.last_message_at },
    { header: "created_at", value: (r) => r.created_at },
  ],
};

export const LIST_CONFIGS: { [N in AdminListName]: ListConfig<N> } = {
  users,
  teams,
  "team-members": teamMembers,
  bots,
  chats,
};
