// Files uploaded to the `data-sources` bucket: PDF (unpdf), DOCX (mammoth →
// HTML → text with headings), CSV (csv-parse; each row a document), Markdown and
// plain text. Limits give clear errors instead of partial imports.
import { Buffer } from "node:buffer";
import { extractText, getDocumentProxy } from "npm:unpdf@1.8.1";
import mammoth from "npm:mammoth@1.13.0";
import { parse as parseCsv } from "npm:csv-parse@7.0.3/sync";
import { elementToText, parseHTML } from "./html.ts";
import { type DocumentInput, SourceError } from "./types.ts";

export const MAX_FILE_BYTES = 20 * 1024 * 1024;
export const MAX_PDF_PAGES = 500;
export const MAX_CSV_ROWS = 10_000;

export type FileKind = "pdf" | "docx" | "csv" | "markdown" | "text";

export function fileKind(name: string, mime?: string | null): FileKind | null {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  if (ext === "pdf" || mime === "application/pdf") return "pdf";
  if (ext === "docx" || mime === "application/vnd.openxmlformats-officedocument.wordprocessingml.document") return "docx";
  if (ext === "csv" || mime === "text/csv") return "csv";
  if (ext === "md" || ext === "markdown" || mime === "text/markdown") return "markdown";
  if (ext === "txt" || ext === "text" || mime === "text/plain") return "text";
  return null;
}

export interface CsvSettings {
  text_columns?: string[];
  title_column?: string;
}

function decodeText(bytes: Uint8Array): string {
  return new TextDecoder("utf-8").decode(bytes).replace(/^\uFEFF/, "");
}

export async function pdfToText(bytes: Uint8Array): Promise<{ text: string; pages: number }> {
  let pdf;
  try {
    pdf = await getDocumentProxy(new Uint8Array(bytes));
  } catch (e) {
    throw new SourceError("unreadable_pdf", `The PDF could not be read: ${(e as Error).message}`);
  }
  if (pdf.numPages > MAX_PDF_PAGES) {
    throw new SourceError("too_many_pages", `The PDF has ${pdf.numPages} pages; at most ${MAX_PDF_PAGES} are imported`);
  }
  const { text } = await extractText(pdf, { mergePages: false });
  const pages = (text as string[]).map((t) => t.replace(/[ \t]+\n/g, "\n").trim());
  return { text: pages.filter(Boolean).join("\n\n"), pages: pdf.numPages };
}

export async function docxToText(bytes: Uint8Array): Promise<string> {
  try {
    const { value } = await mammoth.convertToHtml({ buffer: Buffer.from(bytes) });
    return elementToText(parseHTML(`<html><body>${value}</body></html>`).document.body);
  } catch (e) {
    throw new SourceError("unreadable_docx", `The Word document could not be read: ${(e as Error).message}`);
  }
}

export function csvToDocuments(bytes: Uint8Array, path: string, name: string, settings: CsvSettings): DocumentInput[] {
  let rows: Record<string, string>[];
  try {
    rows = parseCsv(decodeText(bytes), { columns: true, skip_empty_lines: true, relax_column_count: true, trim: true });
  } catch (e) {
    throw new SourceError("invalid_csv", `The CSV could not be parsed: ${(e as Error).message}`);
  }
  if (rows.length > MAX_CSV_ROWS) {
    throw new SourceError("too_many_rows", `The CSV has ${rows.length} rows; at most ${MAX_CSV_ROWS} are imported`);
  }
  const header = rows.length ? Object.keys(rows[0]) : [];
  const wanted = settings.text_columns?.length ? settings.text_columns : header;
  const missing = wanted.filter((c) => !header.includes(c));
  if (rows.length && missing.length) {
    throw new SourceError("unknown_columns", `The CSV has no column ${missing.map((c) => `"${c}"`).join(", ")}`);
  }
  if (settings.title_column && rows.length && !header.includes(settings.title_column)) {
    throw new SourceError("unknown_columns", `The CSV has no title column "${settings.title_column}"`);
  }
  return rows.flatMap((row, i) => {
    const parts = wanted.map((c) => [c, (row[c] ?? "").trim()] as const).filter(([, v]) => v);
    if (!parts.length) return [];
    const text = parts.length === 1 ? parts[0][1] : parts.map(([c, v]) => `${c}: ${v}`).join("\n");
    const title = (settings.title_column && row[settings.title_column]?.trim()) || `${name} — row ${i + 1}`;
    return [{ url: `${path}#row=${i + 1}`, title, text, metadata: { row: i + 1, file: path } }];
  });
}

/** Front matter is metadata, not content. */
function stripFrontMatter(md: string): { text: string; title?: string } {
  const m = /^---\n([\s\S]*?)\n---\n?/.exec(md);
  if (!m) return { text: md };
  const title = /^title:\s*["']?(.+?)["']?\s*$/m.exec(m[1])?.[1];
  return { text: md.slice(m[0].length), title };
}

export async function fileToDocuments(
  bytes: Uint8Array,
  file: { path: string; name: string; mime?: string | null },
  settings: CsvSettings,
): Promise<DocumentInput[]> {
  if (bytes.byteLength > MAX_FILE_BYTES) {
    throw new SourceError("file_too_large", `The file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB`);
  }
  const kind = fileKind(file.name, file.mime);
  const base = { url: file.path, title: file.name.replace(/\.[a-z0-9]+$/i, ""), sizeBytes: bytes.byteLength };
  switch (kind) {
    case "pdf": {
      const { text, pages } = await pdfToText(bytes);
      return [{ ...base, text, metadata: { kind, pages } }];
    }
    case "docx":
      return [{ ...base, text: await docxToText(bytes), metadata: { kind } }];
    case "csv":
      return csvToDocuments(bytes, file.path, file.name, settings);
    case "markdown": {
      const { text, title } = stripFrontMatter(decodeText(bytes).replace(/\r\n?/g, "\n"));
      return [{ ...base, title: title ?? base.title, text, metadata: { kind } }];
    }
    case "text":
      return [{ ...base, text: decodeText(bytes), metadata: { kind } }];
    default:
      throw new SourceError("unsupported_file", `${file.name}: only PDF, DOCX, CSV, Markdown and text files can be imported`);
  }
}
