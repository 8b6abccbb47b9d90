// `power-ups`: the test console of an HTTP power-up, and a team's replies and hand-back in a chat
// that was handed to a person. Contract: _shared/contracts/power-ups.ts; README.md.
// Authorisation is SQL's: can_manage_bot (test), reply_as_human and hand_back_chat (as the caller).
import { z } from "npm:zod@3.25.76";
import { requireBotManager } from "../_shared/authorize.ts";
import { requireUserId, requireVerifiedCaller } from "../_shared/caller.ts";
import { createServiceClient, createUserClient } from "../_shared/clients.ts";
import type { HandoffAnswer, HandoffBackRequest, HandoffReplyRequest, PowerUpTestAnswer, PowerUpTestRequest } from "../_shared/contracts/power-ups.ts";
import { dbFailure, must } from "../_shared/db.ts";
import { handler, HttpError, json, rateLimited, readJson } from "../_shared/http.ts";
import { consumeRateLimit } from "../_shared/rate-limit.ts";
import { runHttpAction } from "../_shared/powerUps/http.ts";
import { httpSettings } from "../_shared/powerUps/settings.ts";

const testSchema = z.object({
  power_up_id: z.string().uuid(),
  arguments: z.record(z.unknown()).default({}),
  settings: z.record(z.unknown()).optional(),
}).strict() satisfies z.ZodType<PowerUpTestRequest, z.ZodTypeDef, unknown>;
const replySchema = z.object({
  chat_id: z.string().uuid(),
  content: z.string().trim().min(1).max(10000),
}).strict() satisfies z.ZodType<HandoffReplyRequest, z.ZodTypeDef, unknown>;
const backSchema = z.object({ chat_id: z.string().uuid() }).strict() satisfies z.ZodType<HandoffBackRequest, z.ZodTypeDef, unknown>;

function parse<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, body: unknown): T {
  const r = schema.safeParse(body);
  if (!r.success) throw new HttpError(400, "invalid_request", r.error.issues[0]?.message ?? "Invalid request", r.error.issues);
  return r.data;
}

/** SQLSTATEs the handoff RPCs raise. */
function rpcError(error: { code?: string; message: string; hint?: string }, what: string): Error {
  if (error.code === "PT404") return new HttpError(404, "chat_not_found", "Chat not found");
  if (error.code === "42501") return new HttpError(403, "forbidden", error.message);
  if (error.code === "22023") return new HttpError(400, "invalid_request", error.message);
  return dbFailure(error, what);
}

async function testAction(req: Request): Promise<Response> {
  const userId = await requireUserId(req);
  const body = parse(testSchema, await readJson(req));
  const user = createUserClient(req);
  const row = must(await user.from("power_ups").select("id, bot_id, type, settings").eq("id", body.power_up_id).maybeSingle(), "power-up");
  if (!row) throw new HttpError(404, "power_up_not_found", "Power-up not found");
  await requireBotManager(req, row.bot_id);
  if (row.type !== "http") throw new HttpError(400, "power_up_not_http", "Only HTTP actions can be tested here");
  const settings = httpSettings.safeParse(body.settings ?? row.settings);
  if (!settings.success) throw new HttpError(400, "invalid_settings", settings.error.issues[0]?.message ?? "Invalid settings", settings.error.issues);
  const limit = await consumeRateLimit({ key: `power-up-test:${userId}`, max: 30, windowSeconds: 60 });
  if (!limit.allowed) throw rateLimited(limit.retryAfter, "Too many test runs. Wait a minute.");
  // Secrets are read as the service role only after SQL said the caller manages the bot.
  const secrets = must(await createServiceClient().from("power_up_secrets").select("name, value").eq("power_up_id", row.id), "secrets");
  const r = await runHttpAction(settings.data, body.arguments, Object.fromEntries(secrets.map((s) => [s.name, s.value])));
  return json(200, {
    ok: r.ok,
    error_code: r.errorCode,
    request: r.request,
    status: r.status,
    output: r.output,
    duration_ms: r.durationMs,
  } satisfies PowerUpTestAnswer);
}

async function reply(req: Request): Promise<Response> {
  await requireUserId(req);
  const body = parse(replySchema, await readJson(req));
  const res = await createUserClient(req).rpc("reply_as_human", { chat_id: body.chat_id, content: body.content });
  if (res.error) throw rpcError(res.error, "reply_as_human");
  return json(200, { ok: true, message_id: res.data as string } satisfies HandoffAnswer);
}

async function handBack(req: Request): Promise<Response> {
  await requireUserId(req);
  const body = parse(backSchema, await readJson(req));
  const res = await createUserClient(req).rpc("hand_back_chat", { chat_id: body.chat_id });
  if (res.error) throw rpcError(res.error, "hand_back_chat");
  return json(200, { ok: true } satisfies HandoffAnswer);
}

Deno.serve(
  handler("power-ups", (req) => {
    const route = new URL(req.url).pathname.split("/").filter(Boolean).pop();
    if (req.method !== "POST") throw new HttpError(405, "method_not_allowed", "Use POST");
    switch (route) {
      case "test":
        return testAction(req);
      case "reply":
        return reply(req);
      case "hand-back":
        return handBack(req);
      default:
        throw new HttpError(404, "not_found", "Use /power-ups/test, /power-ups/reply or /power-ups/hand-back");
    }
  }, { verifyCaller: requireVerifiedCaller }),
);
