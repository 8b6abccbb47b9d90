// The add/edit form of a data source as plain state, its checks (message ids) and the
// `settings` object the ingest function expects (supabase/functions/ingest/README.md).
import type { DataSourceType, SourceSettings, SyncSchedule } from "../../data/dataSources/types";

export interface WebFields {
  url: string;
  mode: "crawl" | "single";
  maxDepth: string;
  maxPages: string;
  include: string;
  exclude: string;
  keepSelectors: string;
  dropSelectors: string;
  useSitemap: boolean;
  /** Milliseconds between the starts of two requests to the site (0–10,000). */
  delayMs: string;
  /** Pages fetched at once (1–8). */
  concurrency: string;
}

export interface SourceForm {
  type: DataSourceType;
  name: string;
  schedule: SyncSchedule;
  web: WebFields;
  csv: { header: string[] | null; textColumns: string[]; titleColumn: string };
  notion: { pages: string; databases: string; token: string };
  youtube: { url: string };
  text: { title: string; body: string };
}

export const emptyForm = (type: DataSourceType = "web"): SourceForm => ({
  type,
  name: "",
  schedule: "never",
  web: { url: "", mode: "crawl", maxDepth: "3", maxPages: "100", include: "", exclude: "", keepSelectors: "", dropSelectors: "", useSitemap: true, delayMs: "200", concurrency: "2" },
  csv: { header: null, textColumns: [], titleColumn: "" },
  notion: { pages: "", databases: "", token: "" },
  youtube: { url: "" },
  text: { title: "", body: "" },
});

export type FormErrors = Partial<Record<string, string>>;

// One entry per line: CSS selectors and globs may contain commas.
const lines = (s: string) => s.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);

function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s.trim());
    return (u.protocol === "http:" || u.protocol === "https:") && !!u.hostname;
  } catch {
    return false;
  }
}

function intIn(s: string, min: number, max: number): boolean {
  return /^\d+$/.test(s.trim()) && Number(s) >= min && Number(s) <= max;
}

const YOUTUBE_HOST = /(^|\.)(youtube\.com|youtu\.be|youtube-nocookie\.com)$/i;
export function isYoutubeUrl(s: string): boolean {
  if (!isHttpUrl(s)) return false;
  const u = new URL(s.trim());
  // Local fixtures stand in for YouTube in development; their path still has to look like one.
  const local = u.hostname === "localhost" || u.hostname === "127.0.0.1";
  if (!YOUTUBE_HOST.test(u.hostname) && !local) return false;
  return u.searchParams.has("v") || u.searchParams.has("list") || /^\/(shorts\/|channel\/UC|@|embed\/|live\/)/.test(u.pathname) || (/youtu\.be$/i.test(u.hostname) && u.pathname.length > 1);
}

const NOTION_ID = /[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
/** A Notion page or database id, or a URL ending in one. */
export const isNotionRef = (s: string) => NOTION_ID.test(s);

/** Checks the fields that matter for the type. `hasFiles`: files chosen (new file sources). */
export function validateForm(form: SourceForm, opts: { hasFiles?: boolean; isNew?: boolean } = {}): FormErrors {
  const e: FormErrors = {};
  const name = form.name.trim();
  if (!name) e.name = "sources.form.error.nameRequired";
  else if (name.length > 200) e.name = "sources.form.error.nameTooLong";
  switch (form.type) {
    case "web": {
      const w = form.web;
      if (!isHttpUrl(w.url)) e["web.url"] = "sources.form.error.url";
      if (w.mode === "crawl") {
        if (!intIn(w.maxDepth, 0, 20)) e["web.maxDepth"] = "sources.form.error.depth";
        if (!intIn(w.maxPages, 1, 5000)) e["web.maxPages"] = "sources.form.error.pages";
        if (!intIn(w.delayMs, 0, 10_000)) e["web.delayMs"] = "sources.form.error.delay";
        if (!intIn(w.concurrency, 1, 8)) e["web.concurrency"] = "sources.form.error.concurrency";
      }
      break;
    }
    case "file":
      if (opts.isNew !== false && !opts.hasFiles) e.files = "sources.file.error.none";
      if (form.csv.header && form.csv.textColumns.length === 0) e["csv.textColumns"] = "sources.csv.error.noColumns";
      break;
    case "notion": {
      const refs = [...lines(form.notion.pages), ...lines(form.notion.databases)];
      if (refs.length === 0) e["notion.pages"] = "sources.notion.error.none";
      else if (refs.some((r) => !isNotionRef(r))) e["notion.pages"] = "sources.notion.error.invalid";
      break;
    }
    case "youtube":
      if (!isYoutubeUrl(form.youtube.url)) e["youtube.url"] = "sources.youtube.error.url";
      break;
    case "text":
      if (!form.text.body.trim()) e["text.body"] = "sources.text.error.body";
      break;
  }
  return e;
}

/** The data_sources.settings of the form (files come from the upload step). */
export function toSettings(form: SourceForm, files: { path: string; name: string; mime: string }[] = []): SourceSettings {
  switch (form.type) {
    case "web": {
      const w = form.web;
      const base = { url: w.url.trim(), mode: w.mode };
      if (w.mode === "single") return { ...base, keep_selectors: lines(w.keepSelectors), drop_selectors: lines(w.dropSelectors) };
      return {
        ...base,
        max_depth: Number(w.maxDepth),
        max_pages: Number(w.maxPages),
        include: lines(w.include),
        exclude: lines(w.exclude),
        keep_selectors: lines(w.keepSelectors),
        drop_selectors: lines(w.dropSelectors),
        use_sitemap: w.useSitemap,
        delay_ms: Number(w.delayMs),
        concurrency: Number(w.concurrency),
      };
    }
    case "file": {
      const out: SourceSettings = { files };
      if (form.csv.header) {
        out.text_columns = form.csv.textColumns;
        if (form.csv.titleColumn) out.title_column = form.csv.titleColumn;
      }
      return out;
    }
    case "notion":
      return { pages: lines(form.notion.pages), databases: lines(form.notion.databases) };
    case "youtube":
      return { url: form.youtube.url.trim() };
    case "text":
      return form.text.title.trim() ? { text: form.text.body, title: form.text.title.trim() } : { text: form.text.body };
  }
}

const str = (v: unknown, d = "") => (typeof v === "string" ? v : typeof v === "number" ? String(v) : d);
const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string").join("\n") : "");

/** The form of an existing source (settings back into fields). */
export function fromSource(src: { type: DataSourceType; name: string; sync_schedule: SyncSchedule; settings: Record<string, unknown> }): SourceForm {
  const f = emptyForm(src.type);
  const s = src.settings ?? {};
  f.name = src.name;
  f.schedule = src.sync_schedule;
  if (src.type === "web") {
    f.web = {
      url: str(s.url),
      mode: s.mode === "single" ? "single" : "crawl",
      maxDepth: str(s.max_depth, "3"),
      maxPages: str(s.max_pages, "100"),
      include: list(s.include),
      exclude: list(s.exclude),
      keepSelectors: list(s.keep_selectors),
      dropSelectors: list(s.drop_selectors),
      useSitemap: s.use_sitemap !== false,
      delayMs: str(s.delay_ms, "200"),
      concurrency: str(s.concurrency, "2"),
    };
  } else if (src.type === "file") {
    const cols = Array.isArray(s.text_columns) ? (s.text_columns as string[]) : [];
    f.csv = { header: cols.length ? cols : null, textColumns: cols, titleColumn: str(s.title_column) };
  } else if (src.type === "notion") {
    f.notion = { pages: list(s.pages), databases: list(s.databases), token: "" };
  } else if (src.type === "youtube") {
    f.youtube = { url: str(s.url) };
  } else if (src.type === "text") {
    f.text = { title: str(s.title), body: str(s.text) };
  }
  return f;
}

/** Files of a file source, as stored in its settings. */
export function settingsFiles(settings: Record<string, unknown>): { path: string; name: string; mime: string }[] {
  const files = settings.files;
  if (!Array.isArray(files)) return [];
  return files.filter((f): f is { path: string; name: string; mime: string } => !!f && typeof f === "object" && typeof (f as { path?: unknown }).path === "string");
}
