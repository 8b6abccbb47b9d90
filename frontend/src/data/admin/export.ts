// Export of a whole admin list as CSV, for the current search, filters and sort (not just the
// visible page): page after page of 500 rows through the same keyset functions, so a large
// export never asks the database for one huge result.
import { csvLine } from "./csv";
import { fetchAdminPage, type AdminListName, type AdminPage, type AdminListParams, type AdminRow, type Cursor } from "./lists";

export interface CsvColumn<N extends AdminListName> {
  header: string;
  value: (row: AdminRow<N>) => unknown;
}

const EXPORT_PAGE = 500;

/** The CSV's parts (header, then one part per page); `onProgress` gets the rows so far. */
export async function exportAdminCsv<N extends AdminListName>(
  name: N,
  params: AdminListParams,
  columns: readonly CsvColumn<N>[],
  onProgress?: (rows: number) => void,
  signal?: AbortSignal,
): Promise<Blob> {
  const parts: string[] = [csvLine(columns.map((c) => c.header))];
  let cursor: Cursor | null = null;
  let count = 0;
  do {
    if (signal?.aborted) throw new DOMException("Export cancelled", "AbortError");
    const page: AdminPage<N> = await fetchAdminPage(name, params, cursor, EXPORT_PAGE);
    parts.push(page.rows.map((row) => csvLine(columns.map((c) => c.value(row)))).join(""));
    count += page.rows.length;
    onProgress?.(count);
    cursor = page.next;
  } while (cursor);
  return new Blob(parts, { type: "text/csv;charset=utf-8" });
}
