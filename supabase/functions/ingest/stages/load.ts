// Stage 1: load. The job, its data source and bot, the documents the source already has
// (url → id, content hash and HTTP validators, to skip unchanged ones and remove vanished ones) and the team's
// embeddings provider; then the job and the source are marked running.
import type { Db } from "../../_shared/clients.ts";
import type { Tables } from "../../_shared/database.types.ts";
import { must } from "../../_shared/db.ts";
import { type EmbeddingConfig, embeddingConfigForTeam } from "../../_shared/knowledge/embeddings.ts";

export type ExistingDocument = Pick<Tables<"documents">, "id" | "content_hash" | "etag" | "last_modified" | "links" | "fetched_at" | "navigation">;

export interface LoadedJob {
  job: Tables<"ingestion_jobs">;
  source: Tables<"data_sources">;
  bot: Pick<Tables<"bots">, "id" | "team_id" | "language">;
  /** The source's documents by url. */
  existing: Map<string, ExistingDocument>;
  embedding: EmbeddingConfig | null;
}

export async function loadJob(service: Db, jobId: string): Promise<LoadedJob> {
  const job = must(await service.from("ingestion_jobs").select("*").eq("id", jobId).single(), "load job");
  const source = must(await service.from("data_sources").select("*").eq("id", job.data_source_id).single(), "load source");
  const bot = must(await service.from("bots").select("id, team_id, language").eq("id", source.bot_id).single(), "load bot");

  const existing = new Map<string, ExistingDocument>();
  for (let from = 0;; from += 1000) {
    const page = must(
      await service
        .from("documents")
        .select("id, url, content_hash, etag, last_modified, links, fetched_at, navigation")
        .eq("data_source_id", source.id)
        .order("id")
        .range(from, from + 999),
      "load documents",
    );
    for (const { url, ...d } of page) existing.set(url, d);
    if (page.length < 1000) break;
  }
  const embedding = await embeddingConfigForTeam(service, bot.team_id).catch(() => null);

  const startedAt = new Date().toISOString();
  must(await service.from("ingestion_jobs").update({ status: "running", started_at: startedAt }).eq("id", jobId), "start job");
  must(await service.from("data_sources").update({ status: "running", error: null }).eq("id", source.id), "start source");
  return { job, source, bot, existing, embedding };
}
