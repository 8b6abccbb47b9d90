// Who is calling: the claims of the bearer token. The gateway verifies the JWT (verify_jwt in
// config.toml) and PostgREST verifies it again on every query made with it, so decoding here
// only saves a round trip; nothing here decides a permission (Postgres does).
import { HttpError } from "./http.ts";

export interface CallerClaims {
  /** anon, authenticated or service_role (null without a readable token). */
  role: string | null;
  /** The auth user's id (authenticated tokens only). */
  userId: string | null;
  isAnonymous: boolean;
  /** The raw token, to hand to auth or a client. */
  token: string | null;
}

export function bearerToken(req: Request): string | null {
  return /^Bearer\s+(.+)$/i.exec(req.headers.get("authorization") ?? "")?.[1]?.trim() ?? null;
}

function decodePart(part: string): Record<string, unknown> {
  const b64 = part.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(part.length / 4) * 4, "=");
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const value = JSON.parse(new TextDecoder().decode(bytes));
  return value && typeof value === "object" && !Array.isArray(value) ? value : {};
}

export function callerClaims(req: Request): CallerClaims {
  const token = bearerToken(req);
  let claims: Record<string, unknown> = {};
  try {
    claims = token ? decodePart(token.split(".")[1] ?? "") : {};
  } catch {
    claims = {};
  }
  const role = typeof claims.role === "string" ? claims.role : null;
  const userId = role === "authenticated" && typeof claims.sub === "string" ? claims.sub : null;
  return { role, userId, isAnonymous: claims.is_anonymous === true, token };
}

/** The signed-in (possibly anonymous) user's id, or 401 session_required. */
export function requireUserId(req: Request, message = "Sign in (an anonymous session is enough) to continue."): string {
  const { userId } = callerClaims(req);
  if (!userId) throw new HttpError(401, "session_required", message);
  return userId;
}
