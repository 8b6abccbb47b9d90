// The sync engine: runs one ingestion job for a data source with the service
// client. Readers emit documents; unchanged ones (same content hash) are
// skipped, changed ones re-chunked (old chunks deleted first), and documents not
// seen in a completed run are removed, so re-syncing never duplicates chunks.
import type { SupabaseClient } from "npm:@supabase/supabase-js@2.119.1";
import { chunkText } from "../_shared/knowledge/chunk.ts";
import { embedTexts, embeddingConfigForTeam, type EmbeddingConfig } from "../_shared/knowledge/embeddings.ts";
import { fileToDocuments } from "../_shared/knowledge/files.ts";
import { readNotion } from "../_shared/knowledge/notion.ts";
import { type DocumentInput, type SourceContext, SourceError } from "../_shared/knowledge/types.ts";
import { crawlWeb } from "../_shared/knowledge/web.ts";
import { readYoutube } from "../_shared/knowledge/youtube.ts";
import { parseSettings } from "./settings.ts";

export interface JobError {
  url: string;
  code: string;
  message: string;
  level: "error" | "warning";
}

const MAX_ERRORS = 500;
const MAX_CONTENT_CHARS = 2_000_000;
const CHUNK_BATCH = 200;

export async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Failures that say nothing about whether the document still exists. */
export function isTransient(code: string): boolean {
  return /^(timeout|network_error|dns_failed|http_5\d\d|http_429|notion_error|notion_unreachable|youtube_error|youtube_unreachable)$/.test(
    code,
  );
}

export function nextSyncAt(schedule: string, from = new Date()): string | null {
  const d = new Date(from);
  if (schedule === "daily") d.setUTCDate(d.getUTCDate() + 1);
  else if (schedule === "weekly") d.setUTCDate(d.getUTCDate() + 7);
  else if (schedule === "monthly") d.setUTCMonth(d.getUTCMonth() + 1);
  else return null;
  return d.toISOString();
}

function log(msg: string, extra: Record<string, unknown> = {}) {
  console.log(JSON.stringify({ level: "info", fn: "ingest", msg, ...extra }));
}

// deno-lint-ignore no-explicit-any
type Row = Record<string, any>;

// deno-lint-ignore no-explicit-any
/** The data of a supabase-js call, or an Error naming what failed. Rows from .single() are never null. */
async function must<T = any>(
  p: PromiseLike<{ data: T | null; error: { message: string } | null }>,
  what: string,
): Promise<T> {
  const { data, error } = await p;
  if (error) throw new Error(`${what}: ${error.message}`);
  return data as T;
}

/** Creates a job row for the source; the caller runs it (in the background). */
export async function createJob(
  service: SupabaseClient,
  source: { id: string; bot_id: string },
  trigger: "manual" | "schedule" | "create",
  createdBy: string | null,
): Promise<string> {
  const job = await must<Row>(
    service
      .from("ingestion_jobs")
      .insert({ data_source_id: source.id, bot_id: source.bot_id, trigger, created_by: createdBy, status: "queued" })
      .select("id")
      .single(),
    "create job",
  );
  await service.from("data_sources").update({ status: "queued", error: null }).eq("id", source.id);
  return job.id as string;
}

/** The unfinished job of a source, if any; a job silent for 15 minutes is declared failed. */
export async function activeJob(service: SupabaseClient, sourceId: string): Promise<string | null> {
  const { data } = await service
    .from("ingestion_jobs")
    .select("id, updated_at")
    .eq("data_source_id", sourceId)
    .in("status", ["queued", "running"]);
  for (const job of data ?? []) {
    if (Date.now() - Date.parse(job.updated_at) < 15 * 60_000) return job.id;
    await service
      .from("ingestion_jobs")
      .update({
        status: "failed",
        finished_at: new Date().toISOString(),
        errors: [{ url: "", code: "stalled", message: "The job stopped reporting progress", level: "error" }],
      })
      .eq("id", job.id);
  }
  return null;
}

export async function runJob(
  service: SupabaseClient,
  jobId: string,
  options: { allowPrivate?: boolean } = {},
): Promise<void> {
  const job = await must<Row>(service.from("ingestion_jobs").select("*").eq("id", jobId).single(), "load job");
  const source = await must<Row>(
    service.from("data_sources").select("*").eq("id", job.data_source_id).single(),
    "load source",
  );
  const bot = await must<Row>(
    service.from("bots").select("id, team_id, language").eq("id", source.bot_id).single(),
    "load bot",
  );
  const startedAt = new Date().toISOString();
  await service.from("ingestion_jobs").update({ status: "running", started_at: startedAt }).eq("id", jobId);
  await service.from("data_sources").update({ status: "running", error: null }).eq("id", source.id);
  log("job started", { job_id: jobId, data_source_id: source.id, type: source.type });

  const errors: JobError[] = [];
  const seen = new Set<string>();
  const existing = new Map<string, { id: string; content_hash: string | null }>();
  for (let from = 0; ; from += 1000) {
    const page = await must(
      service
        .from("documents")
        .select("id, url, content_hash")
        .eq("data_source_id", source.id)
        .order("id")
        .range(from, from + 999),
      "load documents",
    );
    for (const d of page as { id: string; url: string; content_hash: string | null }[]) existing.set(d.url, d);
    if ((page as unknown[]).length < 1000) break;
  }

  let embedding: EmbeddingConfig | null = null;
  try {
    embedding = await embeddingConfigForTeam(service, bot.team_id);
  } catch {
    embedding = null;
  }

  let cancelled = false;
  let lastCancelCheck = 0;
  let lastProgress = 0;
  let stored = 0;
  let skipped = 0;
  const record = (level: JobError["level"], url: string, code: string, message: string) => {
    if (errors.length < MAX_ERRORS) errors.push({ url, code, message: message.slice(0, 500), level });
  };

  const storeDocument = async (doc: DocumentInput) => {
    const url = doc.url.slice(0, 4096);
    if (seen.has(url)) return;
    seen.add(url);
    const text = doc.text.replace(/\u0000/g, "").trim();
    if (!text) return void record("warning", url, "empty", "No text found to import");
    const title = (doc.title || url).replace(/\s+/g, " ").trim().slice(0, 1000);
    const hash = await sha256(`${title}\n${text}`);
    const prior = existing.get(url);
    if (prior && prior.content_hash === hash) {
      skipped++;
      return;
    }
    const saved = await must<Row>(
      service
        .from("documents")
        .upsert(
          {
            data_source_id: source.id,
            bot_id: source.bot_id,
            title,
            url,
            language: doc.language ?? null,
            content_hash: null, // set once the chunks are in, so an interrupted write is redone next time
            size_bytes: doc.sizeBytes ?? new TextEncoder().encode(text).byteLength,
            status: "ready",
            error: null,
            content: text.slice(0, MAX_CONTENT_CHARS),
            metadata: doc.metadata ?? {},
          },
          { onConflict: "data_source_id,url" },
        )
        .select("id")
        .single(),
      "save document",
    );
    const documentId = saved.id as string;
    await must(service.from("chunks").delete().eq("document_id", documentId), "delete old chunks");
    const chunks = chunkText(text, { title });
    for (let i = 0; i < chunks.length; i += CHUNK_BATCH) {
      const batch = chunks.slice(i, i + CHUNK_BATCH);
      const vectors = embedding
        ? await embedTexts(
            embedding,
            batch.map((c) => `${c.heading_path}\n${c.content}`),
          )
        : null;
      const rows = batch.map((c, j) => ({
        document_id: documentId,
        bot_id: source.bot_id,
        position: c.position,
        heading_path: c.heading_path,
        content: c.content,
        token_count: c.token_count,
        ...(vectors ? { embedding: JSON.stringify(vectors[j]) } : {}),
      }));
      await must(service.from("chunks").insert(rows), "insert chunks");
    }
    await must(service.from("documents").update({ content_hash: hash }).eq("id", documentId), "save hash");
    existing.set(url, { id: documentId, content_hash: hash });
    stored++;
  };

  const ctx: SourceContext = {
    botLanguage: bot.language,
    allowPrivate: options.allowPrivate,
    emit: storeDocument,
    fail: (url, code, message) => {
      record("error", url, code, message);
      // A document we already have survives a passing failure (timeout, 5xx);
      // a definite answer (404, missing file) lets it be removed as vanished.
      if (isTransient(code) && existing.has(url)) seen.add(url);
    },
    warn: (url, code, message) => record("warning", url, code, message),
    async progress(done, total) {
      const now = Date.now();
      if (now - lastProgress < 300 && done < total) return;
      lastProgress = now;
      await service
        .from("ingestion_jobs")
        .update({ progress_done: done, progress_total: Math.max(total, done) })
        .eq("id", jobId);
    },
    async cancelled() {
      if (cancelled) return true;
      const now = Date.now();
      if (now - lastCancelCheck < 300) return false;
      lastCancelCheck = now;
      const { data } = await service.from("ingestion_jobs").select("cancel_requested").eq("id", jobId).single();
      cancelled = !!data?.cancel_requested;
      return cancelled;
    },
  };

  let fatal: { code: string; message: string } | null = null;
  try {
    const settings = parseSettings(source.type, source.settings);
    switch (settings.type) {
      case "web":
        await crawlWeb(settings.settings, ctx);
        break;
      case "text":
        await storeDocument({
          url: `text:${source.id}`,
          title: settings.settings.title || source.name,
          text: settings.settings.text,
        });
        await ctx.progress(1, 1);
        break;
      case "file":
        await readFiles(service, { id: source.id, bot_id: source.bot_id }, settings.settings, ctx);
        break;
      case "notion": {
        const { data: secret } = await service
          .from("data_source_secrets")
          .select("notion_access_token")
          .eq("data_source_id", source.id)
          .maybeSingle();
        await readNotion(settings.settings, secret?.notion_access_token ?? null, ctx);
        break;
      }
      case "youtube":
        await readYoutube(settings.settings, ctx);
        break;
    }
    if (!cancelled) cancelled = await ctx.cancelled();
  } catch (e) {
    fatal =
      e instanceof SourceError || (e as { code?: string }).code
        ? { code: (e as SourceError).code, message: (e as Error).message }
        : { code: "internal_error", message: "The import stopped on an unexpected error" };
    if (fatal.code === "internal_error")
      console.error(
        JSON.stringify({ level: "error", fn: "ingest", job_id: jobId, error: String((e as Error)?.stack ?? e) }),
      );
    record("error", "", fatal.code, fatal.message);
  }

  // Remove documents that vanished, only after a run that saw the whole source
  // (not when it read nothing at all: a site that is down keeps its knowledge).
  const hardErrors = errors.filter((e) => e.level === "error").length;
  const readNothing = seen.size === 0 && hardErrors > 0;
  let removed = 0;
  if (!fatal && !cancelled && !readNothing) {
    const gone = [...existing.entries()].filter(([url]) => !seen.has(url)).map(([, d]) => d.id);
    for (let i = 0; i < gone.length; i += 100) {
      await must(
        service
          .from("documents")
          .delete()
          .in("id", gone.slice(i, i + 100)),
        "remove vanished documents",
      );
    }
    removed = gone.length;
  }

  const { count: documentCount } = await service
    .from("documents")
    .select("id", { count: "exact", head: true })
    .eq("data_source_id", source.id);
  const { count: chunkCount } = await service
    .from("chunks")
    .select("id, documents!inner(data_source_id)", { count: "exact", head: true })
    .eq("documents.data_source_id", source.id);
  const status = cancelled ? "cancelled" : fatal || readNothing ? "failed" : "succeeded";
  const finishedAt = new Date().toISOString();
  const { data: progress } = await service
    .from("ingestion_jobs")
    .select("progress_done, progress_total")
    .eq("id", jobId)
    .single();
  // The source first, then the job: whoever sees the job finished also sees the source's final state.
  const { data: fresh } = await service.from("data_sources").select("sync_schedule").eq("id", source.id).maybeSingle();
  await service
    .from("data_sources")
    .update({
      status: status === "succeeded" ? "ready" : status === "cancelled" ? "cancelled" : "error",
      error:
        status === "failed"
          ? (fatal?.message ?? errors.find((e) => e.level === "error")?.message ?? "The import failed")
          : null,
      last_synced_at: finishedAt,
      next_sync_at: nextSyncAt(fresh?.sync_schedule ?? source.sync_schedule),
      document_count: documentCount ?? 0,
      chunk_count: chunkCount ?? 0,
    })
    .eq("id", source.id);
  await service
    .from("ingestion_jobs")
    .update({
      status,
      finished_at: finishedAt,
      errors,
      ...(status === "succeeded" ? { progress_done: progress?.progress_total ?? 0 } : {}),
    })
    .eq("id", jobId);
  log("job finished", { job_id: jobId, status, stored, skipped, removed, errors: errors.length });
}

async function readFiles(
  service: SupabaseClient,
  source: { id: string; bot_id: string },
  settings: {
    files: { path: string; name?: string; mime?: string | null }[];
    text_columns?: string[];
    title_column?: string;
  },
  ctx: SourceContext,
) {
  let done = 0;
  for (const file of settings.files) {
    if (await ctx.cancelled()) return;
    const name = file.name || file.path.split("/").pop() || file.path;
    try {
      // Under the bot's folder, with no segment that could climb out of it (also encoded).
      const segments = file.path.split("/");
      if (
        !file.path.startsWith(`${source.bot_id}/`) ||
        segments.some((seg) => {
          let plain = seg;
          try {
            plain = decodeURIComponent(seg);
          } catch {
            return true;
          }
          return plain === "." || plain === ".." || plain.includes("/") || plain.includes("\\");
        })
      ) {
        throw new SourceError("forbidden_path", "Files must be uploaded under the bot's folder");
      }
      const { data, error } = await service.storage.from("data-sources").download(file.path);
      if (error || !data) throw new SourceError("file_not_found", `${name} was not found in storage`);
      const bytes = new Uint8Array(await data.arrayBuffer());
      const docs = await fileToDocuments(bytes, { path: file.path, name, mime: file.mime }, settings);
      for (const doc of docs) {
        if (await ctx.cancelled()) return;
        await ctx.emit(doc);
      }
    } catch (e) {
      ctx.fail(file.path, (e as SourceError).code ?? "file_error", (e as Error).message);
    }
    await ctx.progress(++done, settings.files.length);
  }
}
