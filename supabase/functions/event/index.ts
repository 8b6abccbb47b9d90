// `event`: receives analytics events (page views, sign-ups, custom events) from
// the browser and stores them in public.events with the service role (clients
// cannot write that table). Answers 202 when stored, 400 for a bad body, 413 for
// a body over 8 KiB, 429 past the per-address limit (an IPv6 address counts by its
// /64). If the caller sends a user's access token, the event is linked to that user
// once auth confirms the token.
// No JWT is required (config.toml): navigator.sendBeacon cannot send headers.
import { createServiceClient } from "../_shared/clients.ts";
import { callerClaims } from "../_shared/caller.ts";
import { dbFailure } from "../_shared/db.ts";
import { assertStorable, clientIp, errorResponse, handler, HttpError, json, parseJson, readBoundedText } from "../_shared/http.ts";
import { enforceRateLimits, ipKey, limitFromEnv } from "../_shared/rate-limit.ts";
import { eventSchema, MAX_BODY_BYTES, normalizeKeys, toRow } from "./schema.ts";

/** The user behind a user access token, or null (anon key, no token, invalid token). */
async function userIdFrom(req: Request): Promise<string | null> {
  const { token, userId } = await callerClaims(req).catch(() => ({ token: null, userId: null }));
  if (!token || !userId) return null;
  const { data, error } = await createServiceClient().auth.getUser(token);
  return error ? null : (data.user?.id ?? null);
}

Deno.serve(
  handler("event", async (req, { log }) => {
    if (req.method !== "POST") throw new HttpError(405, "method_not_allowed", "Send events with POST");
    await enforceRateLimits([
      { key: `event:ip:${ipKey(clientIp(req))}`, max: limitFromEnv("PARLEY_ANALYTICS_RATE_LIMIT", 120), windowSeconds: 60 },
    ]);

    const raw = parseJson(await readBoundedText(req, MAX_BODY_BYTES));
    const parsed = eventSchema.safeParse(normalizeKeys(raw));
    if (!parsed.success) {
      return errorResponse(
        400,
        "invalid_event",
        "The event is not valid",
        parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
      );
    }

    // Plausible's props arrive as a JSON string, parsed by the schema: checked again here.
    assertStorable(parsed.data);
    const row = toRow(parsed.data, await userIdFrom(req));
    const { error } = await createServiceClient().from("events").insert(row);
    if (error) {
      log.error("event_insert_failed", { code: error.code, error: error.message });
      throw dbFailure(error, "event insert");
    }
    return json(202, { ok: true });
  }),
);
