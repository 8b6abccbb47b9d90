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
  /** Web pages: what the server said about this version, for a conditional request next time. */
  http?: HttpVersion;
  /** A navigation-only page (table of contents, index, link list): retrieval ranks it down. */
  navigation?: boolean;
}

/** A web page's validators (ETag, Last-Modified) and its same-site links, as stored with the document. */
export interface HttpVersion {
  etag: string | null;
  lastModified: string | null;
  links: string[];
  /** When this version was downloaded in full (ISO time; null: unknown, e.g. stored before issue 17). */
  fetchedAt?: string | null;
  /** The page's `lastmod` in the site's sitemap when it was read (null: none), so the store remembers when it was fetched. */
  sitemapLastmod?: string | null;
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
  /** What the last complete run stored for this url (readers that can ask "changed since?"). */
  previous?(url: string): HttpVersion | undefined;
  /** The document at this url has not changed since the last run (HTTP 304): it is kept as it is. */
  unchanged?(url: string): void;
}

export class SourceError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
