// /app/admin/audit-log: every administrator action, newest first; search (action, actor e-mail,
// target id), filter by target type, page by id.
import { useMemo, useState, type FormEvent } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { useSearchParams } from "react-router";
import { Button, Input, Select } from "../../../components/ui";
import { useAuditLogQuery } from "../../../data/admin/audit-log-query";
import type { AuditLogParams } from "../../../data/admin/keys";
import { AdminFrame } from "../../../features/admin/AdminFrame";
import { Pager } from "../../../features/admin/AdminTable";
import { AuditLogTable, TARGET_TYPES } from "../../../features/admin/AuditLogTable";

export default function AuditLogPage() {
  const intl = useIntl();
  const [query, setQuery] = useSearchParams();
  const params: AuditLogParams = useMemo(
    () => ({
      search: query.get("q") ?? undefined,
      targetType: query.get("type") ?? undefined,
      targetId: query.get("target") ?? undefined,
    }),
    [query],
  );
  const key = JSON.stringify(params);
  const [pages, setPages] = useState<{ key: string; stack: number[] }>({ key, stack: [] });
  const stack = pages.key === key ? pages.stack : [];
  const log = useAuditLogQuery(params, stack[stack.length - 1] ?? null);
  const [search, setSearch] = useState(query.get("q") ?? "");
  const set = (name: string, value: string) => {
    const next = new URLSearchParams(query);
    if (value) next.set(name, value);
    else next.delete(name);
    setQuery(next);
  };
  const onSearch = (e: FormEvent) => {
    e.preventDefault();
    set("q", search.trim());
  };
  const title = intl.formatMessage({ id: "admin.nav.auditLog" });
  return (
    <AdminFrame title={title}>
      <div className="admin-toolbar">
        <form role="search" onSubmit={onSearch} className="admin-toolbar">
          <Input
            label={intl.formatMessage({ id: "admin.search.auditLog" })}
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          <Button type="submit" size="sm">
            <FormattedMessage id="admin.search.submit" />
          </Button>
        </form>
        <Select
          label={intl.formatMessage({ id: "admin.col.targetType" })}
          value={params.targetType ?? ""}
          options={[
            { value: "", label: intl.formatMessage({ id: "admin.filter.any" }) },
            ...TARGET_TYPES.map((t) => ({ value: t, label: intl.formatMessage({ id: `admin.col.${t}` }) })),
          ]}
          onChange={(e) => set("type", e.target.value)}
        />
      </div>
      <AuditLogTable
        caption={<FormattedMessage id="admin.table.caption" values={{ list: title, page: stack.length + 1 }} />}
        rows={log.data?.rows}
        pending={log.isPending}
        error={log.error}
        busy={log.isFetching}
      />
      <Pager
        page={stack.length + 1}
        hasPrevious={stack.length > 0}
        hasNext={log.data?.next != null && !log.isPlaceholderData}
        onPrevious={() => setPages({ key, stack: stack.slice(0, -1) })}
        onNext={() => log.data?.next != null && setPages({ key, stack: [...stack, log.data.next] })}
      />
    </AdminFrame>
  );
}
