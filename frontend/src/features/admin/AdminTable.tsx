// The admin area's table: a caption, column headers with scope, sortable columns as buttons
// whose header carries aria-sort, and the loading, empty and error states in the table's place.
import type { ReactNode } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { ErrorNote } from "../../components/ErrorNote";
import { Loading } from "../../components/ui";

export interface AdminColumn<Row> {
  key: string;
  /** Message id of the header. */
  label: string;
  /** The list's sort value this column sorts by (sortable columns only). */
  sort?: string;
  cell: (row: Row) => ReactNode;
}

export interface SortState {
  sort: string;
  descending: boolean;
}

export function AdminTable<Row extends { id: string | number }>(props: {
  caption: ReactNode;
  columns: readonly AdminColumn<Row>[];
  rows: readonly Row[] | undefined;
  pending: boolean;
  error: unknown;
  sort?: SortState;
  onSort?: (sort: SortState) => void;
  busy?: boolean;
}) {
  const intl = useIntl();
  if (props.pending) return <Loading />;
  if (props.error) return <ErrorNote error={props.error} />;
  const rows = props.rows ?? [];
  return (
    <div className="admin-table__wrap">
      <table className="admin-table" aria-busy={props.busy || undefined}>
        <caption className="admin-table__caption">{props.caption}</caption>
        <thead>
          <tr>
            {props.columns.map((c) => {
              const active = c.sort !== undefined && props.sort?.sort === c.sort;
              const ariaSort = active ? (props.sort!.descending ? "descending" : "ascending") : c.sort ? "none" : undefined;
              return (
                <th key={c.key} scope="col" aria-sort={ariaSort}>
                  {c.sort && props.onSort ? (
                    <button
                      type="button"
                      className="admin-table__sort"
                      onClick={() => props.onSort!({ sort: c.sort!, descending: active ? !props.sort!.descending : true })}
                      aria-label={intl.formatMessage({ id: "admin.table.sortBy" }, { column: intl.formatMessage({ id: c.label }) })}
                    >
                      <FormattedMessage id={c.label} />
                      <span aria-hidden="true" className="admin-table__arrow">{active ? (props.sort!.descending ? "▼" : "▲") : "↕"}</span>
                    </button>
                  ) : (
                    <FormattedMessage id={c.label} />
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={props.columns.length} className="admin-table__empty">
                <FormattedMessage id="admin.table.empty" />
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={row.id}>
                {props.columns.map((c) => (
                  <td key={c.key}>{c.cell(row)}</td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

/** Previous / next over keyset pages: the page number and whether more follow. */
export function Pager(props: { page: number; hasPrevious: boolean; hasNext: boolean; onPrevious: () => void; onNext: () => void }) {
  const intl = useIntl();
  return (
    <nav className="admin-pager" aria-label={intl.formatMessage({ id: "admin.pager.label" })}>
      <button type="button" className="btn btn--sm btn--white" disabled={!props.hasPrevious} onClick={props.onPrevious}>
        <FormattedMessage id="admin.pager.previous" />
      </button>
      <span aria-live="polite">
        <FormattedMessage id="admin.pager.page" values={{ page: props.page }} />
      </span>
      <button type="button" className="btn btn--sm btn--white" disabled={!props.hasNext} onClick={props.onNext}>
        <FormattedMessage id="admin.pager.next" />
      </button>
    </nav>
  );
}
