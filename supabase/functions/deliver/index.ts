// `deliver`: the webhook delivery worker.
//   POST /deliver/tick   {now?: ISO time}   (service role: the scheduler)  → 200 {claimed, succeeded, failed, disabled}
// Run every 10 seconds by the local stack (supabase/schedules.json) and every minute by pg_cron
// on hosted Supabase (private.schedule_function_ticks, migration 20261127020000). Each
// tick passes until nothing is due or 40 seconds went by. `now` moves the worker's clock (tests
// of retries); only the service role may call. Owners and admins act through RPCs instead:
// send_test_webhook, redeliver_webhook, redeliver_failed_webhooks, get/rotate_webhook_secret.
import { z } from "npm:zod@3.25.76";
import { callerClaims, requireVerifiedCaller } from "../_shared/caller.ts";
import { createServiceClient } from "../_shared/clients.ts";
import { handler, HttpError, json, readJson } from "../_shared/http.ts";
import { deliverDue, type TickResult } from "./worker.ts";

const tickBody = z.object({ now: z.string().datetime({ offset: true }).optional() }).strict();
const TICK_BUDGET_MS = 40_000;

Deno.serve(
  handler("deliver", async (req, { log }) => {
    const parts = new URL(req.url).pathname.split("/").filter(Boolean);
    const path = parts.slice(parts.indexOf("deliver") + 1);
    if (req.method !== "POST") throw new HttpError(405, "method_not_allowed", "Use POST");
    if (path.length !== 1 || path[0] !== "tick") throw new HttpError(404, "not_found", "No such route");
    if ((await callerClaims(req)).role !== "service_role") throw new HttpError(403, "forbidden", "Only the scheduler may call /tick");
    const parsed = tickBody.safeParse(await readJson(req, 1024));
    if (!parsed.success) throw new HttpError(400, "invalid_request", parsed.error.issues[0]?.message ?? "Invalid request");
    const now = parsed.data.now ? new Date(parsed.data.now) : undefined;
    const service = createServiceClient();
    const total: TickResult = { claimed: 0, succeeded: 0, failed: 0, disabled: [] };
    const started = Date.now();
    // Another pass while the last one delivered something: the next event of each endpoint is due now.
    for (;;) {
      const r = await deliverDue(service, { now, log });
      total.claimed += r.claimed;
      total.succeeded += r.succeeded;
      total.failed += r.failed;
      total.disabled.push(...r.disabled);
      if (r.succeeded === 0 || Date.now() - started > TICK_BUDGET_MS) break;
    }
    return json(200, total);
  }, { verifyCaller: requireVerifiedCaller }),
);
