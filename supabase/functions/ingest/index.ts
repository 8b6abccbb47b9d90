// `ingest`: imports data sources into the bot's knowledge (documents + chunks)
// as jobs that run in the background and report progress in ingestion_jobs.
//   POST /ingest/sources/{id}/sync      {trigger?: "manual"|"create"}  → 202 {job_id}
//   POST /ingest/jobs/{id}/cancel                                       → 200 {job_id, status}
//   POST /ingest/jobs/{id}/retry                                        → 202 {job_id}
//   POST /ingest/documents/{id}/reingest                                → 202 {job_id}
//   POST /ingest/notion/token           {data_source_id, access_token | connection_id} → 200 {ok: true}
//   POST /ingest/tick                   (service role: due schedules)   → 200 {started: [...]}
// Callers are checked by reading the row with their own client (RLS decides;
// hidden means 404); the work itself uses the service client.
import { z } from "npm:zod@3.25.76";
import { createServiceClient, createUserClient } from "../_shared/clients.ts";
import { bearerToken, handler, HttpError, json } from "../_shared/http.ts";
import { readBody } from "../_shared/knowledge/request.ts";
import { claimConnection } from "../_shared/knowledge/notion-connections.ts";
import { activeJob, createJob, nextSyncAt, runJob } from "./sync.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Claims of the (gateway-verified) bearer token. */
function claims(req: Request): Record<string, unknown> {
  const token = bearerToken(req);
  const payload = token?.split(".")[1];
  if (!payload) return {};
  try {
    return JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/")));
  } catch {
    return {};
  }
}

/** Keeps the work alive after the answer: EdgeRuntime.waitUntil on hosted Supabase, a plain promise locally. */
function inBackground(work: Promise<unknown>) {
  const guarded = work.catch((e) =>
    console.error(
      JSON.stringify({
        level: "error",
        fn: "ingest",
        msg: "background job failed",
        error: String((e as Error)?.stack ?? e),
      }),
    ),
  );
  // deno-lint-ignore no-explicit-any
  const runtime = (globalThis as any).EdgeRuntime;
  if (runtime?.waitUntil) runtime.waitUntil(guarded);
}

async function startSync(
  source: { id: string; bot_id: string },
  trigger: "manual" | "schedule" | "create",
  userId: string | null,
) {
  const service = createServiceClient();
  const running = await activeJob(service, source.id);
  if (running) throw new HttpError(409, "sync_in_progress", "This data source is already syncing", { job_id: running });
  const jobId = await createJob(service, source, trigger, userId);
  inBackground(runJob(service, jobId));
  return jobId;
}

async function visibleRow(req: Request, table: string, id: string, columns: string) {
  if (!UUID.test(id)) throw new HttpError(404, "not_found", "No such item");
  const { data, error } = await createUserClient(req).from(table).select(columns).eq("id", id).maybeSingle();
  if (error && error.code !== "PGRST116") {
    if (error.code === "42501") throw new HttpError(404, "not_found", "No such item");
    throw new Error(`${table}: ${error.message}`);
  }
  if (!data) throw new HttpError(404, "not_found", "No such item");
  return data as unknown as Record<string, string>;
}

const syncBody = z.object({ trigger: z.enum(["manual", "create"]).default("manual") }).strict();
// A pasted token, or a connection made through Notion's OAuth (notion-connect).
const tokenBody = z.union([
  z.object({ data_source_id: z.string().regex(UUID), access_token: z.string().min(1).max(2000) }).strict(),
  z.object({ data_source_id: z.string().regex(UUID), connection_id: z.string().regex(UUID) }).strict(),
]);

async function route(req: Request): Promise<Response> {
  const url = new URL(req.url);
  const parts = url.pathname.split("/").filter(Boolean);
  const at = parts.indexOf("ingest");
  const path = at >= 0 ? parts.slice(at + 1) : parts;
  if (req.method !== "POST") throw new HttpError(405, "method_not_allowed", "Use POST");
  const userId = typeof claims(req).sub === "string" ? (claims(req).sub as string) : null;

  if (path[0] === "sources" && path[2] === "sync" && path.length === 3) {
    const { trigger } = await readBody(req, syncBody);
    const source = await visibleRow(req, "data_sources", path[1], "id, bot_id");
    return json(202, { job_id: await startSync({ id: source.id, bot_id: source.bot_id }, trigger, userId) });
  }

  if (path[0] === "jobs" && path.length === 3 && (path[2] === "cancel" || path[2] === "retry")) {
    const job = await visibleRow(req, "ingestion_jobs", path[1], "id, data_source_id, bot_id, status");
    const service = createServiceClient();
    if (path[2] === "cancel") {
      if (job.status !== "queued" && job.status !== "running") return json(200, { job_id: job.id, status: job.status });
      await service.from("ingestion_jobs").update({ cancel_requested: true }).eq("id", job.id);
      return json(200, { job_id: job.id, status: job.status, cancel_requested: true });
    }
    if (job.status === "queued" || job.status === "running") {
      throw new HttpError(409, "sync_in_progress", "The job is still running", { job_id: job.id });
    }
    return json(202, { job_id: await startSync({ id: job.data_source_id, bot_id: job.bot_id }, "manual", userId) });
  }

  if (path[0] === "documents" && path[2] === "reingest" && path.length === 3) {
    const doc = await visibleRow(req, "documents", path[1], "id, data_source_id, bot_id");
    // Forgetting the hash makes the next run re-read and re-chunk this document.
    await createServiceClient().from("documents").update({ content_hash: null }).eq("id", doc.id);
    return json(202, { job_id: await startSync({ id: doc.data_source_id, bot_id: doc.bot_id }, "manual", userId) });
  }

  if (path[0] === "notion" && path[1] === "token" && path.length === 2) {
    const input = await readBody(req, tokenBody);
    const source = await visibleRow(req, "data_sources", input.data_source_id, "id, type");
    if (source.type !== "notion") throw new HttpError(400, "not_notion", "This data source is not a Notion source");
    if ("connection_id" in input) {
      if (!userId) throw new HttpError(401, "not_signed_in", "Sign in to use a Notion connection");
      await claimConnection(createServiceClient(), input.connection_id, userId, source.id);
      return json(200, { ok: true });
    }
    const { error } = await createServiceClient()
      .from("data_source_secrets")
      .upsert({ data_source_id: source.id, notion_access_token: input.access_token }, { onConflict: "data_source_id" });
    if (error) throw new Error(`store token: ${error.message}`);
    return json(200, { ok: true });
  }

  if (path[0] === "tick" && path.length === 1) {
    if (claims(req).role !== "service_role") throw new HttpError(403, "forbidden", "Only the scheduler may call /tick");
    const service = createServiceClient();
    const { data: due, error } = await service
      .from("data_sources")
      .select("id, bot_id, sync_schedule")
      .neq("sync_schedule", "never")
      .lte("next_sync_at", new Date().toISOString())
      .not("status", "in", "(queued,running)")
      .order("next_sync_at")
      .limit(20);
    if (error) throw new Error(`tick: ${error.message}`);
    const started: { data_source_id: string; job_id: string }[] = [];
    for (const source of due ?? []) {
      await service
        .from("data_sources")
        .update({ next_sync_at: nextSyncAt(source.sync_schedule) })
        .eq("id", source.id);
      try {
        started.push({ data_source_id: source.id, job_id: await startSync(source, "schedule", null) });
      } catch (e) {
        if (!(e instanceof HttpError)) throw e;
      }
    }
    return json(200, { started });
  }

  throw new HttpError(404, "not_found", "No such route");
}

Deno.serve(handler(route));
