// The frame of every page of the administrator area: its title, the admin sub-navigation
// (lists, dashboard and its sections) and the page. One <nav> landmark, labelled, with the
// current page marked (aria-current, from NavLink).
import type { ReactNode } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { LocalizedNavLink } from "../../components/LocalizedLink";
import "./admin.css";

/** The admin area's pages, in the order the sub-navigation shows them. */
export const ADMIN_NAV: ReadonlyArray<{ to: string; id: string; end?: boolean }> = [
  { to: "/app/admin", id: "admin.nav.home", end: true },
  { to: "/app/admin/dashboard", id: "admin.nav.dashboard", end: true },
  { to: "/app/admin/users", id: "admin.nav.users" },
  { to: "/app/admin/teams", id: "admin.nav.teams" },
  { to: "/app/admin/team-members", id: "admin.nav.teamMembers" },
  { to: "/app/admin/bots", id: "admin.nav.bots" },
  { to: "/app/admin/chats", id: "admin.nav.chats" },
  { to: "/app/admin/audit-log", id: "admin.nav.auditLog" },
  { to: "/app/admin/dashboard/plans", id: "admin.nav.plans" },
  { to: "/app/admin/dashboard/models", id: "admin.nav.models" },
  { to: "/app/admin/dashboard/providers", id: "admin.nav.providers" },
  { to: "/app/admin/dashboard/channels", id: "admin.nav.channels" },
  { to: "/app/admin/dashboard/power-ups", id: "admin.nav.powerUps" },
  { to: "/app/admin/dashboard/data-sources", id: "admin.nav.dataSources" },
];

export function AdminFrame({ title, actions, children }: { title: ReactNode; actions?: ReactNode; children: ReactNode }) {
  const intl = useIntl();
  return (
    <div className="admin-frame">
      <nav className="admin-nav" aria-label={intl.formatMessage({ id: "admin.nav.label" })}>
        <ul>
          {ADMIN_NAV.map((entry) => (
            <li key={entry.to}>
              <LocalizedNavLink to={entry.to} end={entry.end} className={({ isActive }) => (isActive ? "admin-nav__link is-active" : "admin-nav__link")}>
                <FormattedMessage id={entry.id} />
              </LocalizedNavLink>
            </li>
          ))}
        </ul>
      </nav>
      <section className="admin-frame__page">
        <header className="admin-frame__header">
          <h1>{title}</h1>
          {actions && <div className="admin-frame__actions">{actions}</div>}
        </header>
        {children}
      </section>
    </div>
  );
}
