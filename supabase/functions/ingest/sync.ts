// The job runner: one ingestion job for a data source, with the service client, as four
// named stages (stages/):
//   load   the job, source, bot, existing documents, embeddings provider; mark running
//   read   the source's reader (_shared/knowledge/readers/) emits documents
//   store  each document: hash (unchanged: skipped), chunk, embed, insert
//   finish remove vanished documents, write the source's and the job's final state
// Re-syncing never duplicates chunks: a document's identity is its url within the source.
import type { Db } from "../_shared/clients.ts";
import type { Json } from "../_shared/database.types.ts";
import { must } from "../_shared/db.ts";
import { type SourceContext, SourceError } from "../_shared/knowledge/readers/types.ts";
import { createLogger, describe, type Logger } from "../_shared/log.ts";
import { isTransient } from "./schedule.ts";
import { finishJob, type JobError } from "./stages/finish.ts";
import { loadJob } from "./stages/load.ts";
import { readSource } from "./stages/read.ts";
import { storeDocument } from "./stages/store.ts";

export { isTransient, nextSyncAt } from "./schedule.ts";
export type { JobError } from "./stages/finish.ts";

const MAX_ERRORS = 500;
/** A job silent this long is declared failed. */
const STALLED_MS = 15 * 60_000;

/** Creates a job row for the source; the caller runs it (in the background). */
export async function createJob(
  service: Db,
  source: { id: string; bot_id: string },
  trigger: "manual" | "schedule" | "create",
  createdBy: string | null,
): Promise<string> {
  const job = must(
    await service
      .from("ingestion_jobs")
      .insert({ data_source_id: source.id, bot_id: source.bot_id, trigger, created_by: createdBy, status: "queued" })
      .select("id")
      .single(),
    "create job",
  );
  must(await service.from("data_sources").update({ status: "queued", error: null }).eq("id", source.id), "queue source");
  return job.id;
}

/** The unfinished job of a source, if any; a job silent for 15 minutes is declared failed. */
export async function activeJob(service: Db, sourceId: string): Promise<string | null> {
  const jobs = must(
    await service.from("ingestion_jobs").select("id, updated_at").eq("data_source_id", sourceId).in("status", [
      "queued",
      "running",
    ]),
    "active job",
  );
  for (const job of jobs ?? []) {
    if (Date.now() - Date.parse(job.updated_at) < STALLED_MS) return job.id;
    const stalled: JobError = { url: "", code: "stalled", message: "The job stopped reporting progress", level: "error" };
    must(
      await service
        .from("ingestion_jobs")
        .update({ status: "failed", finished_at: new Date().toISOString(), errors: [stalled] as unknown as Json[] })
        .eq("id", job.id),
      "fail stalled job",
    );
  }
  return null;
}

export async function runJob(
  service: Db,
  jobId: string,
  options: { allowPrivate?: boolean; log?: Logger } = {},
): Promise<void> {
  const log = options.log ?? createLogger("ingest").with({ job_id: jobId });
  const loaded = await loadJob(service, jobId);
  const { source } = loaded;
  log.info("job_started", { data_source_id: source.id, type: source.type });

  const errors: JobError[] = [];
  const seen = new Set<string>();
  let cancelled = false;
  let lastCancelCheck = 0;
  let lastProgress = 0;
  const counts = { stored: 0, unchanged: 0 };
  const record = (level: JobError["level"], url: string, code: string, message: string) => {
    if (errors.length < MAX_ERRORS) errors.push({ url, code, message: message.slice(0, 500), level });
  };

  const ctx: SourceContext = {
    botLanguage: loaded.bot.language,
    allowPrivate: options.allowPrivate,
    async emit(doc) {
      const url = doc.url.slice(0, 4096);
      if (seen.has(url)) return;
      seen.add(url);
      const result = await storeDocument(service, loaded, url, doc);
      if (result === "empty") record("warning", url, "empty", "No text found to import");
      else counts[result]++;
    },
    fail: (url, code, message) => {
      record("error", url, code, message);
      // A document we already have survives a passing failure (timeout, 5xx);
      // a definite answer (404, missing file) lets it be removed as vanished.
      if (isTransient(code) && loaded.existing.has(url)) seen.add(url);
    },
    warn: (url, code, message) => record("warning", url, code, message),
    previous(url) {
      const d = loaded.existing.get(url);
      // an interrupted write (no hash yet) is read again in full
      return d?.content_hash
        ? { etag: d.etag, lastModified: d.last_modified, links: d.links ?? [], fetchedAt: d.fetched_at }
        : undefined;
    },
    unchanged(url) {
      if (seen.has(url) || !loaded.existing.has(url)) return;
      seen.add(url);
      counts.unchanged++;
    },
    async progress(done, total) {
      const now = Date.now();
      if (now - lastProgress < 300 && done < total) return;
      lastProgress = now;
      await service.from("ingestion_jobs").update({ progress_done: done, progress_total: Math.max(total, done) }).eq(
        "id",
        jobId,
      );
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
    await readSource(service, loaded, ctx);
    if (!cancelled) cancelled = await ctx.cancelled();
  } catch (e) {
    const code = e instanceof SourceError ? e.code : (e as { code?: unknown }).code;
    fatal = typeof code === "string" && code
      ? { code, message: (e as Error).message }
      : { code: "internal_error", message: "The import stopped on an unexpected error" };
    if (fatal.code === "internal_error") log.error("job_failed", { error: describe(e) });
    record("error", "", fatal.code, fatal.message);
  }

  const { status, removed } = await finishJob(service, loaded, { seen, errors, fatal, cancelled });
  log.info("job_finished", { status, stored: counts.stored, skipped: counts.unchanged, removed, errors: errors.length });
}
