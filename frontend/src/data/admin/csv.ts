// CSV for the admin lists' export (RFC 4180: quotes doubled, a field with a comma, quote or line
// break quoted). Cells that a spreadsheet would run as a formula are prefixed with a quote.
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text = Array.isArray(value) ? value.join(" ") : typeof value === "object" ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: readonly unknown[]): string {
  return values.map(csvCell).join(",") + "\r\n";
}
