// Data source forms (validation, CSV column picking, upload then insert then sync), the
// progress bar from ingestion job rows, and merging realtime job events.
import { describe, expect, it, vi, beforeEach } from "vitest";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { IntlProvider } from "react-intl";
import type { ReactNode } from "react";
import shared from "../src/i18n/messages/en.json";
import sources from "../src/i18n/messages/sources/en.json";
import errors from "../src/i18n/messages/errors/en.json";

const BOT = "6f1c1a4e-9a56-4e55-8a39-0d3c3c1d9a11";
const SOURCE = "0b6c9a53-8e0e-4a44-a7a5-9ad3a1c1d2e3";
const inserts: Record<string, unknown>[] = [];
let insertError: { code: string; message: string } | null = null;

vi.mock("../src/lib/supabase", () => ({
  getSupabase: () => ({
    auth: { getSession: async () => ({ data: { session: { access_token: "user-token", user: { id: "u1" } } } }) },
    from: (table: string) => ({
      insert: (row: Record<string, unknown>) => {
        inserts.push({ table, ...row });
        const single = async () => (insertError ? { data: null, error: insertError } : { data: { id: SOURCE, ...row, status: "idle", document_count: 0, chunk_count: 0 }, error: null });
        return { select: () => ({ single }) };
      },
    }),
  }),
}));
vi.mock("../src/lib/config", () => ({ getConfig: () => ({ supabaseUrl: "http://api.test", supabaseAnonKey: "anon", apiBaseUrl: "http://api.test/functions/v1" }) }));

import { NewSourceForm } from "../src/features/knowledge/NewSourceForm";
import { JobProgress } from "../src/features/knowledge/JobProgress";
import { checkFile, MAX_FILE_BYTES, storagePath } from "../src/features/knowledge/files";
import { csvHeader, parseCsvRows } from "../src/features/knowledge/csv";
import { emptyForm, fromSource, toSettings, validateForm } from "../src/features/knowledge/form";
import { applyJobEvent } from "../src/data/ingestionJobs/use-live-jobs";
import { ingestionJobKeys } from "../src/data/ingestionJobs/keys";
import { mergeJob, type IngestionJob } from "../src/data/ingestionJobs/types";
import { isJobStaleAfterSource, isStaleAfterJob } from "../src/data/ingestionJobs/use-stale-source-check";
import { ToastProvider } from "../src/components/ui";

const messages = { ...shared, ...sources, ...errors } as Record<string, string>;

function wrap(children: ReactNode, client = new QueryClient({ defaultOptions: { queries: { retry: false } } })) {
  return (
    <IntlProvider locale="en" messages={messages}>
      <QueryClientProvider client={client}>
        <ToastProvider>{children}</ToastProvider>
      </QueryClientProvider>
    </IntlProvider>
  );
}

const fetchCalls: { url: string; init: RequestInit }[] = [];
beforeEach(() => {
  inserts.length = 0;
  insertError = null;
  fetchCalls.length = 0;
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    fetchCalls.push({ url, init });
    return new Response(JSON.stringify({ job_id: "job-1" }), { status: 202, headers: { "content-type": "application/json" } });
  });
});

function job(p: Partial<IngestionJob>): IngestionJob {
  return {
    id: "j1", data_source_id: SOURCE, bot_id: BOT, status: "running", trigger: "manual", progress_done: 0, progress_total: 0, errors: [], cancel_requested: false,
    started_at: "2026-11-21T10:00:00Z", finished_at: null, created_at: "2026-11-21T10:00:00Z", updated_at: "2026-11-21T10:00:01Z", ...p,
  };
}

describe("new data source form", { timeout: 20_000 }, () => {
  it("shows what is missing and sends nothing", async () => {
    const onCreated = vi.fn();
    render(wrap(<NewSourceForm botId={BOT} onCreated={onCreated} />));
    await userEvent.click(screen.getByRole("button", { name: "Add and start syncing" }));
    expect(await screen.findByText("Give this source a name.")).toBeInTheDocument();
    expect(screen.getByText("Enter a full web address starting with http:// or https://.")).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText("Link depth"));
    await userEvent.type(screen.getByLabelText("Link depth"), "99");
    await userEvent.type(screen.getByLabelText("Start URL"), "ftp://example.com");
    await userEvent.click(screen.getByRole("button", { name: "Add and start syncing" }));
    expect(await screen.findByText("The depth must be a whole number from 0 to 20.")).toBeInTheDocument();
    expect(screen.getByLabelText("Start URL")).toHaveAttribute("aria-invalid", "true");
    expect(inserts).toEqual([]);
    expect(onCreated).not.toHaveBeenCalled();
  });

  it("creates a web source through supabase-js and starts its sync with the user's token", async () => {
    const onCreated = vi.fn();
    render(wrap(<NewSourceForm botId={BOT} onCreated={onCreated} />));
    await userEvent.type(screen.getByLabelText("Name", { exact: true }), "Docs");
    await userEvent.type(screen.getByLabelText("Start URL"), "https://docs.example.com/");
    await userEvent.click(screen.getByText("Crawl rules and content selectors"));
    await userEvent.type(screen.getByLabelText("Only URLs matching"), "/docs/**");
    await userEvent.selectOptions(screen.getByLabelText("Sync automatically"), "weekly");
    await userEvent.click(screen.getByRole("button", { name: "Add and start syncing" }));
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith(SOURCE, false));
    expect(inserts).toEqual([
      {
        table: "data_sources", bot_id: BOT, type: "web", name: "Docs", sync_schedule: "weekly", created_by: "u1",
        settings: { url: "https://docs.example.com/", mode: "crawl", max_depth: 3, max_pages: 100, include: ["/docs/**"], exclude: [], keep_selectors: [], drop_selectors: [], use_sitemap: true, delay_ms: 200, concurrency: 2 },
      },
    ]);
    expect(fetchCalls).toHaveLength(1);
    expect(fetchCalls[0]!.url).toBe(`http://api.test/functions/v1/ingest/sources/${SOURCE}/sync`);
    expect(new Headers(fetchCalls[0]!.init.headers).get("authorization")).toBe("Bearer user-token");
    expect(JSON.parse(String(fetchCalls[0]!.init.body))).toEqual({ trigger: "create" });
  });

  it("sets the crawl's politeness delay and pages at once, refusing values the crawler would not take", async () => {
    const onCreated = vi.fn();
    render(wrap(<NewSourceForm botId={BOT} onCreated={onCreated} />));
    await userEvent.type(screen.getByLabelText("Name", { exact: true }), "Docs");
    await userEvent.type(screen.getByLabelText("Start URL"), "https://docs.example.com/");
    await userEvent.click(screen.getByText("Crawl rules and content selectors"));
    expect(screen.getByLabelText("Delay between requests (ms)")).toHaveValue(200);
    expect(screen.getByLabelText("Pages at once")).toHaveValue(2);
    await userEvent.clear(screen.getByLabelText("Delay between requests (ms)"));
    await userEvent.type(screen.getByLabelText("Delay between requests (ms)"), "20000");
    await userEvent.clear(screen.getByLabelText("Pages at once"));
    await userEvent.type(screen.getByLabelText("Pages at once"), "9");
    await userEvent.click(screen.getByRole("button", { name: "Add and start syncing" }));
    expect(await screen.findByText("The delay must be a whole number of milliseconds from 0 to 10,000.")).toBeInTheDocument();
    expect(screen.getByText("Pages at once must be a whole number from 1 to 8.")).toBeInTheDocument();
    expect(screen.getByLabelText("Pages at once")).toHaveAttribute("aria-invalid", "true");
    expect(inserts).toEqual([]);

    await userEvent.clear(screen.getByLabelText("Delay between requests (ms)"));
    await userEvent.type(screen.getByLabelText("Delay between requests (ms)"), "500");
    await userEvent.clear(screen.getByLabelText("Pages at once"));
    await userEvent.type(screen.getByLabelText("Pages at once"), "4");
    await userEvent.click(screen.getByRole("button", { name: "Add and start syncing" }));
    await waitFor(() => expect(onCreated).toHaveBeenCalled());
    expect(inserts[0]!.settings).toMatchObject({ mode: "crawl", delay_ms: 500, concurrency: 4 });
  });

  it("shows a permission error from RLS", async () => {
    insertError = { code: "42501", message: 'new row violates row-level security policy for table "data_sources"' };
    render(wrap(<NewSourceForm botId={BOT} initialType="text" onCreated={vi.fn()} />));
    await userEvent.type(screen.getByLabelText("Name", { exact: true }), "Notes");
    await userEvent.type(screen.getByLabelText("Text"), "Opening hours are nine to five.");
    await userEvent.click(screen.getByRole("button", { name: "Add and start syncing" }));
    expect(await screen.findByText("You are not allowed to do this.")).toBeInTheDocument();
    expect(screen.queryByText(/row-level security/)).toBeNull();
    expect(fetchCalls).toHaveLength(0);
  });

  it("previews a CSV header, lets the user pick text and title columns, uploads with progress, then creates", async () => {
    const uploads: { path: string; mime: string }[] = [];
    const upload = vi.fn(async (path: string, _file: Blob, mime: string, onProgress: (f: number) => void) => {
      uploads.push({ path, mime });
      onProgress(0.5);
      onProgress(1);
    });
    const onCreated = vi.fn();
    render(wrap(<NewSourceForm botId={BOT} initialType="file" onCreated={onCreated} upload={upload} />));
    const csv = new File(['sku,"Product name",description,price\nA1,Lamp,"Warm, amber light",20\n'], "products.csv", { type: "text/csv" });
    expect(screen.getByRole("button", { name: "Choose files" })).toHaveAccessibleDescription("No files chosen CSV, PDF, Word (.docx), Markdown or text, up to 20 MB each.");
    await userEvent.upload(screen.getByLabelText("Files to upload"), csv);
    expect(screen.getByRole("button", { name: "Choose files" })).toHaveAccessibleDescription(/^1 file chosen/);
    const cols = await screen.findByRole("group", { name: "Columns to use as text" });
    const boxes = within(cols).getAllByRole("checkbox");
    expect(boxes.map((b) => b.parentElement?.textContent)).toEqual(["sku", "Product name", "description", "price"]);
    expect(boxes.every((b) => (b as HTMLInputElement).checked)).toBe(true);
    expect(screen.getByLabelText("Name", { exact: true })).toHaveValue("products.csv");

    // no text column is an error
    for (const b of boxes) await userEvent.click(b);
    await userEvent.click(screen.getByRole("button", { name: "Add and start syncing" }));
    expect(await screen.findByText("Pick at least one text column.")).toBeInTheDocument();
    expect(upload).not.toHaveBeenCalled();

    await userEvent.click(within(cols).getByLabelText("description"));
    await userEvent.click(within(cols).getByLabelText("Product name"));
    await userEvent.selectOptions(screen.getByLabelText("Title column"), "Product name");
    await userEvent.click(screen.getByRole("button", { name: "Add and start syncing" }));
    await waitFor(() => expect(onCreated).toHaveBeenCalled());
    expect(uploads).toHaveLength(1);
    expect(uploads[0]!.path).toMatch(new RegExp(`^${BOT}/[0-9a-f-]{36}-products\\.csv$`));
    expect(uploads[0]!.mime).toBe("text/csv");
    expect(inserts[0]!.settings).toEqual({
      files: [{ path: uploads[0]!.path, name: "products.csv", mime: "text/csv" }],
      text_columns: ["Product name", "description"],
      title_column: "Product name",
    });
  });

  it("refuses unsupported and oversized files before uploading", async () => {
    const upload = vi.fn();
    render(wrap(<NewSourceForm botId={BOT} initialType="file" onCreated={vi.fn()} upload={upload} />));
    const exe = new File(["MZ"], "setup.exe", { type: "application/octet-stream" });
    await userEvent.upload(screen.getByLabelText("Files to upload"), exe, { applyAccept: false });
    expect(await screen.findByText(/setup\.exe: this file type is not supported/)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Name", { exact: true }), "x");
    await userEvent.click(screen.getByRole("button", { name: "Add and start syncing" }));
    expect(await screen.findByText("Remove the files that cannot be used first.")).toBeInTheDocument();
    expect(upload).not.toHaveBeenCalled();
    expect(checkFile({ name: "big.pdf", size: MAX_FILE_BYTES + 1 })).toBe("sources.file.error.size");
    expect(checkFile({ name: "ok.MD", size: 10 })).toBeNull();
    expect(checkFile({ name: "empty.txt", size: 0 })).toBe("sources.file.error.empty");
  });
});

describe("form model", () => {
  it("validates each type", () => {
    const yt = { ...emptyForm("youtube"), name: "Talks" };
    expect(validateForm({ ...yt, youtube: { url: "https://example.com/watch?v=1" } })).toHaveProperty("youtube.url");
    expect(validateForm({ ...yt, youtube: { url: "https://www.youtube.com/@parley" } })).toEqual({});
    expect(validateForm({ ...yt, youtube: { url: "https://youtu.be/dQw4w9WgXcQ" } })).toEqual({});
    const notion = { ...emptyForm("notion"), name: "Wiki" };
    expect(validateForm(notion)).toEqual({ "notion.pages": "sources.notion.error.none" });
    expect(validateForm({ ...notion, notion: { pages: "not a page", databases: "", token: "" } })).toEqual({ "notion.pages": "sources.notion.error.invalid" });
    const ok = { ...notion, notion: { pages: "https://www.notion.so/Handbook-0123456789abcdef0123456789abcdef", databases: "", token: "" } };
    expect(validateForm(ok)).toEqual({});
    expect(toSettings(ok)).toEqual({ pages: ["https://www.notion.so/Handbook-0123456789abcdef0123456789abcdef"], databases: [] });
    const single = { ...emptyForm("web"), name: "Page", web: { ...emptyForm().web, url: "https://a.example/x", mode: "single" as const, maxDepth: "nope" } };
    expect(validateForm(single)).toEqual({});
    expect(toSettings(single)).toEqual({ url: "https://a.example/x", mode: "single", keep_selectors: [], drop_selectors: [] });
    // delay and pages at once: checked for crawls only, and read back from stored settings
    const crawl = { ...emptyForm("web"), name: "Site", web: { ...emptyForm().web, url: "https://a.example/" } };
    expect(validateForm({ ...crawl, web: { ...crawl.web, delayMs: "-1", concurrency: "0" } })).toEqual({ "web.delayMs": "sources.form.error.delay", "web.concurrency": "sources.form.error.concurrency" });
    expect(validateForm({ ...crawl, web: { ...crawl.web, delayMs: "0", concurrency: "8" } })).toEqual({});
    expect(validateForm({ ...single, web: { ...single.web, concurrency: "99" } })).toEqual({});
    const stored = fromSource({ type: "web", name: "Site", sync_schedule: "never", settings: { url: "https://a.example/", delay_ms: 1500, concurrency: 3 } });
    expect([stored.web.delayMs, stored.web.concurrency]).toEqual(["1500", "3"]);
    expect(toSettings(stored)).toMatchObject({ delay_ms: 1500, concurrency: 3 });
    expect(fromSource({ type: "web", name: "Old", sync_schedule: "never", settings: { url: "https://a.example/" } }).web).toMatchObject({ delayMs: "200", concurrency: "2" });
  });

  it("parses CSV headers with quotes and other delimiters", () => {
    expect(csvHeader('\uFEFFa;"b;c";d\n1;2;3')).toEqual(["a", "b;c", "d"]);
    expect(parseCsvRows('x,y\n"multi\nline",2\n', 5)).toEqual([["x", "y"], ["multi\nline", "2"]]);
    expect(storagePath(BOT, "../Résumé 2026?.pdf", "u")).toBe(`${BOT}/u-Re_sume_2026_.pdf`);
  });
});

describe("progress bar from ingestion job rows", () => {
  it("shows done of total while running", () => {
    render(wrap(<JobProgress job={job({ progress_done: 3, progress_total: 12 })} />));
    const bar = screen.getByRole("progressbar", { name: "Sync progress" });
    expect(bar).toHaveAttribute("aria-valuenow", "25");
    expect(screen.getByText("3 of 12 documents")).toBeInTheDocument();
  });

  it("is indeterminate before the total is known and full when done", () => {
    const { rerender } = render(wrap(<JobProgress job={job({ status: "queued" })} />));
    expect(screen.getByRole("progressbar")).not.toHaveAttribute("aria-valuenow");
    expect(screen.getByText("Waiting to start")).toBeInTheDocument();
    rerender(wrap(<JobProgress job={job({ status: "succeeded", progress_done: 12, progress_total: 12 })} />));
    expect(screen.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
    expect(screen.getByText("Done")).toBeInTheDocument();
    rerender(wrap(<JobProgress job={job({ status: "running", progress_done: 2, progress_total: 4, cancel_requested: true })} />));
    expect(screen.getByText("Cancelling…")).toBeInTheDocument();
  });

  it("merges realtime rows into the cached lists, ignoring stale events", () => {
    const qc = new QueryClient();
    qc.setQueryData(ingestionJobKeys.byBot(BOT), [job({ progress_done: 1, progress_total: 4 })]);
    qc.setQueryData(ingestionJobKeys.bySource(SOURCE), [job({ progress_done: 1, progress_total: 4 })]);
    applyJobEvent(qc, job({ progress_done: 3, progress_total: 4, updated_at: "2026-11-21T10:00:03Z" }));
    applyJobEvent(qc, job({ progress_done: 2, progress_total: 4, updated_at: "2026-11-21T10:00:02Z" })); // late
    const list = qc.getQueryData<IngestionJob[]>(ingestionJobKeys.bySource(SOURCE))!;
    expect(list).toHaveLength(1);
    expect(list[0]!.progress_done).toBe(3);
    const next = mergeJob(list, job({ id: "j2", created_at: "2026-11-21T11:00:00Z", updated_at: "2026-11-21T11:00:00Z", status: "queued" }));
    expect(next.map((j) => j.id)).toEqual(["j2", "j1"]);
  });

  it("rereads a source whose row says syncing after its job finished", () => {
    const done = job({ status: "succeeded", finished_at: "2026-11-21T10:00:05Z" });
    expect(isStaleAfterJob({ status: "running", updated_at: "2026-11-21T10:00:01Z" }, done)).toBe(true);
    expect(isStaleAfterJob({ status: "ready", updated_at: "2026-11-21T10:00:06Z" }, done)).toBe(false);
    expect(isStaleAfterJob({ status: "ready", updated_at: "2026-11-21T10:00:02Z" }, done)).toBe(true);
    expect(isStaleAfterJob({ status: "running", updated_at: "2026-11-21T10:00:01Z" }, job({ status: "running" }))).toBe(false);
  });

  it("rereads a job that still says running after its source finished (the job is written last)", () => {
    const running = job({ status: "running", created_at: "2026-11-21T10:00:00Z" });
    expect(isJobStaleAfterSource({ status: "ready", last_synced_at: "2026-11-21T10:00:05Z" }, running)).toBe(true);
    expect(isJobStaleAfterSource({ status: "error", last_synced_at: "2026-11-21T10:00:05Z" }, running)).toBe(true);
    // the previous sync's time: this job has not finished yet
    expect(isJobStaleAfterSource({ status: "ready", last_synced_at: "2026-11-20T09:00:00Z" }, running)).toBe(false);
    expect(isJobStaleAfterSource({ status: "running", last_synced_at: "2026-11-21T10:00:05Z" }, running)).toBe(false);
    expect(isJobStaleAfterSource({ status: "ready", last_synced_at: "2026-11-21T10:00:05Z" }, job({ status: "succeeded" }))).toBe(false);
  });
});
