// `ingest`: imports data sources into the bot's knowledge (documents + chunks)
// as jobs that run in the background and report progress in ingestion_jobs.
//   POST /ingest/sources/{id}/sync      {trigger?: "manual"|"create"}  → 202 {job_id}
//   POST /ingest/jobs/{id}/cancel                                       → 200 {job_id, status}
//   POST /ingest/jobs/{id}/retry                                        → 202 {job_id}
//   POST /ingest/documents/{id}/reingest                                → 202 {job_id}
//   POST /ingest/notion/token           {data_source_id, access_token | connection_id} → 200 {ok: true}
//   POST /ingest/tick                   (service role: due schedules)   → 200 {started: [...]}
// Every route writes as the service role after public.can_manage_bot, asked as the caller,
// confirms the caller is an admin or owner of the bot's team (_shared/authorize.ts). Anyone
// else, a platform administrator included, gets 404. Bodies and answers: contracts/ingest.ts.
import { z } from "npm:zod@3.25.76";
import { requireBotManager } from "../_shared/authorize.ts";
import { callerClaims, requireVerifiedCaller } from "../_shared/caller.ts";
import { createServiceClient } from "../_shared/clients.ts";
import type {
  IngestCancelAnswer,
  IngestJobAnswer,
  IngestSyncRequest,
  IngestTickAnswer,
  NotionTokenAnswer,
  NotionTokenRequest,
} from "../_shared/contracts/ingest.ts";
import { must } from "../_shared/db.ts";
import { handler, HttpError, json } from "../_shared/http.ts";
import { readBody } from "../_shared/knowledge/request.ts";
import { claimConnection } from "../_shared/knowledge/notion-connections.ts";
import { inBackground, type Logger } from "../_shared/log.ts";
import { activeJob, createJob, nextSyncAt, runJob } from "./sync.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;


async function startSync(
  source: { id: string; bot_id: string },
  trigger: "manual" | "schedule" | "create",
  userId: string | null,
  log: Logger,
) {
  const service = createServiceClient();
  const running = await activeJob(service, source.id);
  if (running) throw new HttpError(409, "sync_in_progress", "This data source is already syncing", { job_id: running });
  const jobId = await createJob(service, source, trigger, userId);
  inBackground(runJob(service, jobId, { log: log.with({ job_id: jobId }) }), log, "background_job_failed");
  return jobId;
}

const notFound = () => new HttpError(404, "not_found", "No such item");

/** A data source, job or document the caller may change (an admin or owner of its bot's team), else 404. */
async function writable<T extends { bot_id: string }>(req: Request, row: T | null): Promise<T> {
  if (!row) throw notFound();
  await requireBotManager(req, row.bot_id);
  return row;
}

const syncBody = z.object({ trigger: z.enum(["manual", "create"]).default("manual") }).strict() satisfies z.ZodType<
  IngestSyncRequest,
  z.ZodTypeDef,
  unknown
>;
// A pasted token, or a connection made through Notion's OAuth (notion-connect).
const tokenBody = z.union([
  z.object({ data_source_id: z.string().regex(UUID), access_token: z.string().min(1).max(2000) }).strict(),
  z.object({ data_source_id: z.string().regex(UUID), connection_id: z.string().regex(UUID) }).strict(),
]) satisfies z.ZodType<NotionTokenRequest, z.ZodTypeDef, unknown>;

async function route(req: Request, { log }: { log: Logger }): Promise<Response> {
  const url = new URL(req.url);
  const parts = url.pathname.split("/").filter(Boolean);
  const at = parts.indexOf("ingest");
  const path = at >= 0 ? parts.slice(at + 1) : parts;
  if (req.method !== "POST") throw new HttpError(405, "method_not_allowed", "Use POST");
  const caller = await callerClaims(req);
  const service = createServiceClient();
  const id = path[1] ?? "";
  if (["sources", "jobs", "documents"].includes(path[0] ?? "") && !UUID.test(id)) throw notFound();

  if (path[0] === "sources" && path[2] === "sync" && path.length === 3) {
    const { trigger } = await readBody(req, syncBody);
    const source = await writable(req, must(await service.from("data_sources").select("id, bot_id").eq("id", id).maybeSingle(), "data source"));
    const answer: IngestJobAnswer = { job_id: await startSync(source, trigger, caller.userId, log) };
    return json(202, answer);
  }

  if (path[0] === "jobs" && path.length === 3 && (path[2] === "cancel" || path[2] === "retry")) {
    const job = await writable(req, must(await service.from("ingestion_jobs").select("id, data_source_id, bot_id, status").eq("id", id).maybeSingle(), "job"));
    if (path[2] === "cancel") {
      if (job.status !== "queued" && job.status !== "running") {
        return json(200, { job_id: job.id, status: job.status } satisfies IngestCancelAnswer);
      }
      must(await service.from("ingestion_jobs").update({ cancel_requested: true }).eq("id", job.id), "cancel");
      return json(200, { job_id: job.id, status: job.status, cancel_requested: true } satisfies IngestCancelAnswer);
    }
    if (job.status === "queued" || job.status === "running") {
      throw new HttpError(409, "sync_in_progress", "The job is still running", { job_id: job.id });
    }
    const answer: IngestJobAnswer = {
      job_id: await startSync({ id: job.data_source_id, bot_id: job.bot_id }, "manual", caller.userId, log),
    };
    return json(202, answer);
  }

  if (path[0] === "documents" && path[2] === "reingest" && path.length === 3) {
    const doc = await writable(req, must(await service.from("documents").select("id, data_source_id, bot_id").eq("id", id).maybeSingle(), "document"));
    // Forgetting the hash makes the next run re-read and re-chunk this document.
    must(await service.from("documents").update({ content_hash: null }).eq("id", doc.id), "reingest");
    const answer: IngestJobAnswer = {
      job_id: await startSync({ id: doc.data_source_id, bot_id: doc.bot_id }, "manual", caller.userId, log),
    };
    return json(202, answer);
  }

  if (path[0] === "notion" && path[1] === "token" && path.length === 2) {
    const input = await readBody(req, tokenBody);
    const source = await writable(req, must(await service.from("data_sources").select("id, bot_id, type").eq("id", input.data_source_id).maybeSingle(), "data source"));
    if (source.type !== "notion") throw new HttpError(400, "not_notion", "This data source is not a Notion source");
    if ("connection_id" in input) {
      if (!caller.userId) throw new HttpError(401, "not_signed_in", "Sign in to use a Notion connection");
      await claimConnection(service, input.connection_id, caller.userId, source.id);
      return json(200, { ok: true } satisfies NotionTokenAnswer);
    }
    must(
      await service
        .from("data_source_secrets")
        .upsert({ data_source_id: source.id, notion_access_token: input.access_token }, { onConflict: "data_source_id" }),
      "store token",
    );
    return json(200, { ok: true } satisfies NotionTokenAnswer);
  }

  if (path[0] === "tick" && path.length === 1) {
    if (caller.role !== "service_role") throw new HttpError(403, "forbidden", "Only the scheduler may call /tick");
    const due = must(
      await service
        .from("data_sources")
        .select("id, bot_id, sync_schedule")
        .neq("sync_schedule", "never")
        .lte("next_sync_at", new Date().toISOString())
        .not("status", "in", "(queued,running)")
        .order("next_sync_at")
        .limit(20),
      "tick",
    );
    const started: IngestTickAnswer["started"] = [];
    for (const source of due ?? []) {
      must(
        await service.from("data_sources").update({ next_sync_at: nextSyncAt(source.sync_schedule) }).eq("id", source.id),
        "schedule",
      );
      try {
        started.push({ data_source_id: source.id, job_id: await startSync(source, "schedule", null, log) });
      } catch (e) {
        if (!(e instanceof HttpError)) throw e;
      }
    }
    return json(200, { started } satisfies IngestTickAnswer);
  }

  throw new HttpError(404, "not_found", "No such route");
}

Deno.serve(handler("ingest", route, { verifyCaller: requireVerifiedCaller }));
