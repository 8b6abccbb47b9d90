// Shared helpers for stack tests: the running stack's info, clients, SQL access.
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import pg from "pg";
import ws from "ws";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { expect, inject } from "vitest";
import { signJwt } from "../src/keys.ts";

export { fixtureDir } from "./fixture.ts";

export interface StackInfo {
  apiUrl: string;
  dbUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  publishableKey: string;
  secretKey: string;
  jwtSecret: string;
  dataDir: string;
  /** The dev mailbox's SMTP port on 127.0.0.1. */
  smtpPort: number;
}

declare module "vitest" {
  export interface ProvidedContext {
    stack: StackInfo;
  }
}

export function stackInfo(): StackInfo {
  return inject("stack");
}

export function anonClient(): SupabaseClient {
  const s = stackInfo();
  return createClient(s.apiUrl, s.anonKey, { auth: { persistSession: false, autoRefreshToken: false }, realtime: { transport: ws as never } });
}

export function serviceClient(): SupabaseClient {
  const s = stackInfo();
  return createClient(s.apiUrl, s.serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false }, realtime: { transport: ws as never } });
}

/** A client acting as a user whose JWT the test mints (no auth service needed). */
export async function userClient(userId: string, extra: Record<string, unknown> = {}): Promise<SupabaseClient> {
  const s = stackInfo();
  const token = await mintUserToken(userId, extra);
  return createClient(s.apiUrl, s.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: ws as never },
    global: { headers: { Authorization: `Bearer ${token}` } },
  });
}

export function mintUserToken(userId: string, extra: Record<string, unknown> = {}, expiresIn = 3600) {
  return signJwt(stackInfo().jwtSecret, { sub: userId, role: "authenticated", aud: "authenticated", ...extra }, expiresIn);
}

/** Runs SQL as the superuser (setup and checks only). */
export async function sql<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]) {
  const client = new pg.Client({ connectionString: stackInfo().dbUrl });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Creates an auth.users row directly (for tests that do not exercise the auth service). */
export async function createUser(email = `u${Math.random().toString(36).slice(2)}@example.test`): Promise<string> {
  const rows = await sql<{ id: string }>(
    `insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
     values (gen_random_uuid(), 'authenticated', 'authenticated', $1, extensions.crypt('password123', extensions.gen_salt('bf')), now(),
             '{"provider":"email","providers":["email"]}', '{}', now(), now()) returning id`,
    [email],
  );
  return rows[0]!.id;
}

/** Sets `key = value` in one `[section]` of a config.toml text (a test stack's own settings). */
export function setToml(toml: string, section: string, key: string, value: string): string {
  const start = toml.indexOf(`[${section}]`);
  expect(start).toBeGreaterThanOrEqual(0);
  const end = toml.indexOf("\n[", start + 1);
  const body = toml.slice(start, end < 0 ? undefined : end);
  const re = new RegExp(`^${key} = .*$`, "m");
  const next = re.test(body) ? body.replace(re, `${key} = ${value}`) : `${body.trimEnd()}\n${key} = ${value}\n`;
  return toml.slice(0, start) + next + (end < 0 ? "" : toml.slice(end));
}

/** Options every test client needs on Node 20 (realtime-js wants a WebSocket implementation). */
export const nodeClientOptions = { realtime: { transport: ws as never } };

/**
 * Edge functions: the fixture `claims` (verify_jwt = false) checks the caller itself with
 * getClaims() (the JWKS for ES256/RS256, auth for HS256) and reads the database as the caller;
 * `echo` sits behind the stack's verify_jwt gate and reads the database as the caller.
 */
export async function functionsAccept(c: SupabaseClient, token: string) {
  const { sub } = decodeJwt(token);
  const { alg } = decodeProtectedHeader(token);
  const claims = await c.functions.invoke("claims", { method: "GET", headers: { Authorization: `Bearer ${token}` } });
  expect(claims.error).toBeNull();
  expect(claims.data).toMatchObject({ alg, sub, role: "authenticated", whoami: { role: "authenticated", uid: sub }, error: null });
  const echo = await c.functions.invoke("echo", { method: "GET", headers: { Authorization: `Bearer ${token}` } });
  expect(echo.error).toBeNull();
  expect(echo.data).toMatchObject({ whoami: { role: "authenticated", uid: sub }, error: null });
}
