// `tests`: runs a bot's test cases through the answering engine and scores the answers.
//   POST /tests/bots/{botId}/runs          → 202 {run_id}   start a run (409 run_in_progress, 400 no_test_cases,
//                                            402 plan_limit when the team's monthly messages are used up)
//   POST /tests/runs/{runId}/cancel        → 200 {run_id, status, cancel_requested?}
//   POST /tests/bots/{botId}/suggestions   → 200 {created, method}  suggested cases (the bot's model, else headings and titles);
//                                            10 an hour per bot (429 rate_limited + Retry-After), 402 plan_limit over the quota
//   POST /tests/bots/{botId}/import        text/csv body (or JSON {csv}) → 200 {created, errors}
//   GET  /tests/bots/{botId}/export        → text/csv
//   POST /tests/tick                       (service role: due schedules, queued runs) → 200 {queued, processed}
// Runs and suggestions are written as the service role after public.can_manage_bot, asked as
// the caller (_shared/authorize.ts); imports and exports go through the caller's own client
// (RLS). Runs queued by SQL triggers (after a sync, after the bot's settings change) and by
// schedules are processed by /tick (supabase/schedules.json). Contracts: contracts/tests.ts.
import { requireBotManager } from "../_shared/authorize.ts";
import { callerClaims, requireVerifiedCaller } from "../_shared/caller.ts";
import { createServiceClient, createUserClient, type Db } from "../_shared/clients.ts";
import { corsHeaders } from "../_shared/cors.ts";
import type {
  TestImportAnswer,
  TestRunAnswer,
  TestRunCancelAnswer,
  TestSuggestionsAnswer,
  TestTickAnswer,
} from "../_shared/contracts/tests.ts";
import { must } from "../_shared/db.ts";
import { loadBot } from "../_shared/engine/bot.ts";
import { chooseProvider } from "../_shared/engine/provider.ts";
import { handler, HttpError, isStorableText, json, parseJson, rateLimited, readBoundedText } from "../_shared/http.ts";
import { inBackground, type Logger } from "../_shared/log.ts";
import { type CsvCase, formatCases, parseCases } from "./csv.ts";
import { consumeRateLimit, limitFromEnv } from "../_shared/rate-limit.ts";
import { processRun } from "./runner.ts";
import { suggestCases } from "./suggest.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TICK_RUNS = 5;
/** Suggestion requests per bot an hour (each asks the model up to 10 times). */
const SUGGESTIONS_PER_HOUR = 10;


const notFound = () => new HttpError(404, "not_found", "No such item");

/** 402 plan_limit (details messages_per_month) once the team's monthly messages are used up: a
 * test run and suggestions ask the bot's model outside any chat turn, so the chat's quota trigger
 * never sees them (docs/billing.md). */
async function requireMessagesLeft(service: Db, botId: string) {
  if (must(await service.rpc("message_quota_reached", { bot_id: botId }), "message quota")) {
    throw new HttpError(402, "plan_limit", "The team's messages for this month are used up. Upgrade for more.", "messages_per_month");
  }
}

async function startRun(botId: string, userId: string | null, log: Logger): Promise<string> {
  const service = createServiceClient();
  const active = must(
    await service.from("test_runs").select("id").eq("bot_id", botId).in("status", ["queued", "running"]).maybeSingle(),
    "active run",
  );
  if (active) throw new HttpError(409, "run_in_progress", "A test run of this bot is already under way", { run_id: active.id });
  const cases = await service.from("test_cases").select("id", { count: "exact", head: true }).eq("bot_id", botId).eq("status", "active");
  if (cases.error) throw new Error(`cases: ${cases.error.message}`);
  if (!cases.count) throw new HttpError(400, "no_test_cases", "This bot has no test cases yet");
  await requireMessagesLeft(service, botId);
  const inserted = await service.from("test_runs").insert({ bot_id: botId, trigger: "manual", created_by: userId }).select("id").single();
  if (inserted.error?.code === "23505") throw new HttpError(409, "run_in_progress", "A test run of this bot is already under way");
  const runId = must(inserted, "create run").id;
  inBackground(processRun(service, runId, log), log, "background_run_failed");
  return runId;
}

async function route(req: Request, { log }: { log: Logger }): Promise<Response> {
  const parts = new URL(req.url).pathname.split("/").filter(Boolean);
  const at = parts.indexOf("tests");
  const path = at >= 0 ? parts.slice(at + 1) : parts;
  const caller = await callerClaims(req);
  const service = createServiceClient();
  const id = path[1] ?? "";
  if (["bots", "runs"].includes(path[0] ?? "") && !UUID.test(id)) throw notFound();
  const method = path[0] === "bots" && path[2] === "export" ? "GET" : "POST";
  if (req.method !== method) throw new HttpError(405, "method_not_allowed", `Use ${method}`);

  if (path[0] === "bots" && path.length === 3) {
    await requireBotManager(req, id);
    switch (path[2]) {
      case "runs":
        return json(202, { run_id: await startRun(id, caller.userId, log) } satisfies TestRunAnswer);
      case "suggestions": {
        // Up to 10 model calls a request: a few requests an hour per bot, and none over the quota.
        const limit = await consumeRateLimit({ key: `test-suggestions:${id}`, max: limitFromEnv("PARLEY_TEST_SUGGESTIONS_LIMIT", SUGGESTIONS_PER_HOUR), windowSeconds: 3600 });
        if (!limit.allowed) throw rateLimited(limit.retryAfter, "Suggestions were asked for this bot too often. Try again later.");
        await requireMessagesLeft(service, id);
        const bot = await loadBot(service, id);
        const { suggestions, method } = await suggestCases(service, id, bot.language, await chooseProvider(service, bot), log);
        if (suggestions.length) {
          must(
            await service.from("test_cases").insert(
              suggestions.map((s) => ({
                ...s,
                bot_id: id,
                status: "suggested" as const,
                origin: "suggestion",
                language: bot.language,
                tags: ["suggested"],
                created_by: caller.userId,
              })),
            ),
            "suggestions",
          );
        }
        return json(200, { created: suggestions.length, method } satisfies TestSuggestionsAnswer);
      }
      case "import": {
        const bot = must(await service.from("bots").select("language").eq("id", id).single(), "bot");
        // A text/csv body, or JSON {"csv": "..."} (the app's function caller sends JSON).
        let text = await readBoundedText(req, 1024 * 1024 + 64);
        if (req.headers.get("content-type")?.includes("application/json")) {
          const body = parseJson(text);
          const csv = body && typeof body === "object" && !Array.isArray(body) ? (body as { csv?: unknown }).csv ?? "" : null;
          if (typeof csv !== "string") throw new HttpError(400, "invalid_request", 'Send {"csv": "<the CSV text>"}');
          text = csv;
        }
        if (!isStorableText(text)) {
          throw new HttpError(400, "invalid_csv", "The CSV contains characters that cannot be stored (NUL or an unpaired surrogate)");
        }
        const { rows, errors } = parseCases(text, bot.language);
        if (rows.length) {
          // As the caller: RLS decides again, and created_by is theirs.
          const res = await createUserClient(req).from("test_cases").insert(rows.map((r) => ({ ...r, bot_id: id, origin: "import" })));
          if (res.error?.code === "42501") throw notFound();
          must(res, "import");
        }
        return json(200, { created: rows.length, errors } satisfies TestImportAnswer);
      }
      case "export": {
        const cases = must(
          await createUserClient(req)
            .from("test_cases")
            .select("question, expected_answer, required_phrases, forbidden_phrases, expected_sources, tags, language, history")
            .eq("bot_id", id)
            .eq("status", "active")
            .order("created_at")
            .limit(5000),
          "export",
        );
        return new Response(formatCases(cases as unknown as CsvCase[]), {
          headers: {
            "content-type": "text/csv; charset=utf-8",
            "content-disposition": `attachment; filename="test-cases-${id}.csv"`,
            ...corsHeaders,
          },
        });
      }
    }
  }

  if (path[0] === "runs" && path[2] === "cancel" && path.length === 3) {
    const run = must(await service.from("test_runs").select("id, bot_id, status").eq("id", id).maybeSingle(), "run");
    if (!run) throw notFound();
    await requireBotManager(req, run.bot_id);
    if (run.status === "queued") {
      // Nobody took it yet: it ends here.
      const ended = must(
        await service.from("test_runs").update({ status: "cancelled", cancel_requested: true, finished_at: new Date().toISOString() })
          .eq("id", run.id).eq("status", "queued").select("status").maybeSingle(),
        "cancel",
      );
      if (ended) return json(200, { run_id: run.id, status: "cancelled", cancel_requested: true } satisfies TestRunCancelAnswer);
    }
    if (run.status !== "queued" && run.status !== "running") {
      return json(200, { run_id: run.id, status: run.status } satisfies TestRunCancelAnswer);
    }
    must(await service.from("test_runs").update({ cancel_requested: true }).eq("id", run.id), "cancel");
    return json(200, { run_id: run.id, status: "running", cancel_requested: true } satisfies TestRunCancelAnswer);
  }

  if (path[0] === "tick" && path.length === 1) {
    if (caller.role !== "service_role") throw new HttpError(403, "forbidden", "Only the scheduler may call /tick");
    const queued = Number(must(await service.rpc("enqueue_scheduled_test_runs"), "schedules"));
    const waiting = must(
      await service.from("test_runs").select("id").eq("status", "queued").order("created_at").limit(TICK_RUNS),
      "queued runs",
    );
    const processed: string[] = [];
    // One at a time: each run answers its cases concurrently already.
    for (const run of waiting) if (await processRun(service, run.id, log)) processed.push(run.id);
    return json(200, { queued, processed } satisfies TestTickAnswer);
  }

  throw new HttpError(404, "not_found", "No such route");
}

Deno.serve(handler("tests", route, { verifyCaller: requireVerifiedCaller }));
