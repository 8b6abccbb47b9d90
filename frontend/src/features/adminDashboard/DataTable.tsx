// A plain, captioned table of figures: the visible alternative to a chart and the sections' lists.
import { useId, type ReactNode } from "react";

export interface Column<R> {
  key: string;
  header: ReactNode;
  cell: (row: R) => ReactNode;
  /** Numbers are right-aligned. */
  numeric?: boolean;
}

export function DataTable<R>({ caption, columns, rows, rowKey }: { caption: ReactNode; columns: Column<R>[]; rows: R[]; rowKey: (row: R) => string }) {
  const id = useId();
  // The wrapper scrolls sideways on a narrow screen: a focusable, named region so a keyboard can scroll it.
  return (
    <div className="admin-table-wrap" role="region" aria-labelledby={id} tabIndex={0}>
      <table className="admin-table">
        <caption id={id}>{caption}</caption>
        <thead>
          <tr>{columns.map((c) => <th key={c.key} scope="col" className={c.numeric ? "is-num" : undefined}>{c.header}</th>)}</tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={rowKey(r)}>
              {columns.map((c, i) => i === 0
                ? <th key={c.key} scope="row">{c.cell(r)}</th>
                : <td key={c.key} className={c.numeric ? "is-num" : undefined}>{c.cell(r)}</td>)}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
