// What every storage handler needs: the stack's context, the file store, the key
// locks, and the one way to run SQL for a request (as the caller under RLS, or as
// the stack itself where Supabase Storage uses its super user).
import type { PoolClient } from "pg";
import type { Claims } from "../keys.ts";
import type { GatewayRequest, ServiceContext } from "../service.ts";
import { ERRORS } from "./errors.ts";
import type { FileStore } from "./files.ts";
import type { KeyLocks } from "./locks.ts";

export interface StorageContext {
  svc: ServiceContext;
  files: FileStore;
  locks: KeyLocks;
  /** config.toml [storage] file_size_limit, in bytes. */
  globalLimit: number;
}

export interface BucketRow {
  id: string;
  name: string;
  public: boolean;
  file_size_limit: number | null;
  allowed_mime_types: string[] | null;
}

/** A timestamptz column as an ISO string (what Supabase Storage's JSON carries). */
export const iso = (column: string, as = column.replace(/^.*\./, "")) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ${as}`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The verified caller; a bad or missing token is refused as Supabase Storage refuses it. */
export function requireClaims(r: GatewayRequest): Claims {
  // The messages are those of the jsonwebtoken library Supabase Storage verifies with.
  if (r.authError) {
    const code = r.authError.code;
    throw ERRORS.accessDenied(code === "jwt_expired" ? "jwt expired" : code === "jwt_malformed" ? "jwt malformed" : "invalid signature");
  }
  if (!r.claims) throw ERRORS.accessDenied("jwt must be provided");
  return r.claims;
}

/** owner (uuid, legacy) and owner_id (text) for rows the caller creates. */
export function ownerOf(claims: Claims | null | undefined): { owner: string | null; owner_id: string | null } {
  const sub = typeof claims?.sub === "string" && claims.sub ? claims.sub : null;
  return { owner: sub && UUID.test(sub) ? sub : null, owner_id: sub };
}

function requestInfo(r: GatewayRequest) {
  const h = r.req.headers;
  return {
    method: r.req.method,
    path: "/storage/v1" + r.path,
    headers: { "content-type": h["content-type"], "user-agent": h["user-agent"], "x-client-info": h["x-client-info"], "x-upsert": h["x-upsert"] },
  };
}

const operations = new WeakMap<GatewayRequest, string>();

/** Names the request's operation as Supabase Storage does (`storage.object.upload`, ...). */
export function setOperation(r: GatewayRequest, operation: string) {
  operations.set(r, operation);
}

/**
 * Runs fn as the caller (claims) under RLS, or as the stack's super user when claims is null.
 * As caller, `storage.operation` is set for the transaction, so policies can use
 * storage.operation(), storage.allow_only_operation() and storage.allow_any_operation().
 */
export function run<T>(c: StorageContext, r: GatewayRequest, claims: Claims | null, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  if (!claims) return c.svc.db.tx(fn);
  const operation = operations.get(r) ?? "";
  return c.svc.db.asCaller(claims, async (client) => {
    await client.query("select set_config('storage.operation', $1, true)", [operation]);
    return fn(client);
  }, requestInfo(r));
}

/** True for the service role (secret key or service_role JWT): it bypasses RLS. */
export function isServiceRole(claims: Claims | null | undefined): boolean {
  return claims?.role === "service_role";
}

/**
 * Runs a delete as `run` does, with storage.allow_delete_query set for its transaction as
 * Supabase's Storage API sets it: storage.protect_delete refuses every other delete of
 * storage.objects and storage.buckets (a row deleted in SQL would leave its file behind).
 */
export function runDelete<T>(c: StorageContext, r: GatewayRequest, claims: Claims | null, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  return run(c, r, claims, async (client) => {
    await client.query("select set_config('storage.allow_delete_query', 'true', true)");
    return fn(client);
  });
}

const ROLLBACK = Symbol("rollback");

/** Runs a write as the caller and rolls it back: "would RLS let this caller do it?" */
export async function testPermission(c: StorageContext, r: GatewayRequest, claims: Claims | null, fn: (client: PoolClient) => Promise<void>) {
  if (!claims) return;
  try {
    await run(c, r, claims, async (client) => {
      await fn(client);
      throw ROLLBACK;
    });
  } catch (e) {
    if (e !== ROLLBACK) throw e;
  }
}

export async function findBucket(c: StorageContext, id: string): Promise<BucketRow> {
  const { rows } = await c.svc.db.query<BucketRow>(
    `select id, name, coalesce(public, false) as public, file_size_limit::float8 as file_size_limit, allowed_mime_types
       from storage.buckets where id = $1`,
    [id],
  );
  if (!rows[0]) throw ERRORS.noSuchBucket();
  return rows[0];
}

export function uploadLimit(c: StorageContext, bucket: BucketRow): number {
  const b = bucket.file_size_limit;
  return b && b > 0 ? Math.min(b, c.globalLimit) : c.globalLimit;
}
