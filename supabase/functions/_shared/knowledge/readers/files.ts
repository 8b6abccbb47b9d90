// Files uploaded to the `data-sources` bucket: PDF (unpdf), DOCX (unzipped with
// fflate, WordprocessingML paragraphs → text with headings; mammoth needs
// __proto__, which Deno disables), CSV (csv-parse; each row a document),
// Markdown and plain text. Limits give clear errors instead of partial imports.
import { extractText, getDocumentProxy } from "npm:unpdf@1.8.1";
import { strFromU8, unzipSync } from "npm:fflate@0.8.3";
import { parse as parseCsv } from "npm:csv-parse@7.0.3/sync";
import { type DocumentInput, SourceError } from "./types.ts";

export const MAX_FILE_BYTES = 20 * 1024 * 1024;
export const MAX_PDF_PAGES = 500;
export const MAX_CSV_ROWS = 10_000;

export type FileKind = "pdf" | "docx" | "csv" | "markdown" | "text";

export function fileKind(name: string, mime?: string | null): FileKind | null {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  if (ext === "pdf" || mime === "application/pdf") return "pdf";
  if (ext === "docx" || mime === "application/vnd.openxmlformats-officedocument.wordprocessingml.document")
    return "docx";
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

function xmlText(s: string): string {
  return s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&amp;/g, "&");
}

/** Text of one <w:p>: runs, tabs and breaks. */
function paragraphText(p: string): string {
  let out = "";
  for (const m of p.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>|<w:tab\/>|<w:br\/>/g)) {
    out += m[1] !== undefined ? xmlText(m[1]) : m[0] === "<w:tab/>" ? "\t" : "\n";
  }
  return out.trim();
}

export function docxToText(bytes: Uint8Array): string {
  let xml: string;
  let styles = "";
  try {
    const files = unzipSync(bytes, { filter: (f) => f.name === "word/document.xml" || f.name === "word/styles.xml" });
    if (!files["word/document.xml"]) throw new Error("word/document.xml is missing");
    xml = strFromU8(files["word/document.xml"]);
    if (files["word/styles.xml"]) styles = strFromU8(files["word/styles.xml"]);
  } catch (e) {
    throw new SourceError("unreadable_docx", `The Word document could not be read: ${(e as Error).message}`);
  }
  // style id → heading level, from the style names ("heading 1", "Title")
  const levels = new Map<string, number>();
  for (const m of styles.matchAll(/<w:style\b[^>]*w:styleId="([^"]+)"[^>]*>([\s\S]*?)<\/w:style>/g)) {
    const name = /<w:name w:val="([^"]+)"/.exec(m[2])?.[1]?.toLowerCase() ?? "";
    const h = /^heading (\d)$/.exec(name);
    if (h) levels.set(m[1], Number(h[1]));
    else if (name === "title") levels.set(m[1], 1);
  }
  const lines: string[] = [];
  const body = xml.replace(/<w:tbl>[\s\S]*?<\/w:tbl>/g, (table) => {
    const rows = [...table.matchAll(/<w:tr\b[\s\S]*?<\/w:tr>/g)].map(
      (r) =>
        "| " +
        [...r[0].matchAll(/<w:tc\b[\s\S]*?<\/w:tc>/g)]
          .map((c) => paragraphText(c[0]).replace(/\s+/g, " "))
          .join(" | ") +
        " |",
    );
    return `<w:p><w:t>\u0000TABLE${lines.push(rows.join("\n")) - 1}</w:t></w:p>`;
  });
  const tables = lines.splice(0);
  for (const m of body.matchAll(/<w:p\b[\s\S]*?<\/w:p>|<w:p\/>/g)) {
    const p = m[0];
    const text = paragraphText(p);
    const table = /^\u0000TABLE(\d+)$/.exec(text);
    if (table) {
      lines.push("", tables[Number(table[1])], "");
      continue;
    }
    if (!text) continue;
    const style = /<w:pStyle w:val="([^"]+)"/.exec(p)?.[1] ?? "";
    const level =
      levels.get(style) ??
      (/^(?:Heading|heading)(\d)$/.exec(style) ? Number(style.slice(-1)) : /^Title$/i.test(style) ? 1 : 0);
    if (level) lines.push("", `${"#".repeat(Math.min(level, 6))} ${text.replace(/\s+/g, " ")}`, "");
    else if (/<w:numPr>/.test(p)) lines.push(`- ${text}`);
    else lines.push("", text, "");
  }
  return lines
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
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
      return [{ ...base, text: docxToText(bytes), metadata: { kind } }];
    case "csv":
      return csvToDocuments(bytes, file.path, file.name, settings);
    case "markdown": {
      const { text, title } = stripFrontMatter(decodeText(bytes).replace(/\r\n?/g, "\n"));
      return [{ ...base, title: title ?? base.title, text, metadata: { kind } }];
    }
    case "text":
      return [{ ...base, text: decodeText(bytes), metadata: { kind } }];
    default:
      throw new SourceError(
        "unsupported_file",
        `${file.name}: only PDF, DOCX, CSV, Markdown and text files can be imported`,
      );
  }
}
