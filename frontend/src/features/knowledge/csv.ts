// Enough CSV to preview a file's header in the browser (RFC 4180 quoting, , ; or tab); the
// ingest function parses the whole file on the server.
export function parseCsvRows(text: string, maxRows = 6): string[][] {
  const src = text.replace(/^\uFEFF/, "");
  const firstLine = src.split(/\r?\n/, 1)[0] ?? "";
  const delimiter = [",", ";", "\t"].reduce((best, d) => (count(firstLine, d) > count(firstLine, best) ? d : best), ",");
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  const endRow = () => {
    row.push(field);
    field = "";
    if (row.some((f) => f !== "")) rows.push(row);
    row = [];
  };
  for (let i = 0; i < src.length && rows.length < maxRows; i++) {
    const c = src[i]!;
    if (quoted) {
      if (c === '"' && src[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === delimiter) {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && src[i + 1] === "\n") i++;
      endRow();
    } else field += c;
  }
  if (rows.length < maxRows && (field !== "" || row.length)) endRow();
  return rows;
}

function count(s: string, ch: string): number {
  return s.split(ch).length - 1;
}

/** The header of a CSV file: trimmed, unique, non-empty column names. */
export function csvHeader(text: string): string[] {
  const [header = []] = parseCsvRows(text, 1);
  return header.map((h) => h.trim());
}
