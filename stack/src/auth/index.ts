// The GoTrue-compatible auth service at /auth/v1: routing, error shapes and the
// service object the gateway loads.
import type { GatewayRequest, Service, ServiceContext } from "../service.ts";
import { sendJson } from "../http.ts";
import type { MailService } from "../mail/index.ts";
import * as admin from "./admin.ts";
import type { AuthContext } from "./context.ts";
import { API_VERSION, AuthError, sendError, toAuthError, wantsNewShape } from "./errors.ts";
import * as flows from "./flows.ts";
import * as mfa from "./mfa.ts";
import { authorize, callback, linkAuthorize, unlinkIdentity } from "./oauth.ts";
import { FailureMarks, RateLimiter } from "./ratelimit.ts";
import { loadMailTemplates } from "./templates.ts";
import { readAuthSettings } from "./settings.ts";

type Handler = (a: AuthContext, r: GatewayRequest, id: string) => Promise<void>;

const ROUTES: [string, RegExp, Handler][] = [
  ["POST", /^\/signup$/, flows.signup],
  ["POST", /^\/token$/, flows.token],
  ["GET", /^\/user$/, flows.getUser],
  ["PUT", /^\/user$/, flows.updateUser],
  ["POST", /^\/logout$/, flows.logoutHandler],
  ["GET", /^\/reauthenticate$/, flows.reauthenticate],
  ["GET", /^\/user\/identities\/authorize$/, linkAuthorize],
  ["DELETE", /^\/user\/identities\/([^/]+)$/, unlinkIdentity],
  ["POST", /^\/recover$/, flows.recover],
  ["POST", /^\/otp$/, flows.otp],
  ["POST", /^\/magiclink$/, flows.otp],
  ["POST", /^\/resend$/, flows.resend],
  ["GET", /^\/verify$/, flows.verifyGet],
  ["POST", /^\/verify$/, flows.verifyPost],
  ["POST", /^\/invite$/, admin.invite],
  ["GET", /^\/admin\/users$/, admin.listUsers],
  ["POST", /^\/admin\/users$/, admin.createUserAdmin],
  ["GET", /^\/admin\/users\/([^/]+)$/, admin.getUserAdmin],
  ["PUT", /^\/admin\/users\/([^/]+)$/, admin.updateUserAdmin],
  ["DELETE", /^\/admin\/users\/([^/]+)$/, admin.deleteUserAdmin],
  ["POST", /^\/admin\/generate_link$/, admin.generateLink],
  ["POST", /^\/admin\/signing-keys\/rotate$/, admin.rotateSigningKey],
  ["POST", /^\/factors$/, mfa.enroll],
  ["POST", /^\/factors\/([^/]+)\/challenge$/, mfa.challenge],
  ["POST", /^\/factors\/([^/]+)\/verify$/, mfa.verify],
  ["DELETE", /^\/factors\/([^/]+)$/, mfa.unenroll],
  ["GET", /^\/authorize$/, authorize],
  ["GET", /^\/callback$/, callback],
];

export async function createService(ctx: ServiceContext): Promise<Service> {
  const settings = readAuthSettings(ctx);
  const externalUrl = `${ctx.apiUrl}/auth/v1`;
  const a: AuthContext = {
    ctx, settings, externalUrl,
    issuer: { settings, jwtSecret: ctx.keys.jwtSecret, signing: ctx.keys.signing, issuer: externalUrl },
    limiter: new RateLimiter(),
    failedSignIns: new FailureMarks(),
    mail: () => ctx.services.get("mail") as MailService | undefined,
    templates: loadMailTemplates(ctx.config.auth ?? {}, ctx.options.workdir, ctx.log.child("auth")),
  };
  const log = ctx.log.child("auth");

  function settingsBody() {
    const p = settings.providers;
    return {
      external: {
        anonymous_users: settings.enableAnonymous, apple: false, azure: false, bitbucket: false, discord: false, facebook: false, figma: false,
        fly: false, github: false, gitlab: false, google: p.google.enabled, keycloak: false, kakao: false, linkedin: false, linkedin_oidc: false,
        notion: p.notion.enabled, spotify: false, slack: false, slack_oidc: false, workos: false, twitch: false, twitter: false,
        email: settings.email.enableSignup, phone: false, zoom: false,
      },
      disable_signup: !settings.enableSignup,
      mailer_autoconfirm: !settings.email.enableConfirmations,
      phone_autoconfirm: false,
      sms_provider: "",
      saml_enabled: false,
    };
  }

  async function handle(r: GatewayRequest) {
    const method = r.req.method ?? "GET";
    const path = r.path.replace(/\/+$/, "") || "/";
    if (wantsNewShape(r.req)) r.res.setHeader("x-supabase-api-version", API_VERSION);
    try {
      if (method === "GET" && path === "/settings") {
        r.req.resume();
        return sendJson(r.res, 200, settingsBody());
      }
      if (method === "GET" && path === "/.well-known/jwks.json") {
        // The public keys that sign and verify access tokens (none with legacy HS256 only).
        r.req.resume();
        return sendJson(r.res, 200, ctx.keys.signing.jwks(), { "cache-control": "public, max-age=600" });
      }
      if (method === "GET" && path === "/health") {
        r.req.resume();
        return sendJson(r.res, 200, { version: "parley", name: "GoTrue", description: "GoTrue-compatible auth of the Parley local stack" });
      }
      let pathMatched = false;
      for (const [m, re, h] of ROUTES) {
        const match = re.exec(path);
        if (!match) continue;
        pathMatched = true;
        if (m !== method) continue;
        let id: string;
        try {
          id = decodeURIComponent(match[1] ?? "");
        } catch {
          throw new AuthError(404, "user_not_found", "User not found");
        }
        return await h(a, r, id);
      }
      r.req.resume();
      throw pathMatched ? new AuthError(405, "method_not_allowed", "Method not allowed") : new AuthError(404, "not_found", "Not Found");
    } catch (e) {
      let err = toAuthError(e);
      if (!err) {
        const pgCode = (e as { code?: string }).code;
        // Values Postgres refuses (a bad uuid, a too-long string) are the caller's mistake.
        if (pgCode && /^(22|23)/.test(pgCode)) err = new AuthError(400, "validation_failed", `Invalid input: ${(e as Error).message}`);
        else {
          log.error("auth request failed", { path, error: (e as Error).stack ?? String(e) });
          err = new AuthError(500, "unexpected_failure", "Unexpected failure, please check server logs for more information");
        }
      }
      r.req.resume();
      if (r.res.headersSent) return void r.res.end();
      sendError(r.req, r.res, err, { oauthLegacy: path === "/token" });
    }
  }

  return {
    handle,
    async health() {
      return true;
    },
  };
}
