// One admin list page: search, filters and sort live in the URL (so lists link to each other
// and a reload keeps the view), pages follow keyset cursors (a stack, for "previous"), and the
// CSV export walks every page of the current search and filters.
import { useMemo, useState, type FormEvent } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { useSearchParams } from "react-router";
import { ErrorNote } from "../../components/ErrorNote";
import { Button, Input, Select } from "../../components/ui";
import { exportAdminCsv } from "../../data/admin/export";
import { ADMIN_LISTS, useAdminListQuery, type AdminListName, type AdminListParams, type Cursor } from "../../data/admin/lists";
import { usePlanChoicesQuery } from "../../data/admin/plans-query";
import { useLocale } from "../../components/LocalizedLink";
import { AdminFrame } from "./AdminFrame";
import { AdminTable, Pager } from "./AdminTable";
import type { FilterDef, ListConfig } from "./listConfigs";

function filterValue(def: FilterDef, raw: string | null): string | boolean | undefined {
  if (!raw) return undefined;
  if (def.kind === "boolean") return raw === "true" ? true : raw === "false" ? false : undefined;
  return raw;
}

export function AdminListScreen<N extends AdminListName>({ config }: { config: ListConfig<N> }) {
  const intl = useIntl();
  const locale = useLocale();
  const [query, setQuery] = useSearchParams();
  const sorts: readonly string[] = ADMIN_LISTS[config.name].sorts;
  const sort = sorts.includes(query.get("sort") ?? "") ? query.get("sort")! : "created_at";
  const params: AdminListParams = useMemo(
    () => ({
      search: config.searchable ? query.get("q") ?? undefined : undefined,
      sort,
      descending: query.get("dir") !== "asc",
      filters: Object.fromEntries(config.filters.map((f) => [f.arg, filterValue(f, query.get(f.param))])),
    }),
    [config, query, sort],
  );
  const paramsKey = JSON.stringify(params);
  const [pages, setPages] = useState<{ key: string; stack: Cursor[] }>({ key: paramsKey, stack: [] });
  const stack = pages.key === paramsKey ? pages.stack : [];
  const list = useAdminListQuery(config.name, params, stack[stack.length - 1] ?? null);
  const plans = usePlanChoicesQuery();
  const planOptions = (plans.data ?? []).map((p) => ({ value: p.id, label: (p.name as Record<string, string>)[locale] ?? (p.name as Record<string, string>).en ?? p.id }));
  const [search, setSearch] = useState(query.get("q") ?? "");
  const [exporting, setExporting] = useState<number | null>(null);
  const [exportError, setExportError] = useState<unknown>(null);

  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(query);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === "") next.delete(k);
      else next.set(k, v);
    }
    setQuery(next);
  };
  const onSearch = (e: FormEvent) => {
    e.preventDefault();
    update({ q: search.trim() || null });
  };
  const onExport = async () => {
    setExportError(null);
    setExporting(0);
    try {
      const blob = await exportAdminCsv(config.name, params, config.csv, setExporting);
      const url = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = url;
      a.download = `parley-${config.name}-${new Date().toISOString().slice(0, 10)}.csv`;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (e) {
      setExportError(e);
    } finally {
      setExporting(null);
    }
  };

  const idFilters = config.filters.filter((f) => f.kind === "id" && query.get(f.param));
  const title = intl.formatMessage({ id: config.title });
  return (
    <AdminFrame
      title={title}
      actions={
        <Button theme="white" size="sm" onClick={onExport} loading={exporting !== null}>
          {exporting !== null ? <FormattedMessage id="admin.export.progress" values={{ rows: exporting }} /> : <FormattedMessage id="admin.export.csv" />}
        </Button>
      }
    >
      {exportError ? <ErrorNote error={exportError} /> : null}
      <div className="admin-toolbar">
        {config.searchable && (
          <form role="search" onSubmit={onSearch} className="admin-toolbar">
            <Input label={intl.formatMessage({ id: `admin.search.${config.name}` })} type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
            <Button type="submit" size="sm">
              <FormattedMessage id="admin.search.submit" />
            </Button>
          </form>
        )}
        {config.filters
          .filter((f) => f.kind !== "id")
          .map((f) => (
            <Select
              key={f.param}
              label={intl.formatMessage({ id: f.label })}
              value={query.get(f.param) ?? ""}
              options={f.options!(intl, { plans: planOptions })}
              onChange={(e) => update({ [f.param]: e.target.value })}
            />
          ))}
      </div>
      {idFilters.length > 0 && (
        <div className="admin-chips">
          {idFilters.map((f) => (
            <span key={f.param} className="admin-chip">
              <FormattedMessage id={f.label} />: <code>{query.get(f.param)}</code>
              <button type="button" className="btn btn--xxs btn--transparent" onClick={() => update({ [f.param]: null })}
                aria-label={intl.formatMessage({ id: "admin.filter.remove" }, { filter: intl.formatMessage({ id: f.label }) })}>
                ×
              </button>
            </span>
          ))}
        </div>
      )}
      <AdminTable
        caption={<FormattedMessage id="admin.table.caption" values={{ list: title, page: stack.length + 1 }} />}
        columns={config.columns}
        rows={list.data?.rows}
        pending={list.isPending}
        error={list.error}
        busy={list.isFetching}
        sort={{ sort: params.sort, descending: params.descending }}
        onSort={(s) => update({ sort: s.sort === "created_at" ? null : s.sort, dir: s.descending ? null : "asc" })}
      />
      <Pager
        page={stack.length + 1}
        hasPrevious={stack.length > 0}
        hasNext={!!list.data?.next && !list.isPlaceholderData}
        onPrevious={() => setPages({ key: paramsKey, stack: stack.slice(0, -1) })}
        onNext={() => list.data?.next && setPages({ key: paramsKey, stack: [...stack, list.data.next] })}
      />
    </AdminFrame>
  );
}
