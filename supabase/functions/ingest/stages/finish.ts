// Stage 4: finish. Remove documents that vanished (only after a run that saw the whole source,
// and not when it read nothing at all: a site that is down keeps its knowledge), then write the
// source's final state and, last, the job's: whoever sees the job finished also sees the source.
import type { Db } from "../../_shared/clients.ts";
import type { Enums, Json } from "../../_shared/database.types.ts";
import { must } from "../../_shared/db.ts";
import { nextSyncAt } from "../schedule.ts";
import type { LoadedJob } from "./load.ts";

export interface JobError {
  url: string;
  code: string;
  message: string;
  level: "error" | "warning";
}

export interface RunOutcome {
  /** urls the readers emitted (or whose transient failure keeps the existing document). */
  seen: Set<string>;
  errors: JobError[];
  fatal: { code: string; message: string } | null;
  cancelled: boolean;
}

export async function finishJob(
  service: Db,
  { job, source, existing }: LoadedJob,
  outcome: RunOutcome,
): Promise<{ status: Enums<"ingestion_job_status">; removed: number }> {
  const { seen, errors, fatal, cancelled } = outcome;
  const hardErrors = errors.filter((e) => e.level === "error").length;
  const readNothing = seen.size === 0 && hardErrors > 0;
  let removed = 0;
  if (!fatal && !cancelled && !readNothing) {
    const gone = [...existing.entries()].filter(([url]) => !seen.has(url)).map(([, d]) => d.id);
    for (let i = 0; i < gone.length; i += 100) {
      must(await service.from("documents").delete().in("id", gone.slice(i, i + 100)), "remove vanished documents");
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
  const status: Enums<"ingestion_job_status"> = cancelled ? "cancelled" : fatal || readNothing ? "failed" : "succeeded";
  const finishedAt = new Date().toISOString();
  const progress = must(
    await service.from("ingestion_jobs").select("progress_done, progress_total").eq("id", job.id).single(),
    "job progress",
  );
  const fresh = must(await service.from("data_sources").select("sync_schedule").eq("id", source.id).maybeSingle(), "schedule");
  must(
    await service
      .from("data_sources")
      .update({
        status: status === "succeeded" ? "ready" : status === "cancelled" ? "cancelled" : "error",
        error: status === "failed"
          ? (fatal?.message ?? errors.find((e) => e.level === "error")?.message ?? "The import failed")
          : null,
        last_synced_at: finishedAt,
        next_sync_at: nextSyncAt(fresh?.sync_schedule ?? source.sync_schedule),
        document_count: documentCount ?? 0,
        chunk_count: chunkCount ?? 0,
      })
      .eq("id", source.id),
    "finish source",
  );
  must(
    await service
      .from("ingestion_jobs")
      .update({
        status,
        finished_at: finishedAt,
        errors: errors as unknown as Json[],
        ...(status === "succeeded" ? { progress_done: progress.progress_total ?? 0 } : {}),
      })
      .eq("id", job.id),
    "finish job",
  );
  return { status, removed };
}
