// `event`: receives analytics events (page views, sign-ups, custom events) from
// the browser and stores them in public.events with the service role (clients
// cannot write that table). Answers 202 when stored, 400 for a bad body, 413 for
// a body over 8 KiB. If the caller sends a user's access token, the event is
// linked to that user once auth confirms the token.
import { createClient } from "npm:@supabase/supabase-js@2";
import { eventSchema, MAX_BODY_BYTES, normalizeKeys, toRow } from "./schema.ts";

const corsHeaders = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Headers":
    "authorization, x-client-info, apikey, content-type",
  "Access-Control-Allow-Methods": "POST, OPTIONS",
  "Access-Control-Max-Age": "86400",
};

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...corsHeaders, "Content-Type": "application/json" },
  });
}
function error(
  status: number,
  code: string,
  message: string,
  details?: unknown,
): Response {
  return json(status, {
    error: { code, message, ...(details === undefined ? {} : { details }) },
  });
}

function requiredEnv(name: string): string {
  const value = Deno.env.get(name);
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

const supabase = createClient(
  requiredEnv("SUPABASE_URL"),
  requiredEnv("SUPABASE_SERVICE_ROLE_KEY"),
  {
    auth: { persistSession: false, autoRefreshToken: false },
  },
);

class BodyTooLarge extends Error {}

/** Reads at most MAX_BODY_BYTES, whatever Content-Length claims. */
async function readBoundedText(req: Request): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw new BodyTooLarge();
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw new BodyTooLarge();
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    all.set(c, offset);
    offset += c.byteLength;
  }
  return new TextDecoder().decode(all);
}

/** The user behind a user access token, or null (anon key, no token, invalid token). */
async function userIdFrom(req: Request): Promise<string | null> {
  const token = /^Bearer\s+(.+)$/i.exec(
    req.headers.get("authorization") ?? "",
  )?.[1];
  if (!token) return null;
  try {
    const payload = JSON.parse(
      atob(token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/")),
    );
    if (payload?.role !== "authenticated") return null;
  } catch {
    return null;
  }
  const { data, error: authError } = await supabase.auth.getUser(token);
  return authError ? null : (data.user?.id ?? null);
}

Deno.serve(async (req) => {
  if (req.method === "OPTIONS")
    return new Response(null, { status: 204, headers: corsHeaders });
  if (req.method !== "POST")
    return error(405, "method_not_allowed", "Send events with POST");

  let text: string;
  try {
    text = await readBoundedText(req);
  } catch (e) {
    if (e instanceof BodyTooLarge)
      return error(
        413,
        "body_too_large",
        `The body must be at most ${MAX_BODY_BYTES} bytes`,
      );
    return error(400, "bad_body", "The body could not be read");
  }

  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return error(400, "invalid_json", "The body must be a JSON object");
  }
  const parsed = eventSchema.safeParse(normalizeKeys(raw));
  if (!parsed.success) {
    return error(
      400,
      "invalid_event",
      "The event is not valid",
      parsed.error.issues.map((i) => ({
        path: i.path.join("."),
        message: i.message,
      })),
    );
  }

  const row = toRow(parsed.data, await userIdFrom(req));
  const { error: insertError } = await supabase.from("events").insert(row);
  if (insertError) {
    console.error(
      JSON.stringify({
        level: "error",
        msg: "event insert failed",
        code: insertError.code,
        message: insertError.message,
      }),
    );
    return error(500, "store_failed", "The event could not be stored");
  }
  return json(202, { ok: true });
});
