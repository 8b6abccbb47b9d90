// CSV import and export of test cases. Columns: TEST_CASE_CSV_COLUMNS (contracts/tests.ts);
// lists (phrases, sources, tags) are joined with " | "; history is the JSON of the earlier turns.
import { parse as parseCsv } from "npm:csv-parse@7.0.3/sync";
import { z } from "npm:zod@3.25.76";
import { TEST_CASE_CSV_COLUMNS } from "../_shared/contracts/tests.ts";
import { HttpError } from "../_shared/http.ts";

const LANGUAGES = ["en", "de", "es", "fr", "it", "jp", "cn", "el", "pl", "nl"] as const;
export const MAX_IMPORT_ROWS = 1000;

export interface CsvCase {
  question: string;
  expected_answer: string;
  required_phrases: string[];
  forbidden_phrases: string[];
  expected_sources: string[];
  tags: string[];
  language: string;
  history: { role: "user" | "assistant"; content: string }[];
}

const list = (max: number) =>
  z.string().default("").transform((s) => s.split("|").map((p) => p.trim()).filter(Boolean)).pipe(z.array(z.string().max(500)).max(max));

const rowSchema = z.object({
  question: z.string().trim().min(1, "question is empty").max(4000),
  expected_answer: z.string().max(20000).default(""),
  required_phrases: list(20),
  forbidden_phrases: list(20),
  expected_sources: list(20),
  tags: list(20),
  language: z.string().trim().toLowerCase().default("").transform((l) => l || "en").pipe(z.enum(LANGUAGES)),
  history: z.string().trim().default("").transform((h, ctx) => {
    if (!h) return [];
    try {
      return JSON.parse(h);
    } catch {
      ctx.addIssue({ code: "custom", message: "history is not JSON" });
      return z.NEVER;
    }
  }).pipe(z.array(z.object({ role: z.enum(["user", "assistant"]), content: z.string().min(1).max(4000) })).max(20)),
});

/** Parses an uploaded CSV: the valid rows, and a message for every refused row (row 1 is the header). */
export function parseCases(text: string, defaultLanguage: string): { rows: CsvCase[]; errors: { row: number; message: string }[] } {
  let records: Record<string, string>[];
  try {
    records = parseCsv(text.replace(/^\uFEFF/, ""), { columns: (h: string[]) => h.map((c) => c.trim().toLowerCase()), skip_empty_lines: true, relax_column_count: true });
  } catch (e) {
    throw new HttpError(400, "invalid_csv", `The CSV could not be read: ${(e as Error).message}`);
  }
  if (!records.length) throw new HttpError(400, "invalid_csv", "The CSV has no rows");
  if (!("question" in records[0])) throw new HttpError(400, "invalid_csv", "The CSV needs a \"question\" column");
  if (records.length > MAX_IMPORT_ROWS) throw new HttpError(400, "invalid_csv", `At most ${MAX_IMPORT_ROWS} rows per import`);
  const rows: CsvCase[] = [];
  const errors: { row: number; message: string }[] = [];
  records.forEach((record, i) => {
    const parsed = rowSchema.safeParse({ ...record, language: record.language || defaultLanguage });
    if (parsed.success) rows.push(parsed.data);
    else errors.push({ row: i + 2, message: parsed.error.issues.map((x) => `${x.path.join(".") || "row"}: ${x.message}`).join("; ") });
  });
  return { rows, errors };
}

function cell(value: string): string {
  // A leading = + - @ would run as a formula in a spreadsheet: prefixed with a quote.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function formatCases(cases: CsvCase[]): string {
  const lines = [TEST_CASE_CSV_COLUMNS.join(",")];
  for (const c of cases) {
    lines.push([
      c.question,
      c.expected_answer,
      c.required_phrases.join(" | "),
      c.forbidden_phrases.join(" | "),
      c.expected_sources.join(" | "),
      c.tags.join(" | "),
      c.language,
      c.history.length ? JSON.stringify(c.history) : "",
    ].map(cell).join(","));
  }
  return lines.join("\r\n") + "\r\n";
}
