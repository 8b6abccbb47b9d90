// What a source reader (web, files, Notion, YouTube, text) gets from the sync
// engine: a place to put documents, report per-document problems and progress,
// and a way to notice a cancel request.

export interface DocumentInput {
  /** Stable identity within the source: web address, storage path (+ #row=n), notion:<id>, youtube URL. */
  url: string;
  title: string;
  /** Markdown-ish text: `#` headings are kept as the chunks' heading path. */
  text: string;
  language?: string | null;
  metadata?: Record<string, unknown>;
  sizeBytes?: number;
}

export interface SourceContext {
  /** The bot's language code (en, de, ..., jp, cn). */
  botLanguage: string;
  /** Per-call SSRF dev allowance (undefined: PARLEY_FETCH_ALLOW_PRIVATE decides). */
  allowPrivate?: boolean;
  emit(doc: DocumentInput): Promise<void>;
  /** A document that could not be read: recorded in the job and as an error document. */
  fail(url: string, code: string, message: string): void;
  /** Something the owner should know (redirects, robots) that is not a failure. */
  warn(url: string, code: string, message: string): void;
  progress(done: number, total: number): Promise<void>;
  cancelled(): Promise<boolean>;
}

export class SourceError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
