// What every auth handler needs: settings, the token issuer, rate limits, mail,
// and the checks GoTrue's middleware does (requireAuthentication, requireAdmin).

import { bearer } from "../http.ts";
import type { MailService } from "../mail/index.ts";
import type { GatewayRequest, ServiceContext } from "../service.ts";
import { AuthError, forbidden } from "./errors.ts";
import type { FailureMarks, RateLimiter } from "./ratelimit.ts";
import { sessionExists, type ClientInfo, type Issuer } from "./sessions.ts";
import type { AuthSettings } from "./settings.ts";
import type { MailTemplates } from "./templates.ts";
import { findUserById, type UserRow } from "./users.ts";

export interface AuthContext {
  ctx: ServiceContext;
  settings: AuthSettings;
  issuer: Issuer;
  limiter: RateLimiter;
  /** Account + address pairs with recent failed password sign-ins. */
  failedSignIns: FailureMarks;
  mail(): MailService | undefined;
  /** The e-mails of [auth.email.template.*], parsed once at start. */
  templates: MailTemplates;
  /** `${apiUrl}/auth/v1` */
  externalUrl: string;
}

export type { Q } from "./users.ts";

/** The client address rate limits count: the socket, or GoTrue's configured header. */
export function limitIp(a: AuthContext, r: GatewayRequest): string {
  const h = a.settings.rateLimitHeader.toLowerCase();
  if (h) {
    const v = r.req.headers[h];
    const first = (Array.isArray(v) ? v[0] : v)?.split(",")[0]?.trim();
    if (first) return first;
  }
  return r.req.socket.remoteAddress ?? "unknown";
}

export function clientInfo(r: GatewayRequest): ClientInfo {
  return { ip: r.req.socket.remoteAddress?.replace(/^::ffff:/, "") ?? "", userAgent: String(r.req.headers["user-agent"] ?? "") };
}

export interface Authenticated {
  user: UserRow;
  sessionId?: string;
  claims: Record<string, unknown>;
}

/** GoTrue's requireAuthentication: a valid user JWT whose user and session exist. */
export async function requireUser(a: AuthContext, r: GatewayRequest): Promise<Authenticated> {
  if (!bearer(r.req)) throw new AuthError(401, "no_authorization", "This endpoint requires a valid Bearer token");
  if (r.authError || !r.claims) {
    const why = r.authError?.code === "jwt_expired" ? "token has invalid claims: token is expired" : "unable to parse or verify signature, token is malformed";
    throw forbidden("bad_jwt", `invalid JWT: ${why}`);
  }
  const sub = r.claims.sub;
  if (typeof sub !== "string" || !sub) throw forbidden("bad_jwt", "invalid claim: missing sub claim");
  const user = await findUserById(a.ctx.db, sub);
  if (!user || user.deleted_at) throw forbidden("user_not_found", "User from sub claim in JWT does not exist");
  // Tokens issued before a ban stop working with it.
  if (user.banned_until && new Date(user.banned_until).getTime() > Date.now()) throw forbidden("user_banned", "User is banned");
  const sid = typeof r.claims.session_id === "string" ? r.claims.session_id : undefined;
  if (sid && !(await sessionExists(a.ctx.db, sid))) throw forbidden("session_not_found", `Session from session_id claim in JWT does not exist`);
  return { user, sessionId: sid, claims: r.claims };
}

/** GoTrue's requireAdmin: a JWT whose role is service_role (or supabase_admin). */
export function requireAdmin(r: GatewayRequest) {
  if (!bearer(r.req) && !r.claims) throw new AuthError(401, "no_authorization", "This endpoint requires a valid Bearer token");
  if (r.authError || !r.claims) throw forbidden("bad_jwt", "invalid JWT: unable to parse or verify signature");
  const role = r.claims.role;
  if (role !== "service_role" && role !== "supabase_admin") throw forbidden("not_admin", "User not allowed");
}
