// The Notion picker of a new data source: the pages and databases of a workspace connected
// through the notion-connect function (the connecting screens are routes/auth/notion-connect.tsx).
import { useEffect, useMemo, useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { Button, Input } from "../../components/ui";
import { useNotionSearchQuery, type NotionItem } from "../../data/dataSources/notion-connect";
import { ErrorText } from "./badges";
import type { SourceForm } from "./form";

const lines = (s: string) => s.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
/** The 32 hex digits of a Notion id, link or dashed id (lower case); null when there are none. */
export const notionKey = (s: string) => /([0-9a-f]{32})(?:[?#].*)?$/i.exec(s.replace(/-/g, ""))?.[1]?.toLowerCase() ?? null;

type Patch = (update: (f: SourceForm) => SourceForm) => void;

// Inline SVG rather than Notion's emoji icons: emoji fonts are not everywhere.
const ITEM_PATHS = {
  page: "M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8zM14 3v5h5",
  database: "M4 5h16v14H4zM4 10h16M4 15h16M10 10v9",
};
function ItemIcon({ type }: { type: NotionItem["type"] }) {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d={ITEM_PATHS[type]} />
    </svg>
  );
}

/** Pages and databases of the connected workspace as checkboxes; picks go to the form's lists. */
export function NotionPicker({ connectionId, form, patch, error }: { connectionId: string; form: SourceForm; patch: Patch; error?: string }) {
  const intl = useIntl();
  const [query, setQuery] = useState("");
  const [debounced, setDebounced] = useState("");
  useEffect(() => {
    const t = setTimeout(() => setDebounced(query), 300);
    return () => clearTimeout(t);
  }, [query]);
  const search = useNotionSearchQuery(connectionId, debounced);
  const items = useMemo(() => search.data?.pages.flatMap((p) => p.results) ?? [], [search.data]);
  const picked = new Set([...lines(form.notion.pages), ...lines(form.notion.databases)].map(notionKey));
  const count = lines(form.notion.pages).length + lines(form.notion.databases).length;

  const toggle = (item: NotionItem, on: boolean) =>
    patch((f) => {
      const field = item.type === "database" ? "databases" : "pages";
      const rest = lines(f.notion[field]).filter((l) => notionKey(l) !== notionKey(item.id));
      return { ...f, notion: { ...f.notion, [field]: (on ? [...rest, item.id] : rest).join("\n") } };
    });

  return (
    <fieldset className="ks-notion" aria-describedby={error ? "notion-pick-error" : undefined}>
      <legend>
        <FormattedMessage id="knowledge.notion.pick.legend" />{" "}
        <span className="ks-muted" data-testid="notion-picked-count">
          <FormattedMessage id="knowledge.notion.pick.count" values={{ count }} />
        </span>
      </legend>
      <Input type="search" label={intl.formatMessage({ id: "knowledge.notion.pick.search" })} value={query} onChange={(e) => setQuery(e.target.value)} />
      {search.isPending ? (
        <p className="ks-muted" role="status">
          <FormattedMessage id="knowledge.notion.pick.loading" />
        </p>
      ) : search.isError ? (
        <div className="ks-alert" role="alert">
          <ErrorText error={search.error} />
        </div>
      ) : items.length === 0 ? (
        <p className="ks-muted">
          <FormattedMessage id={debounced.trim() ? "knowledge.notion.pick.noMatch" : "knowledge.notion.pick.empty"} />
        </p>
      ) : (
        <ul className="ks-notion__list">
          {items.map((item) => (
            <li key={item.id}>
              <label className="ks-check">
                <input type="checkbox" checked={picked.has(notionKey(item.id))} onChange={(e) => toggle(item, e.target.checked)} />
                <ItemIcon type={item.type} />
                <span>{item.title}</span>
                <span className="ks-muted">
                  <FormattedMessage id={`knowledge.notion.pick.${item.type}`} />
                </span>
              </label>
            </li>
          ))}
        </ul>
      )}
      {search.hasNextPage && (
        <Button theme="white" size="sm" loading={search.isFetchingNextPage} onClick={() => void search.fetchNextPage()}>
          <FormattedMessage id="knowledge.notion.pick.more" />
        </Button>
      )}
      {error && (
        <p id="notion-pick-error" className="ks-error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** The connected workspace's name, from the picker's first page of results. */
export function useNotionWorkspace(connectionId: string | null): string | null {
  const search = useNotionSearchQuery(connectionId, "");
  return search.data?.pages[0]?.workspace_name ?? null;
}
