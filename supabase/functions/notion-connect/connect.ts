// The routes of `notion-connect`: Notion's public-integration OAuth run by the server, so
// the access token goes from Notion to Postgres without passing through the browser and
// without touching the owner's Parley session (see README.md for why not GoTrue).
//   POST /notion-connect/start    {redirect_uri, return_path}            → 200 {url}
//   POST /notion-connect/exchange {state, code? | error?}                 → 200 {connection_id, workspace_name, return_path}
//   POST /notion-connect/search   {connection_id, query?, cursor?}        → 200 {workspace_name, results, next_cursor}
import { z } from "npm:zod@3.25.76";
import { createServiceClient, createUserClient, type Db } from "../_shared/clients.ts";
import type {
  NotionExchangeAnswer,
  NotionExchangeRequest,
  NotionSearchAnswer,
  NotionSearchRequest,
  NotionStartAnswer,
  NotionStartRequest,
} from "../_shared/contracts/notion-connect.ts";
import { HttpError, json } from "../_shared/http.ts";
import { dbFailure } from "../_shared/db.ts";
import { isErrorCode } from "../_shared/contracts/errors.ts";
import { sha256Hex } from "../_shared/hash.ts";
import { readBody } from "../_shared/knowledge/request.ts";
import { safeFetch, SafeFetchError } from "../_shared/safe-fetch.ts";
import { NOTION_VERSION, NotionClient, searchWorkspace } from "../_shared/knowledge/readers/notion.ts";
import { findConnection, sweepConnections } from "../_shared/knowledge/notion-connections.ts";
import { SourceError } from "../_shared/knowledge/readers/types.ts";

export const CALLBACK_PATH = "/app/auth/providers/notion/callback";
const PENDING_MS = 15 * 60_000;
const CONNECTED_MS = 60 * 60_000;
const MAX_LIVE_PER_USER = 20;

export interface ConnectConfig {
  clientId: string;
  clientSecret: string;
  /** Base of /v1/oauth/authorize and /v1/oauth/token. */
  oauthUrl: string;
  /** Base of the REST API (/v1/search). */
  apiUrl: string;
  /** When set, the only redirect URI accepted (the one registered with Notion). */
  redirectUri?: string;
}

const env = (name: string) => Deno.env.get(name) || undefined;

/** From the function's environment (Supabase secrets on hosted projects); null when not configured. */
export function configFromEnv(): ConnectConfig | null {
  const clientId = env("PARLEY_NOTION_CLIENT_ID") ?? env("NOTION_CLIENT_ID");
  const clientSecret = env("PARLEY_NOTION_CLIENT_SECRET") ?? env("NOTION_CLIENT_SECRET");
  if (!clientId || !clientSecret) return null;
  const api = (env("PARLEY_NOTION_API_URL") ?? "https://api.notion.com").replace(/\/+$/, "");
  return {
    clientId,
    clientSecret,
    oauthUrl: (env("PARLEY_NOTION_OAUTH_URL") ?? api).replace(/\/+$/, ""),
    apiUrl: api,
    redirectUri: env("PARLEY_NOTION_REDIRECT_URI"),
  };
}

const UUID_RE = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const startBody = z
  .object({ redirect_uri: z.string().url().max(2000), return_path: z.string().min(1).max(2048) })
  .strict() satisfies z.ZodType<NotionStartRequest, z.ZodTypeDef, unknown>;
const exchangeBody = z
  .object({
    state: z.string().max(200),
    code: z.string().min(1).max(2000).optional(),
    error: z.string().max(200).optional(),
    error_description: z.string().max(2000).optional(),
  })
  .strict() satisfies z.ZodType<NotionExchangeRequest, z.ZodTypeDef, unknown>;
const searchBody = z
  .object({
    connection_id: z.string().regex(new RegExp(`^${UUID_RE}$`, "i")),
    query: z.string().max(200).optional(),
    cursor: z.string().max(500).optional(),
  })
  .strict() satisfies z.ZodType<NotionSearchRequest, z.ZodTypeDef, unknown>;

/** The signed-in, non-anonymous caller (handler() has verified the JWT; auth confirms the user). */
async function caller(req: Request): Promise<string> {
  const { data, error } = await createUserClient(req).auth.getUser();
  if (error || !data.user || data.user.is_anonymous) {
    throw new HttpError(401, "not_signed_in", "Sign in to connect Notion");
  }
  return data.user.id;
}

/** A same-site path to come back to: no scheme, no other host, no control characters. */
export function isReturnPath(p: string): boolean {
  return p.startsWith("/") && !p.startsWith("//") && !/[\\\u0000-\u001f\u007f]/.test(p);
}

export function isCallbackUri(uri: string, config: ConnectConfig): boolean {
  if (config.redirectUri) return uri === config.redirectUri;
  try {
    const u = new URL(uri);
    return (u.protocol === "https:" || u.protocol === "http:") && u.pathname === CALLBACK_PATH && !u.search && !u.hash;
  } catch {
    return false;
  }
}

const b64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

async function start(req: Request, service: Db, config: ConnectConfig): Promise<Response> {
  const input = await readBody(req, startBody);
  if (!isCallbackUri(input.redirect_uri, config)) {
    throw new HttpError(400, "invalid_redirect_uri", `redirect_uri must be the app's ${CALLBACK_PATH} page`);
  }
  if (!isReturnPath(input.return_path)) throw new HttpError(400, "invalid_return_path", "return_path must be a path on this site");
  const userId = await caller(req);
  await sweepConnections(service);
  const { count } = await service
    .from("notion_connections")
    .select("id", { count: "exact", head: true })
    .eq("user_id", userId);
  if ((count ?? 0) >= MAX_LIVE_PER_USER) {
    throw new HttpError(429, "too_many_connections", "Too many Notion connections in progress. Try again in a few minutes.");
  }
  const secret = b64url(crypto.getRandomValues(new Uint8Array(32)));
  const { data, error } = await service
    .from("notion_connections")
    .insert({
      user_id: userId,
      state_hash: await sha256Hex(secret),
      redirect_uri: input.redirect_uri,
      return_path: input.return_path,
      expires_at: new Date(Date.now() + PENDING_MS).toISOString(),
    })
    .select("id")
    .single();
  if (error) throw dbFailure(error, "notion connection");
  const url = new URL(`${config.oauthUrl}/v1/oauth/authorize`);
  url.searchParams.set("client_id", config.clientId);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("owner", "user");
  url.searchParams.set("redirect_uri", input.redirect_uri);
  url.searchParams.set("state", `${data.id}.${secret}`);
  return json(200, { url: url.toString() } satisfies NotionStartAnswer);
}

/** Notion's token endpoint: HTTP Basic client credentials, a JSON body. */
export async function exchangeCode(config: ConnectConfig, code: string, redirectUri: string) {
  let res;
  try {
    res = await safeFetch(`${config.oauthUrl}/v1/oauth/token`, {
      method: "POST",
      headers: {
        authorization: `Basic ${btoa(`${config.clientId}:${config.clientSecret}`)}`,
        "content-type": "application/json",
        "notion-version": NOTION_VERSION,
      },
      body: JSON.stringify({ grant_type: "authorization_code", code, redirect_uri: redirectUri }),
      timeoutMs: 15_000,
      maxBytes: 256 * 1024,
    });
  } catch (e) {
    throw new HttpError(502, "notion_unreachable", `Notion could not be reached: ${(e as SafeFetchError).message}`);
  }
  let data: Record<string, unknown> = {};
  try {
    data = res.json();
  } catch {
    // not JSON: reported below
  }
  if (res.status !== 200 || typeof data.access_token !== "string" || !data.access_token) {
    const why = (data.error_description ?? data.message ?? data.error ?? `status ${res.status}`) as string;
    throw new HttpError(502, "notion_oauth_failed", `Notion did not grant access: ${why}`);
  }
  return {
    accessToken: data.access_token,
    workspaceId: typeof data.workspace_id === "string" ? data.workspace_id.slice(0, 200) : null,
    workspaceName: typeof data.workspace_name === "string" ? data.workspace_name.slice(0, 500) : null,
  };
}

async function exchange(req: Request, service: Db, config: ConnectConfig): Promise<Response> {
  const input = await readBody(req, exchangeBody);
  const userId = await caller(req);
  const m = new RegExp(`^(${UUID_RE})\\.([A-Za-z0-9_-]{20,100})$`, "i").exec(input.state);
  const invalid = new HttpError(400, "invalid_state", "This Notion connection expired or was started in another session. Start again.");
  if (!m) throw invalid;
  let conn;
  try {
    conn = await findConnection(service, m[1], userId);
  } catch {
    throw invalid;
  }
  if (conn.state_hash !== (await sha256Hex(m[2]))) throw invalid;
  const back = { return_path: conn.return_path };
  // The same callback twice (a reload): the connection is already made.
  if (conn.access_token) {
    return json(200, { connection_id: conn.id, workspace_name: conn.workspace_name, ...back } satisfies NotionExchangeAnswer);
  }
  if (input.error || !input.code) {
    await service.from("notion_connections").delete().eq("id", conn.id);
    if (input.error === "access_denied") throw new HttpError(400, "notion_denied", "Notion access was not granted.", back);
    throw new HttpError(400, "notion_oauth_failed", `Notion did not grant access: ${input.error_description ?? input.error ?? "no code"}`, back);
  }
  let granted;
  try {
    granted = await exchangeCode(config, input.code, conn.redirect_uri);
  } catch (e) {
    await service.from("notion_connections").delete().eq("id", conn.id);
    if (e instanceof HttpError) throw new HttpError(e.status, e.code, e.message, back);
    throw e;
  }
  const { error } = await service
    .from("notion_connections")
    .update({
      access_token: granted.accessToken,
      workspace_id: granted.workspaceId,
      workspace_name: granted.workspaceName,
      connected_at: new Date().toISOString(),
      expires_at: new Date(Date.now() + CONNECTED_MS).toISOString(),
    })
    .eq("id", conn.id);
  if (error) throw dbFailure(error, "notion connection");
  return json(200, { connection_id: conn.id, workspace_name: granted.workspaceName, ...back } satisfies NotionExchangeAnswer);
}

async function search(req: Request, service: Db, config: ConnectConfig): Promise<Response> {
  const input = await readBody(req, searchBody);
  const userId = await caller(req);
  const conn = await findConnection(service, input.connection_id, userId, { connected: true });
  try {
    const page = await searchWorkspace(new NotionClient(conn.access_token!, undefined, config.apiUrl), {
      query: input.query?.trim() || undefined,
      cursor: input.cursor,
    });
    return json(200, { workspace_name: conn.workspace_name, ...page } satisfies NotionSearchAnswer);
  } catch (e) {
    if (e instanceof SourceError) throw new HttpError(502, isErrorCode(e.code) ? e.code : "notion_error", e.message);
    throw e;
  }
}

export async function route(req: Request, config: ConnectConfig | null = configFromEnv()): Promise<Response> {
  if (req.method !== "POST") throw new HttpError(405, "method_not_allowed", "Use POST");
  const parts = new URL(req.url).pathname.split("/").filter(Boolean);
  const at = parts.indexOf("notion-connect");
  const path = (at >= 0 ? parts.slice(at + 1) : parts).join("/");
  if (!["start", "exchange", "search"].includes(path)) throw new HttpError(404, "not_found", "No such route");
  if (!config) {
    throw new HttpError(503, "notion_not_configured", "Notion is not configured on this server: set PARLEY_NOTION_CLIENT_ID and PARLEY_NOTION_CLIENT_SECRET.");
  }
  const service = createServiceClient();
  if (path === "start") return await start(req, service, config);
  if (path === "exchange") return await exchange(req, service, config);
  return await search(req, service, config);
}
