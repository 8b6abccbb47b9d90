// /app/admin: the administrators' landing page: one search across users, teams and bots, and
// the latest audit-log entries with a link to the whole log. (The admin-auth guard has already
// answered 403 to signed-in non-administrators and sent signed-out visitors to the login.)
import { useState, type FormEvent, type ReactNode } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { useSearchParams } from "react-router";
import { ErrorNote } from "../../../components/ErrorNote";
import { LocalizedLink } from "../../../components/LocalizedLink";
import { Button, Input, Loading } from "../../../components/ui";
import { useAuditLogQuery } from "../../../data/admin/audit-log-query";
import { useAdminListQuery, type AdminListName, type AdminListParams } from "../../../data/admin/lists";
import { AdminFrame } from "../../../features/admin/AdminFrame";
import { AuditLogTable } from "../../../features/admin/AuditLogTable";
import { adminPaths } from "../../../features/admin/format";

const QUICK = 5;

function Results<N extends AdminListName>(props: { name: N; search: string; heading: string; item: (row: Record<string, unknown>) => ReactNode }) {
  const params: AdminListParams = { search: props.search, sort: "created_at", descending: true, filters: {} };
  const q = useAdminListQuery(props.name, params, null, QUICK);
  return (
    <section aria-labelledby={`quick-${props.name}`}>
      <h3 id={`quick-${props.name}`}><FormattedMessage id={props.heading} /></h3>
      {q.isPending ? (
        <Loading />
      ) : q.isError ? (
        <ErrorNote error={q.error} />
      ) : q.data.rows.length === 0 ? (
        <p><FormattedMessage id="admin.table.empty" /></p>
      ) : (
        <ul>
          {q.data.rows.map((r) => (
            <li key={String((r as { id: string }).id)}>{props.item(r as Record<string, unknown>)}</li>
          ))}
        </ul>
      )}
      <LocalizedLink to={adminPaths.list(props.name, { q: props.search })}><FormattedMessage id="admin.home.allResults" /></LocalizedLink>
    </section>
  );
}

export default function AdminHomePage() {
  const intl = useIntl();
  const [query, setQuery] = useSearchParams();
  const submitted = query.get("q")?.trim() ?? "";
  const [search, setSearch] = useState(submitted);
  const latest = useAuditLogQuery({}, null, 10);
  const onSearch = (e: FormEvent) => {
    e.preventDefault();
    setQuery(search.trim() ? { q: search.trim() } : {});
  };
  return (
    <AdminFrame title={<FormattedMessage id="admin.home.title" />}>
      <div className="admin-landing">
        <section aria-labelledby="admin-quick-search">
          <h2 id="admin-quick-search"><FormattedMessage id="admin.home.searchTitle" /></h2>
          <form role="search" className="admin-toolbar" onSubmit={onSearch}>
            <Input label={intl.formatMessage({ id: "admin.home.searchLabel" })} type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
            <Button type="submit" size="sm"><FormattedMessage id="admin.search.submit" /></Button>
          </form>
          {submitted && (
            <div className="admin-search-results">
              <Results name="users" search={submitted} heading="admin.nav.users"
                item={(r) => <LocalizedLink to={adminPaths.user(String(r.id))}>{String(r.email ?? r.display_name ?? r.id)}</LocalizedLink>} />
              <Results name="teams" search={submitted} heading="admin.nav.teams"
                item={(r) => <LocalizedLink to={adminPaths.list("bots", { team: String(r.id) })}>{String(r.name)}</LocalizedLink>} />
              <Results name="bots" search={submitted} heading="admin.nav.bots"
                item={(r) => <LocalizedLink to={adminPaths.bot(String(r.id))}>{String(r.name)}</LocalizedLink>} />
            </div>
          )}
        </section>
        <section aria-labelledby="admin-latest">
          <h2 id="admin-latest"><FormattedMessage id="admin.home.latest" /></h2>
          <AuditLogTable caption={<FormattedMessage id="admin.home.latestCaption" />} rows={latest.data?.rows} pending={latest.isPending} error={latest.error} />
          <p><LocalizedLink to="/app/admin/audit-log"><FormattedMessage id="admin.home.fullLog" /></LocalizedLink></p>
        </section>
      </div>
    </AdminFrame>
  );
}
