// `bot-login`: a visitor enters a password-protected bot's chat password.
//   POST /functions/v1/bot-login  {bot_id, password}  as the visitor's session  (contracts/bot-login.ts)
// Every attempt is limited per visitor, then per client address (IPv6 by /64). Wrong passwords
// on a bot the visitor can see as a password bot also count against the bot's own limit of
// failures, and mark the visitor and the address as having failed on it (10 minutes). While
// the bot's failures are used up, only marked visitors and addresses are refused (before their
// password is checked): a visitor with the right password from a clean address still gets in,
// so strangers guessing cannot lock the owner's visitors out, and each new address they bring
// gets one guess. On success the service role writes the bot_access_grants row that
// private.can_chat_with_bot reads; clients can never write that table themselves.
import { z } from "npm:zod@3.25.76";
import type { BotLoginAnswer, BotLoginRequest } from "../_shared/contracts/bot-login.ts";
import { MAX_BOT_PASSWORD_CHARS } from "../_shared/contracts/bot-login.ts";
import { requireUserId, requireVerifiedCaller } from "../_shared/caller.ts";
import { createServiceClient, createUserClient } from "../_shared/clients.ts";
import { dbFailure, isSessionInvalid, must, sessionInvalid } from "../_shared/db.ts";
import { clientIp, errorResponse, handler, HttpError, json, rateLimited, readJson } from "../_shared/http.ts";
import { consumeRateLimit, enforceRateLimits, ipKey, limitFromEnv, peekRateLimit, type RateLimit } from "../_shared/rate-limit.ts";

/** How long an accepted password keeps a visitor in (a password change revokes all grants at once). */
const GRANT_DAYS = 30;
/** How long a wrong password marks the visitor and the address on that bot. */
const FAILURE_MARK_SECONDS = 600;

const bodySchema = z
  .object({
    bot_id: z.string().uuid(),
    password: z
      .string()
      .min(1, "Enter the password")
      .max(MAX_BOT_PASSWORD_CHARS, `A chat password has at most ${MAX_BOT_PASSWORD_CHARS} characters`),
  })
  .strict() satisfies z.ZodType<BotLoginRequest, z.ZodTypeDef, unknown>;

const perMinute = (name: string, fallback: number) => ({ max: limitFromEnv(name, fallback), windowSeconds: 60 });

Deno.serve(
  handler("bot-login", async (req) => {
    if (req.method !== "POST") throw new HttpError(405, "method_not_allowed", "Use POST");
    const parsed = bodySchema.safeParse(await readJson(req, 4 * 1024));
    if (!parsed.success) {
      throw new HttpError(400, "invalid_request", parsed.error.issues[0]?.message ?? "Invalid request", parsed.error.issues);
    }
    const { bot_id, password } = parsed.data;

    // The grant is written with the service role, so the id must be one PostgREST
    // accepts: get_public_bot below runs with the same token and fails on a forged one.
    const userId = await requireUserId(req, "Sign in (an anonymous session is enough) to enter a chat password");
    const user = createUserClient(req);
    const ip = ipKey(clientIp(req));

    await enforceRateLimits([
      { key: `bot-login:user:${userId}`, ...perMinute("PARLEY_BOT_LOGIN_USER_LIMIT", 5) },
      { key: `bot-login:ip:${ip}`, ...perMinute("PARLEY_BOT_LOGIN_IP_LIMIT", 30) },
    ]);

    // The visitor-facing face of the bot: absent for private bots and unknown ids.
    const face = await user.rpc("get_public_bot", { bot_id });
    if (face.error && (isSessionInvalid(face.error) || face.error.message?.includes("JWT"))) throw sessionInvalid();
    if (face.error && face.error.code !== "PGRST116") throw dbFailure(face.error, "get_public_bot");
    const bot = (Array.isArray(face.data) ? face.data[0] : face.data) as { visibility?: string } | undefined;
    if (!bot) throw new HttpError(404, "bot_not_found", "Bot not found");
    if (bot.visibility !== "password") return json(200, { ok: true } satisfies BotLoginAnswer);

    // However many visitors and addresses try, one bot's password gets a bounded number of wrong
    // guesses a minute (the limit, plus those already being checked when it runs out); past them,
    // only who failed on it recently waits (see the top of the file).
    const failures: RateLimit = { key: `bot-login:bot:${bot_id}`, ...perMinute("PARLEY_BOT_LOGIN_BOT_LIMIT", 120) };
    const marks: RateLimit[] = [`user:${userId}`, `ip:${ip}`].map((who) => ({
      key: `bot-login:failed:${bot_id}:${who}`,
      max: 1,
      windowSeconds: FAILURE_MARK_SECONDS,
    }));
    const bucket = await peekRateLimit(failures);
    if (!bucket.allowed && (await Promise.all(marks.map(peekRateLimit))).some((m) => !m.allowed)) {
      throw rateLimited(bucket.retryAfter, "Too many wrong passwords for this bot. Please wait a moment and try again.");
    }

    const service = createServiceClient();
    const right = must(await service.rpc("check_bot_password", { bot_id, password }), "check_bot_password");
    if (right !== true) {
      await Promise.all([failures, ...marks].map(consumeRateLimit));
      return errorResponse(401, "incorrect_password", "Incorrect password");
    }
    const grant = await service.from("bot_access_grants").upsert(
      // A grant lasts 30 days (and ends at once when the password changes: a trigger revokes them).
      {
        bot_id,
        user_id: userId,
        granted_at: new Date().toISOString(),
        expires_at: new Date(Date.now() + GRANT_DAYS * 86_400_000).toISOString(),
      },
      { onConflict: "bot_id,user_id" },
    );
    // 23503: the token is still valid but its user was deleted.
    if (grant.error?.code === "23503") throw sessionInvalid();
    if (grant.error) throw dbFailure(grant.error, "grant");
    return json(200, { ok: true } satisfies BotLoginAnswer);
  }, { verifyCaller: requireVerifiedCaller }),
);
