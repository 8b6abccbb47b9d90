// `tasks`: runs bots' scheduled tasks (digest, ask, sync, test).
//   POST /tasks/tick        {now?: ISO time}  (service role: the scheduler) → 200 {runs: [{run_id, task_id, ok}], scheduled}
//   POST /tasks/{id}/run                      (an admin or owner of the bot) → 200 {run_id, status, output, error}
//                                             (status "running" for a test task: its test run ends it)
//   POST /tasks/validate    {cron, timezone}  (signed in) → 200 {ok, next_runs: [ISO×3]} | 400 invalid_request {field: "cron"}
// Run every minute by the local stack (supabase/schedules.json) and by pg_cron on hosted
// Supabase (private.schedule_function_ticks, migration 20261127020000).
// A tick: (1) gives enabled cron tasks without a next run their next slot after `now`, (2) claims
// the due ones exactly once (public.claim_due_tasks: for update skip locked; a late task runs
// once), (3) schedules the claimed cron tasks' next slot after `now`, (4) runs them.
// `now` moves the clock (tests); only the service role may tick.
import { z } from "npm:zod@3.25.76";
import { requireBotManager } from "../_shared/authorize.ts";
import { callerClaims, requireVerifiedCaller } from "../_shared/caller.ts";
import { createServiceClient, type Db } from "../_shared/clients.ts";
import { must } from "../_shared/db.ts";
import { handler, HttpError, json, rateLimited, readJson } from "../_shared/http.ts";
import { describe, type Logger } from "../_shared/log.ts";
import { runTask, TASK_COLUMNS, type TaskRow } from "./run.ts";
import { cronProblem, nextRunAfter } from "./schedule.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const tickBody = z.object({ now: z.string().datetime({ offset: true }).optional() }).strict();
const validateBody = z.object({ cron: z.string().min(1).max(120), timezone: z.string().min(1).max(64) }).strict();

function background(log: Logger) {
  return (work: Promise<unknown>) => {
    const guarded = work.catch((e) => log.error("background_job_failed", { error: describe(e) }));
    (globalThis as { EdgeRuntime?: { waitUntil?: (p: Promise<unknown>) => void } }).EdgeRuntime?.waitUntil?.(guarded);
  };
}

/** Gives enabled cron tasks without a next run their first slot after `at`. */
async function scheduleCron(service: Db, at: Date, log: Logger): Promise<number> {
  const tasks = must(
    await service.from("tasks").select("id, cron, timezone, every_hours").eq("enabled", true).is("next_run_at", null).not("cron", "is", null).limit(500),
    "unscheduled tasks",
  );
  for (const t of tasks) {
    const next = nextRunAfter(t, at);
    if (!next) {
      log.warn("task_bad_cron", { task_id: t.id });
      must(await service.from("tasks").update({ enabled: false }).eq("id", t.id), "disable task");
      continue;
    }
    // only if still unscheduled: a concurrent tick may have done it
    must(await service.from("tasks").update({ next_run_at: next.toISOString() }).eq("id", t.id).is("next_run_at", null), "schedule task");
  }
  return tasks.length;
}

async function tick(req: Request, log: Logger) {
  if ((await callerClaims(req)).role !== "service_role") throw new HttpError(403, "forbidden", "Only the scheduler may call /tick");
  const parsed = tickBody.safeParse(await readJson(req, 1024));
  if (!parsed.success) throw new HttpError(400, "invalid_request", parsed.error.issues[0]?.message ?? "Invalid request");
  const at = parsed.data.now ? new Date(parsed.data.now) : new Date();
  const service = createServiceClient();
  let scheduled = await scheduleCron(service, at, log);
  const claimed = must(await service.rpc("claim_due_tasks", { at_time: at.toISOString(), max_tasks: 20 }), "claim tasks");
  scheduled += await scheduleCron(service, at, log);
  const runs: { run_id: string; task_id: string; ok: boolean }[] = [];
  for (const c of claimed) {
    const task = must(await service.from("tasks").select(TASK_COLUMNS).eq("id", c.task_id).single(), "task") as TaskRow;
    const r = await runTask(service, task, c.run_id, at, log.with({ run_id: c.run_id }), background(log));
    runs.push({ run_id: c.run_id, task_id: c.task_id, ok: r.ok });
  }
  return json(200, { runs, scheduled });
}

async function runNow(req: Request, id: string, log: Logger) {
  const service = createServiceClient();
  const task = must(await service.from("tasks").select(TASK_COLUMNS).eq("id", id).maybeSingle(), "task") as TaskRow | null;
  if (!task) throw new HttpError(404, "not_found", "No such item");
  await requireBotManager(req, task.bot_id);
  // A person may start at most 10 runs a minute per task (ask runs spend the bot's provider).
  const limit = must(await service.rpc("consume_rate_limit", { key: `task-run:${task.id}`, max_hits: 10, window_seconds: 60 }), "rate limit")[0];
  if (limit && !limit.allowed) throw rateLimited(limit.retry_after);
  const run = must(
    await service.from("task_runs").insert({ task_id: task.id, bot_id: task.bot_id, trigger: "manual", created_by: (await callerClaims(req)).userId })
      .select("id").single(),
    "start run",
  );
  const r = await runTask(service, task, run.id, new Date(), log.with({ run_id: run.id }), background(log));
  return json(200, { run_id: run.id, status: r.status, output: r.output, error: r.error });
}

Deno.serve(
  handler("tasks", async (req, { log }) => {
    const parts = new URL(req.url).pathname.split("/").filter(Boolean);
    const path = parts.slice(parts.indexOf("tasks") + 1);
    if (req.method !== "POST") throw new HttpError(405, "method_not_allowed", "Use POST");
    if (path.length === 1 && path[0] === "tick") return await tick(req, log);
    if (path.length === 1 && path[0] === "validate") {
      if (!(await callerClaims(req)).userId) throw new HttpError(401, "session_required", "Sign in to continue.");
      const parsed = validateBody.safeParse(await readJson(req, 1024));
      if (!parsed.success) throw new HttpError(400, "invalid_request", parsed.error.issues[0]?.message ?? "Invalid request");
      const problem = cronProblem(parsed.data.cron, parsed.data.timezone);
      if (problem) throw new HttpError(400, "invalid_request", problem, { field: "cron" });
      const next: string[] = [];
      let from = new Date();
      for (let i = 0; i < 3; i++) {
        const n = nextRunAfter({ cron: parsed.data.cron, timezone: parsed.data.timezone, every_hours: null }, from);
        if (!n) break;
        next.push(n.toISOString());
        from = n;
      }
      return json(200, { ok: true, next_runs: next });
    }
    if (path.length === 2 && path[1] === "run" && UUID.test(path[0])) return await runNow(req, path[0], log);
    throw new HttpError(404, "not_found", "No such route");
  }, { verifyCaller: requireVerifiedCaller }),
);
