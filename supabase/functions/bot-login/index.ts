// `bot-login`: a visitor enters a password-protected bot's chat password.
//   POST /functions/v1/bot-login  {bot_id, password}  as the visitor's session
// Rate-limited per visitor and per client IP. On success the service role writes
// the bot_access_grants row that private.can_chat_with_bot reads; clients can
// never write that table themselves.
import { z } from "npm:zod@3.25.76";
import { createServiceClient, createUserClient } from "../_shared/clients.ts";
import { callerId } from "../chat/caller.ts";
import { corsHeaders } from "../_shared/cors.ts";
import { clientIp, handler, HttpError, json, readJson } from "../_shared/http.ts";
import { checkRateLimits, ipKey, limitFromEnv } from "../_shared/rate-limit.ts";

/** How long an accepted password keeps a visitor in (a password change revokes all grants at once). */
const GRANT_DAYS = 30;

const bodySchema = z
  .object({
    bot_id: z.string().uuid(),
    password: z.string().min(1, "Enter the password").max(128, "A chat password has at most 128 characters"),
  })
  .strict();


Deno.serve(
  handler(async (req) => {
    if (req.method !== "POST") throw new HttpError(405, "method_not_allowed", "Use POST");
    const parsed = bodySchema.safeParse(await readJson(req, 4 * 1024));
    if (!parsed.success) {
      throw new HttpError(
        400,
        "invalid_request",
        parsed.error.issues[0]?.message ?? "Invalid request",
        parsed.error.issues,
      );
    }
    const { bot_id, password } = parsed.data;

    // The grant is written with the service role, so the id must be one PostgREST
    // accepts: get_public_bot below runs with the same token and fails on a forged one.
    const userId = callerId(req);
    const user = createUserClient(req);

    const limited = await checkRateLimits([
      { key: `bot-login:user:${userId}`, max: limitFromEnv("PARLEY_BOT_LOGIN_USER_LIMIT", 5), windowSeconds: 60 },
      { key: `bot-login:ip:${ipKey(clientIp(req))}`, max: limitFromEnv("PARLEY_BOT_LOGIN_IP_LIMIT", 30), windowSeconds: 60 },
      // However many visitors and addresses try, one bot's password gets a bounded number of guesses.
      { key: `bot-login:bot:${bot_id}`, max: limitFromEnv("PARLEY_BOT_LOGIN_BOT_LIMIT", 120), windowSeconds: 60 },
    ]);
    if (limited) {
      return new Response(limited.body, {
        status: 429,
        headers: { ...Object.fromEntries(limited.headers), "Access-Control-Expose-Headers": "Retry-After" },
      });
    }

    // The visitor-facing face of the bot: absent for private bots and unknown ids.
    const face = await user.rpc("get_public_bot", { bot_id });
    const bot = (Array.isArray(face.data) ? face.data[0] : face.data) as { visibility?: string } | undefined;
    if (face.error?.code === "PGRST301" || face.error?.message?.includes("JWT")) {
      throw new HttpError(401, "session_required", "Your session is not valid. Sign in again.");
    }
    if (face.error || !bot) throw new HttpError(404, "bot_not_found", "Bot not found");
    if (bot.visibility !== "password") return json(200, { ok: true });

    const service = createServiceClient();
    const check = await service.rpc("check_bot_password", { bot_id, password });
    if (check.error) throw new Error(`check_bot_password: ${check.error.message}`);
    if (check.data !== true) {
      return json(401, { error: { code: "incorrect_password", message: "Incorrect password" } });
    }
    const grant = await service
      .from("bot_access_grants")
      .upsert(
        // A grant lasts 30 days (and ends at once when the password changes: a trigger revokes them).
        { bot_id, user_id: userId, granted_at: new Date().toISOString(), expires_at: new Date(Date.now() + GRANT_DAYS * 86_400_000).toISOString() },
        { onConflict: "bot_id,user_id" },
      );
    if (grant.error) throw new Error(`grant: ${grant.error.message}`);
    return new Response(JSON.stringify({ ok: true }), {
      status: 200,
      headers: { ...corsHeaders, "Content-Type": "application/json" },
    });
  }),
);
