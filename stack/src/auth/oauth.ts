// /authorize and /callback for the external providers Google and Notion: the
// OAuth2 code flow with a signed state (a JWT, as GoTrue's), the provider's user
// fetched after the code exchange, users and identities upserted, then a redirect
// with the session (implicit) or an auth code (PKCE).
import crypto from "node:crypto";
import type { GatewayRequest } from "../service.ts";
import { signJwt, verifyJwt } from "../keys.ts";
import { clientInfo, requireUser, type AuthContext, type Q } from "./context.ts";
import { sendJson } from "../http.ts";
import { createFlowState } from "./emails.ts";
import { AuthError, badRequest, notFound, unprocessable } from "./errors.ts";
import { readPkce, tx } from "./flows.ts";
import { redirectTarget, withFragment, withQuery } from "./redirect.ts";
import { createSession } from "./sessions.ts";
import { findUserByEmail, findUserById, insertIdentity, insertUser } from "./users.ts";

type ProviderName = "google" | "notion";

export interface ProviderUser {
  id: string;
  email: string;
  emailVerified: boolean;
  name: string;
  avatarUrl: string;
  iss: string;
}

interface Endpoints {
  authorize: string;
  token: string;
  userinfo: string;
}

/** GoTrue's endpoints for each provider, with `url` replacing the provider's hosts. */
function endpoints(name: ProviderName, base: string): Endpoints {
  if (name === "google") {
    return {
      authorize: `${base || "https://accounts.google.com"}/o/oauth2/auth`,
      token: base ? `${base}/o/oauth2/token` : "https://oauth2.googleapis.com/token",
      userinfo: `${base || "https://www.googleapis.com"}/userinfo/v2/me`,
    };
  }
  const b = base || "https://api.notion.com";
  return { authorize: `${b}/v1/oauth/authorize`, token: `${b}/v1/oauth/token`, userinfo: `${b}/v1/users/me` };
}

function providerOf(a: AuthContext, raw: string | null) {
  const name = (raw ?? "").toLowerCase();
  if (name !== "google" && name !== "notion") throw badRequest("validation_failed", `Unsupported provider: provider ${raw ?? ""} could not be found`);
  const p = a.settings.providers[name];
  if (!p.enabled) throw badRequest("validation_failed", "Unsupported provider: Provider is not enabled");
  return { name: name as ProviderName, p, ep: endpoints(name, p.url) };
}

function callbackUrl(a: AuthContext, redirectUri: string) {
  return redirectUri || `${a.externalUrl}/callback`;
}

export async function authorize(a: AuthContext, r: GatewayRequest) {
  r.req.resume();
  const url = await authorizeUrl(a, r, {});
  r.res.writeHead(302, { location: url });
  r.res.end();
}

/**
 * GET /user/identities/authorize?provider=: linkIdentity(). The signed-in user's id rides in
 * the state; the callback adds the provider identity to that user (an identity already on
 * another user is refused with identity_already_exists). skip_http_redirect answers {url}.
 */
/** GoTrue's requireManualLinkingEnabled, after authentication: `/user/identities/*` needs `[auth] enable_manual_linking`. */
function mustAllowManualLinking(a: AuthContext) {
  if (!a.settings.enableManualLinking) throw notFound("manual_linking_disabled", "Manual linking is disabled");
}

export async function linkAuthorize(a: AuthContext, r: GatewayRequest) {
  const { user } = await requireUser(a, r);
  mustAllowManualLinking(a);
  r.req.resume();
  const url = await authorizeUrl(a, r, { link_user_id: user.id });
  if (r.query.get("skip_http_redirect") === "true") return sendJson(r.res, 200, { url });
  r.res.writeHead(302, { location: url });
  r.res.end();
}

async function authorizeUrl(a: AuthContext, r: GatewayRequest, extra: Record<string, string>): Promise<string> {
  const { name, p, ep } = providerOf(a, r.query.get("provider"));
  const referrer = redirectTarget(a.settings, r.query.get("redirect_to"));
  const challenge = r.query.get("code_challenge");
  const method = r.query.get("code_challenge_method");
  const pkce = challenge || method ? readPkce({ code_challenge: challenge ?? undefined, code_challenge_method: method ?? undefined }) : undefined;
  let flowStateId: string | undefined;
  if (pkce) flowStateId = (await createFlowState(a.ctx.db, null, pkce, name, "oauth")).id;
  const state = await signJwt(a.issuer.jwtSecret, { site_url: a.settings.siteUrl, id: crypto.randomUUID(), provider: name, referrer, flow_state_id: flowStateId ?? "", ...extra }, 300);
  const url = new URL(ep.authorize);
  url.searchParams.set("client_id", p.clientId);
  url.searchParams.set("redirect_uri", callbackUrl(a, p.redirectUri));
  url.searchParams.set("response_type", "code");
  url.searchParams.set("state", state);
  if (name === "google") {
    const extra = (r.query.get("scopes") ?? "").split(/[ ,]+/).filter(Boolean);
    url.searchParams.set("scope", ["email", "profile", ...extra].join(" "));
    url.searchParams.set("access_type", "offline");
  } else url.searchParams.set("owner", "user");
  return url.toString();
}

/** Adds a provider identity to the user linking it. */
async function linkIdentityTo(q: Q, userId: string, provider: ProviderName, pu: ProviderUser): Promise<string> {
  const existing = await q.query<{ user_id: string }>("select user_id from auth.identities where provider = $1 and provider_id = $2", [provider, pu.id]);
  if (existing.rows[0] && existing.rows[0].user_id !== userId) throw unprocessable("identity_already_exists", "Identity is already linked to another user");
  const identityData = identityDataOf(pu);
  if (!existing.rows[0]) await insertIdentity(q, userId, provider, pu.id, identityData);
  await updateProviders(q, userId);
  return userId;
}

/** app_metadata.providers: the providers of the user's identities. */
export async function updateProviders(q: Q, userId: string) {
  await q.query(
    `update auth.users set raw_app_meta_data = coalesce(raw_app_meta_data, '{}') || jsonb_build_object('providers',
       coalesce((select jsonb_agg(distinct provider) from auth.identities where user_id = $1), '[]'::jsonb)), updated_at = now() where id = $1`,
    [userId],
  );
}

async function fetchJson(url: string, init: RequestInit): Promise<Record<string, unknown>> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AuthError(500, "unexpected_failure", `The provider answered ${res.status} with a body that is not JSON`);
  }
  if (!res.ok || !body || typeof body !== "object") {
    const err = body as { error?: string; error_description?: string; message?: string };
    throw new AuthError(400, "provider_error", `Error from the provider: ${err?.error_description ?? err?.message ?? err?.error ?? res.status}`);
  }
  return body as Record<string, unknown>;
}

async function exchange(a: AuthContext, name: ProviderName, code: string): Promise<{ accessToken: string; raw: Record<string, unknown> }> {
  const { p, ep } = providerOf(a, name);
  const redirectUri = callbackUrl(a, p.redirectUri);
  let raw: Record<string, unknown>;
  if (name === "notion") {
    raw = await fetchJson(ep.token, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Basic ${Buffer.from(`${p.clientId}:${p.secret}`).toString("base64")}` },
      body: JSON.stringify({ grant_type: "authorization_code", code, redirect_uri: redirectUri }),
    });
  } else {
    raw = await fetchJson(ep.token, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirectUri, client_id: p.clientId, client_secret: p.secret }).toString(),
    });
  }
  if (typeof raw.access_token !== "string") throw new AuthError(400, "provider_error", "The provider did not return an access token");
  return { accessToken: raw.access_token, raw };
}

const s = (v: unknown) => (typeof v === "string" ? v : "");

async function providerUser(a: AuthContext, name: ProviderName, accessToken: string, tokenResponse: Record<string, unknown>): Promise<ProviderUser> {
  const { ep } = providerOf(a, name);
  if (name === "google") {
    const u = await fetchJson(ep.userinfo, { headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" } });
    return {
      id: s(u.id) || s(u.sub), email: s(u.email).toLowerCase(), emailVerified: u.verified_email === true || u.email_verified === true,
      name: s(u.name), avatarUrl: s(u.picture), iss: "https://accounts.google.com",
    };
  }
  const me = await fetchJson(ep.userinfo, { headers: { authorization: `Bearer ${accessToken}`, "notion-version": "2021-08-16" } }).catch(() => null);
  type NotionUser = { id?: string; name?: string; avatar_url?: string; person?: { email?: string } };
  const owner = ((me?.bot as { owner?: { user?: NotionUser } } | undefined)?.owner?.user ??
    (tokenResponse.owner as { user?: NotionUser } | undefined)?.user ??
    (me?.type === "person" ? (me as NotionUser) : undefined)) as NotionUser | undefined;
  if (!owner?.id) throw new AuthError(400, "provider_error", "Notion did not say which user signed in");
  return { id: owner.id, email: (owner.person?.email ?? "").toLowerCase(), emailVerified: true, name: owner.name ?? "", avatarUrl: owner.avatar_url ?? "", iss: "https://api.notion.com" };
}

/** The identity_data GoTrue stores for a provider user. */
function identityDataOf(pu: ProviderUser) {
  return {
    iss: pu.iss, sub: pu.id, name: pu.name, email: pu.email || undefined, picture: pu.avatarUrl || undefined, full_name: pu.name,
    avatar_url: pu.avatarUrl || undefined, provider_id: pu.id, email_verified: pu.emailVerified, phone_verified: false,
  };
}

/** Finds or creates the user of a provider identity, linking by verified email as GoTrue does. */
export async function upsertUser(q: Q, provider: ProviderName, pu: ProviderUser): Promise<string> {
  const identityData = identityDataOf(pu);
  const existing = await q.query<{ user_id: string }>("select user_id from auth.identities where provider = $1 and provider_id = $2", [provider, pu.id]);
  let userId = existing.rows[0]?.user_id;
  if (!userId && pu.email && pu.emailVerified) userId = (await findUserByEmail(q, pu.email))?.id;
  if (!userId) {
    if (!pu.email) throw new AuthError(500, "unexpected_failure", "Error getting user email from external provider");
    const u = await insertUser(q, {
      email: pu.email, passwordHash: "", emailConfirmed: pu.emailVerified,
      appMetadata: { provider, providers: [provider] }, userMetadata: identityData,
    });
    userId = u.id;
  }
  await insertIdentity(q, userId, provider, pu.id, identityData);
  const linked = await findUserById(q, userId);
  if (linked && !linked.email_confirmed_at) {
    // GoTrue's RemoveUnconfirmedIdentities: whoever signed up with this address
    // first never proved it, so their password, metadata and other identities go
    // (no pre-account takeover).
    await q.query("delete from auth.identities where user_id = $1 and not (provider = $2 and provider_id = $3)", [userId, provider, pu.id]);
    await q.query(
      "update auth.users set encrypted_password = '', raw_user_meta_data = '{}', raw_app_meta_data = jsonb_build_object('provider', $2::text) where id = $1",
      [userId, provider],
    );
  }
  await q.query(
    `update auth.users set
       raw_app_meta_data = coalesce(raw_app_meta_data, '{}') || jsonb_build_object('providers', (select jsonb_agg(distinct provider) from auth.identities where user_id = $1))
         || case when raw_app_meta_data ? 'provider' then '{}'::jsonb else jsonb_build_object('provider', $2::text) end,
       raw_user_meta_data = coalesce(raw_user_meta_data, '{}') || $3::jsonb,
       email_confirmed_at = case when $4 and email = $5 then coalesce(email_confirmed_at, now()) else email_confirmed_at end,
       updated_at = now()
     where id = $1`,
    [userId, provider, JSON.stringify(identityData), pu.emailVerified, pu.email],
  );
  return userId;
}

export async function callback(a: AuthContext, r: GatewayRequest) {
  r.req.resume();
  const stateRaw = r.query.get("state") ?? "";
  let state: { provider?: string; referrer?: string; flow_state_id?: string; link_user_id?: string };
  try {
    state = (await verifyJwt(a.issuer.jwtSecret, stateRaw)) as typeof state;
  } catch {
    throw badRequest("bad_oauth_state", "OAuth state parameter is invalid");
  }
  const referrer = redirectTarget(a.settings, state.referrer);
  const pkceFlow = !!state.flow_state_id;
  const redirectError = (error: string, description: string, code?: string) => {
    const params: Record<string, string> = { error, error_description: description };
    if (code) params.error_code = code;
    const to = pkceFlow ? withQuery(referrer, params) : withFragment(referrer, params);
    r.res.writeHead(303, { location: to });
    r.res.end();
  };
  const providerError = r.query.get("error");
  if (providerError) return redirectError(providerError, r.query.get("error_description") ?? providerError);
  const code = r.query.get("code");
  if (!code) return redirectError("invalid_request", "OAuth callback with missing authorization code", "bad_oauth_callback");
  try {
    const name = providerOf(a, state.provider ?? null).name;
    const { accessToken, raw } = await exchange(a, name, code);
    const pu = await providerUser(a, name, accessToken, raw);
    const to = await tx(a, async (q) => {
      const userId = state.link_user_id ? await linkIdentityTo(q, state.link_user_id, name, pu) : await upsertUser(q, name, pu);
      const u = await findUserById(q, userId);
      if (u?.banned_until && new Date(u.banned_until).getTime() > Date.now()) throw badRequest("user_banned", "User is banned");
      if (pkceFlow) {
        const f = await q.query<{ auth_code: string }>(
          "update auth.flow_state set user_id = $2, provider_access_token = $3, provider_refresh_token = $4, auth_code_issued_at = now(), updated_at = now() where id = $1 returning auth_code",
          [state.flow_state_id, userId, accessToken, s(raw.refresh_token)],
        );
        if (!f.rows[0]) throw new AuthError(404, "flow_state_not_found", "invalid flow state, no valid flow state found");
        return withQuery(referrer, { code: f.rows[0].auth_code });
      }
      const session = await createSession(a.issuer, q, userId, "oauth", clientInfo(r));
      return withFragment(referrer, {
        access_token: session.access_token, expires_at: String(session.expires_at), expires_in: String(session.expires_in),
        provider_token: accessToken, ...(s(raw.refresh_token) ? { provider_refresh_token: s(raw.refresh_token) } : {}),
        refresh_token: session.refresh_token, token_type: "bearer",
      });
    });
    r.res.writeHead(303, { location: to });
    r.res.end();
  } catch (e) {
    if (e instanceof AuthError) return redirectError(e.status >= 500 ? "server_error" : "invalid_request", e.message, e.code);
    a.ctx.log.error("oauth callback failed", { error: String(e) });
    return redirectError("server_error", "Error completing the sign-in with the provider", "unexpected_failure");
  }
}

/** DELETE /user/identities/{id}: unlinkIdentity(); a user keeps at least one identity. */
export async function unlinkIdentity(a: AuthContext, r: GatewayRequest, identityId: string) {
  const { user } = await requireUser(a, r);
  mustAllowManualLinking(a);
  if (!r.req.complete) r.req.resume();
  await tx(a, async (q) => {
    const ids = await q.query<{ id: string }>("select id::text from auth.identities where user_id = $1 for update", [user.id]);
    if (!ids.rows.some((x) => x.id === identityId)) throw notFound("identity_not_found", "Identity doesn't exist");
    if (ids.rows.length <= 1) throw unprocessable("single_identity_not_deletable", "User must have at least 1 identity after unlinking");
    await q.query("delete from auth.identities where id::text = $1 and user_id = $2", [identityId, user.id]);
    await updateProviders(q, user.id);
  });
  return sendJson(r.res, 200, {});
}
