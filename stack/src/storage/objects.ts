// Object routes of Supabase Storage (/storage/v1/object/...): upload and update,
// downloads (authenticated, public, signed), info, signed URLs and signed uploads,
// list, move, copy and delete. Every read or write of storage.objects runs as the
// caller under RLS, except where Supabase Storage itself acts as super user
// (public buckets, signed URLs, signed uploads).
import crypto from "node:crypto";
import type { PoolClient } from "pg";
import { readJson, sendJson } from "../http.ts";
import { JwtError, signJwt, verifyJwt, type Claims } from "../keys.ts";
import type { GatewayRequest } from "../service.ts";
import { findBucket, iso, ownerOf, requireClaims, run, runDelete, testPermission, uploadLimit, type StorageContext } from "./context.ts";
import { ERRORS, StorageError } from "./errors.ts";
import { receiveUpload, type KnownBeforeBody } from "./incoming.ts";
import { lockKey } from "./locks.ts";
import { mustBeValidBucketName, mustBeValidKey } from "./names.ts";
import { objectInfo, renderObject, type ObjectRow } from "./render.ts";

const OBJECT_COLUMNS = `id, bucket_id, name, version, metadata, user_metadata, ${iso("created_at")}, ${iso("updated_at")}`;
const RETURNED_COLUMNS = `bucket_id, name, id, owner, owner_id, version, metadata, user_metadata, ${iso("created_at")}, ${iso("updated_at")}, ${iso("last_accessed_at")}`;
const SIGNED_UPLOAD_SECONDS = 2 * 3600; // Supabase: signed upload URLs are valid for 2 hours
const MAX_PATHS = 1000;
const UPLOAD_IDLE_MS = 60_000;

export interface RowValues {
  id: string;
  bucket: string;
  key: string;
  owner: string | null;
  owner_id: string | null;
  version: string;
  metadata: Record<string, unknown>;
  userMetadata: Record<string, unknown> | null;
}

export type WriteMode = "create" | "upsert" | "update";

/** The one statement that writes an object row, for each upload mode. */
export async function writeRow(client: PoolClient, mode: WriteMode, v: RowValues) {
  const params = [v.id, v.bucket, v.key, v.owner, v.owner_id, v.version, JSON.stringify(v.metadata), v.userMetadata ? JSON.stringify(v.userMetadata) : null];
  if (mode === "update") {
    const res = await client.query(
      `update storage.objects set owner = $4, owner_id = $5, version = $6, metadata = $7, user_metadata = $8,
              updated_at = now(), last_accessed_at = now()
        where bucket_id = $2 and name = $3 and $1::uuid is not null`,
      params,
    );
    if (res.rowCount === 0) throw ERRORS.noSuchKey();
    return;
  }
  await client.query(
    `insert into storage.objects (id, bucket_id, name, owner, owner_id, version, metadata, user_metadata)
     values ($1, $2, $3, $4, $5, $6, $7, $8)` +
      (mode === "upsert"
        ? ` on conflict (bucket_id, name) do update set owner = excluded.owner, owner_id = excluded.owner_id,
              version = excluded.version, metadata = excluded.metadata, user_metadata = excluded.user_metadata,
              updated_at = now(), last_accessed_at = now()`
        : ""),
    params,
  );
}

export async function currentRow(c: StorageContext, bucket: string, key: string) {
  const { rows } = await c.svc.db.query<{ id: string; version: string | null }>(
    "select id, version from storage.objects where bucket_id = $1 and name = $2",
    [bucket, key],
  );
  return rows[0] ?? null;
}

/**
 * Receives an upload for bucket/key: bytes to a temp file, rename into place, then the
 * row. Insert policies are decided by that row's write, as the caller, with everything
 * Supabase Storage stores (metadata.size / contentLength / mimetype, user_metadata from
 * the `metadata` form field or the `x-metadata` header), so policies on them see real
 * values. A raw body with a Content-Length is known whole before any byte is read: its
 * row is tested first, so a refused upload is refused before its bytes are stored.
 * `claims` null means the stack acts itself (signed uploads, checked when signed), with
 * `owner` taken from the token.
 */
async function acceptUpload(
  c: StorageContext,
  r: GatewayRequest,
  o: { bucket: string; key: string; mode: WriteMode; claims: Claims | null; owner: { owner: string | null; owner_id: string | null } },
) {
  const bucket = await findBucket(c, o.bucket);
  const limit = uploadLimit(c, bucket);
  return c.locks.withKeys([lockKey(o.bucket, o.key)], async () => {
    const old = await currentRow(c, o.bucket, o.key);
    if (o.mode === "create" && old) throw ERRORS.alreadyExists();
    if (o.mode === "update" && !old) throw ERRORS.noSuchKey();
    const id = old?.id ?? crypto.randomUUID();
    const version = crypto.randomUUID();
    const values: RowValues = { id, bucket: o.bucket, key: o.key, ...o.owner, version, metadata: {}, userMetadata: {} };
    const precheck = (known: KnownBeforeBody) =>
      testPermission(c, r, o.claims, (client) =>
        writeRow(client, o.mode, {
          ...values,
          metadata: { size: known.size, mimetype: known.mimeType, cacheControl: known.cacheControl, contentLength: known.size, httpStatusCode: 200 },
          userMetadata: known.userMetadata ?? {},
        }),
      );

    // A stalled client must not hold the key's lock for ever.
    r.req.setTimeout(UPLOAD_IDLE_MS, () => r.req.destroy(new Error("upload idle for too long")));
    let incoming;
    try {
      incoming = await receiveUpload(r.req, { maxBytes: limit, allowedMimeTypes: bucket.allowed_mime_types }, {
        precheck,
        write: (stream, max) => c.files.writeTemp(o.bucket, o.key, stream, max),
        discard: (file) => c.files.discard(file),
      });
    } finally {
      r.req.setTimeout(0);
    }
    try {
      await c.files.commitTemp(incoming.file.tempPath, o.bucket, o.key, version);
    } catch (e) {
      await c.files.discard(incoming.file.tempPath);
      throw e;
    }
    const now = new Date().toISOString();
    values.metadata = {
      eTag: `"${incoming.file.md5}"`,
      size: incoming.file.size,
      mimetype: incoming.mimeType,
      cacheControl: incoming.cacheControl,
      lastModified: now,
      contentLength: incoming.file.size,
      httpStatusCode: 200,
    };
    values.userMetadata = incoming.userMetadata ?? {};
    try {
      await run(c, r, o.claims, (client) => writeRow(client, o.mode, values));
    } catch (e) {
      await c.files.removeVersion(o.bucket, o.key, version);
      throw e;
    }
    if (old?.version && old.version !== version) await c.files.removeVersion(o.bucket, o.key, old.version);
    return { Id: id, Key: `${o.bucket}/${o.key}` };
  });
}

/** POST (create, or upsert with x-upsert: true) and PUT (update) /object/{bucket}/{key}. */
export async function upload(c: StorageContext, r: GatewayRequest, bucketRaw: string, keyRaw: string, method: "POST" | "PUT") {
  const claims = requireClaims(r);
  const bucket = mustBeValidBucketName(bucketRaw);
  const key = mustBeValidKey(keyRaw);
  const mode: WriteMode = method === "PUT" ? "update" : r.req.headers["x-upsert"] === "true" ? "upsert" : "create";
  const result = await acceptUpload(c, r, { bucket, key, mode, claims, owner: ownerOf(claims) });
  sendJson(r.res, 200, result);
}

async function selectObject(client: PoolClient, bucket: string, key: string): Promise<ObjectRow> {
  const { rows } = await client.query<ObjectRow>(`select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and name = $2`, [bucket, key]);
  if (!rows[0]) throw ERRORS.noSuchKey();
  return rows[0];
}

async function findObject(c: StorageContext, r: GatewayRequest, claims: Claims | null, bucket: string, key: string) {
  return run(c, r, claims, (client) => selectObject(client, bucket, key));
}

async function renderRow(c: StorageContext, r: GatewayRequest, row: ObjectRow, o: { head?: boolean; expires?: Date }) {
  if (!row.version) throw ERRORS.noSuchKey();
  const file = c.files.versionPath(row.bucket_id, row.name, row.version);
  await renderObject(r.req, r.res, file, row, { ...o, download: r.query.get("download") });
}

/** GET/HEAD /object/{bucket}/{key} and /object/authenticated/{bucket}/{key}. */
export async function downloadAuthenticated(c: StorageContext, r: GatewayRequest, bucketRaw: string, keyRaw: string) {
  const claims = requireClaims(r);
  const bucket = mustBeValidBucketName(bucketRaw);
  const key = mustBeValidKey(keyRaw);
  const row = await findObject(c, r, claims, bucket, key);
  await renderRow(c, r, row, {});
}

async function mustBePublicBucket(c: StorageContext, bucket: string) {
  const b = await findBucket(c, bucket);
  if (!b.public) throw ERRORS.noSuchBucket();
}

/** GET/HEAD /object/public/{bucket}/{key}: public buckets only, no token needed. */
export async function downloadPublic(c: StorageContext, r: GatewayRequest, bucketRaw: string, keyRaw: string) {
  const bucket = mustBeValidBucketName(bucketRaw);
  const key = mustBeValidKey(keyRaw);
  await mustBePublicBucket(c, bucket);
  const row = await findObject(c, r, null, bucket, key);
  await renderRow(c, r, row, {});
}

/** GET /object/info/{bucket}/{key}, /object/info/authenticated/..., /object/info/public/... */
export async function info(c: StorageContext, r: GatewayRequest, bucketRaw: string, keyRaw: string, isPublic: boolean) {
  const bucket = mustBeValidBucketName(bucketRaw);
  const key = mustBeValidKey(keyRaw);
  let row: ObjectRow;
  if (isPublic) {
    await mustBePublicBucket(c, bucket);
    row = await findObject(c, r, null, bucket, key);
  } else {
    row = await findObject(c, r, requireClaims(r), bucket, key);
  }
  const meta = row.metadata ?? {};
  const headers: Record<string, string> = {};
  if (typeof meta.eTag === "string") headers.etag = meta.eTag;
  if (typeof meta.cacheControl === "string") headers["cache-control"] = meta.cacheControl;
  sendJson(r.res, 200, objectInfo(row), headers);
}

function expiresInOf(value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) throw ERRORS.invalidParameter("expiresIn", "expiresIn must be an integer of at least 1");
  return value;
}

function signedPath(kind: "sign" | "upload/sign", url: string, token: string) {
  return `/object/${kind}/${url}?token=${token}`;
}

/** POST /object/sign/{bucket}/{key} {expiresIn}: a download URL for an object the caller may read. */
export async function signUrl(c: StorageContext, r: GatewayRequest, bucketRaw: string, keyRaw: string) {
  const claims = requireClaims(r);
  const bucket = mustBeValidBucketName(bucketRaw);
  const key = mustBeValidKey(keyRaw);
  const body = await readJson<{ expiresIn?: unknown }>(r.req);
  const expiresIn = expiresInOf(body.expiresIn);
  await findObject(c, r, claims, bucket, key);
  const url = `${bucket}/${key}`;
  const token = await signJwt(c.svc.keys.jwtSecret, { url }, expiresIn);
  sendJson(r.res, 200, { signedURL: signedPath("sign", url, token) });
}

/** POST /object/sign/{bucket} {expiresIn, paths}: many signed URLs; unreadable paths get an error. */
export async function signUrls(c: StorageContext, r: GatewayRequest, bucketRaw: string) {
  const claims = requireClaims(r);
  const bucket = mustBeValidBucketName(bucketRaw);
  const body = await readJson<{ expiresIn?: unknown; paths?: unknown }>(r.req);
  const expiresIn = expiresInOf(body.expiresIn);
  const paths = stringList(body.paths, "paths");
  const visible = await run(c, r, claims, async (client) => {
    const { rows } = await client.query<{ name: string }>("select name from storage.objects where bucket_id = $1 and name = any($2::text[])", [bucket, paths]);
    return new Set(rows.map((x) => x.name));
  });
  const result = await Promise.all(
    paths.map(async (path) => {
      if (!visible.has(path)) return { error: "Either the object does not exist or you do not have access to it", path, signedURL: null };
      const url = `${bucket}/${path}`;
      const token = await signJwt(c.svc.keys.jwtSecret, { url }, expiresIn);
      return { error: null, path, signedURL: signedPath("sign", url, token) };
    }),
  );
  sendJson(r.res, 200, result);
}

async function verifyToken(c: StorageContext, token: string | null, url: string, kind: "download" | "upload") {
  if (!token) throw ERRORS.missingParameter("token");
  let payload: Claims;
  try {
    payload = await verifyJwt(c.svc.keys.jwtSecret, token);
  } catch (e) {
    throw ERRORS.invalidJwt(e instanceof JwtError && e.code === "jwt_expired" ? "jwt expired" : "Invalid JWT");
  }
  // Upload tokens are marked so that one kind of URL cannot be used as the other.
  const isUpload = payload.kind === "upload";
  if (payload.url !== url || isUpload !== (kind === "upload")) throw ERRORS.invalidSignature();
  return payload;
}

/** GET /object/sign/{bucket}/{key}?token=: the object, for as long as the token lives. */
export async function downloadSigned(c: StorageContext, r: GatewayRequest, bucketRaw: string, keyRaw: string) {
  const bucket = mustBeValidBucketName(bucketRaw);
  const key = mustBeValidKey(keyRaw);
  const payload = await verifyToken(c, r.query.get("token"), `${bucket}/${key}`, "download");
  const row = await findObject(c, r, null, bucket, key);
  await renderRow(c, r, row, { expires: typeof payload.exp === "number" ? new Date(payload.exp * 1000) : undefined });
}

/** POST /object/upload/sign/{bucket}/{key}: a URL anyone may upload this one key to, if the caller may. */
export async function signUpload(c: StorageContext, r: GatewayRequest, bucketRaw: string, keyRaw: string) {
  const claims = requireClaims(r);
  const bucket = mustBeValidBucketName(bucketRaw);
  const key = mustBeValidKey(keyRaw);
  if (!r.req.complete) r.req.resume();
  const upsert = r.req.headers["x-upsert"] === "true";
  await findBucket(c, bucket);
  const old = await currentRow(c, bucket, key);
  if (old && !upsert) throw ERRORS.alreadyExists();
  const owner = ownerOf(claims);
  await testPermission(c, r, claims, (client) =>
    writeRow(client, upsert ? "upsert" : "create", {
      id: old?.id ?? crypto.randomUUID(), bucket, key, ...owner, version: crypto.randomUUID(), metadata: {}, userMetadata: null,
    }),
  );
  const url = `${bucket}/${key}`;
  const token = await signJwt(c.svc.keys.jwtSecret, { url, kind: "upload", owner: owner.owner_id, upsert }, SIGNED_UPLOAD_SECONDS);
  sendJson(r.res, 200, { url: signedPath("upload/sign", url, token), token });
}

/** PUT /object/upload/sign/{bucket}/{key}?token=: the upload itself, as the signer. */
export async function uploadSigned(c: StorageContext, r: GatewayRequest, bucketRaw: string, keyRaw: string) {
  const bucket = mustBeValidBucketName(bucketRaw);
  const key = mustBeValidKey(keyRaw);
  const payload = await verifyToken(c, r.query.get("token"), `${bucket}/${key}`, "upload");
  const ownerId = typeof payload.owner === "string" ? payload.owner : undefined;
  const result = await acceptUpload(c, r, {
    bucket, key, mode: payload.upsert === true ? "upsert" : "create", claims: null, owner: ownerOf({ sub: ownerId }),
  });
  sendJson(r.res, 200, result);
}

const SORT_COLUMNS = ["name", "updated_at", "created_at", "last_accessed_at"];

/** POST /object/list/{bucket}: one folder level, folders first (id null), as Supabase's storage.search. */
export async function list(c: StorageContext, r: GatewayRequest, bucketRaw: string) {
  const claims = requireClaims(r);
  const bucket = mustBeValidBucketName(bucketRaw);
  const body = await readJson<{ prefix?: unknown; limit?: unknown; offset?: unknown; search?: unknown; sortBy?: unknown }>(r.req);
  let prefix = body.prefix ?? "";
  if (typeof prefix !== "string") throw ERRORS.invalidParameter("prefix");
  if (prefix.length > 0 && !prefix.endsWith("/")) prefix += "/";
  const limit = body.limit ?? 100;
  const offset = body.offset ?? 0;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1) throw ERRORS.invalidParameter("limit");
  if (typeof offset !== "number" || !Number.isInteger(offset) || offset < 0) throw ERRORS.invalidParameter("offset");
  const search = body.search ?? "";
  if (typeof search !== "string") throw ERRORS.invalidParameter("search");
  const sortBy = (body.sortBy ?? {}) as { column?: unknown; order?: unknown };
  if (typeof sortBy !== "object" || sortBy === null) throw ERRORS.invalidParameter("sortBy");
  const column = sortBy.column ?? "name";
  const order = typeof sortBy.order === "string" ? sortBy.order.toLowerCase() : "asc";
  if (typeof column !== "string" || !SORT_COLUMNS.includes(column)) throw ERRORS.invalidParameter("sortBy", "sortBy.column must be one of " + SORT_COLUMNS.join(", "));
  if (order !== "asc" && order !== "desc") throw ERRORS.invalidParameter("sortBy", "sortBy.order must be asc or desc");
  const levels = prefix.split("/").length;
  const rows = await run(c, r, claims, async (client) =>
    (await client.query(
      `select name, id, ${iso("updated_at")}, ${iso("created_at")}, ${iso("last_accessed_at")}, metadata from storage.search($1, $2, $3, $4, $5, $6, $7, $8)`,
      [prefix, bucket, Math.min(limit, 10_000), levels, offset, search, column, order],
    )).rows,
  );
  sendJson(r.res, 200, rows);
}

function stringList(value: unknown, name: string): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_PATHS || !value.every((v) => typeof v === "string")) {
    throw ERRORS.invalidParameter(name, `${name} must be a list of 1 to ${MAX_PATHS} strings`);
  }
  return value as string[];
}

interface MoveBody {
  bucketId?: unknown;
  sourceKey?: unknown;
  destinationKey?: unknown;
  destinationBucket?: unknown;
}

async function readMoveBody(r: GatewayRequest) {
  const body = await readJson<MoveBody>(r.req);
  if (typeof body.bucketId !== "string") throw ERRORS.missingParameter("bucketId");
  const bucket = mustBeValidBucketName(body.bucketId);
  const destBucket = body.destinationBucket === undefined || body.destinationBucket === null ? bucket : mustBeValidBucketName(body.destinationBucket);
  return { bucket, source: mustBeValidKey(body.sourceKey), destBucket, dest: mustBeValidKey(body.destinationKey) };
}

/** POST /object/move: renames the row as the caller (UPDATE policies see old and new), then the file. */
export async function move(c: StorageContext, r: GatewayRequest) {
  const claims = requireClaims(r);
  const m = await readMoveBody(r);
  if (m.bucket === m.destBucket && m.source === m.dest) return sendJson(r.res, 200, { message: "Successfully moved" });
  await findBucket(c, m.destBucket);
  await c.locks.withKeys([lockKey(m.bucket, m.source), lockKey(m.destBucket, m.dest)], async () => {
    const src = await currentRow(c, m.bucket, m.source);
    if (!src) throw ERRORS.noSuchKey();
    const version = src.version ? crypto.randomUUID() : null;
    if (src.version && version) await c.files.linkVersion({ bucket: m.bucket, key: m.source, version: src.version }, { bucket: m.destBucket, key: m.dest, version });
    try {
      await run(c, r, claims, async (client) => {
        const res = await client.query(
          `update storage.objects set bucket_id = $3, name = $4, version = $5, updated_at = now()
            where bucket_id = $1 and name = $2`,
          [m.bucket, m.source, m.destBucket, m.dest, version],
        );
        if (res.rowCount === 0) throw ERRORS.noSuchKey();
      });
    } catch (e) {
      await c.files.removeVersion(m.destBucket, m.dest, version);
      throw e;
    }
    await c.files.removeVersion(m.bucket, m.source, src.version);
  });
  sendJson(r.res, 200, { message: "Successfully moved" });
}

/** POST /object/copy: the caller must read the source and insert the destination. */
export async function copy(c: StorageContext, r: GatewayRequest) {
  const claims = requireClaims(r);
  const m = await readMoveBody(r);
  const upsert = r.req.headers["x-upsert"] === "true";
  await findBucket(c, m.destBucket);
  if (m.bucket === m.destBucket && m.source === m.dest) {
    const row = await findObject(c, r, claims, m.bucket, m.source);
    return sendJson(r.res, 200, { Id: row.id, Key: `${m.destBucket}/${m.dest}` });
  }
  const result = await c.locks.withKeys([lockKey(m.bucket, m.source), lockKey(m.destBucket, m.dest)], async () => {
    const old = await currentRow(c, m.destBucket, m.dest);
    if (old && !upsert) throw ERRORS.alreadyExists();
    const version = crypto.randomUUID();
    const id = old?.id ?? crypto.randomUUID();
    try {
      await run(c, r, claims, async (client) => {
        const src = await selectObject(client, m.bucket, m.source);
        if (src.version) await c.files.linkVersion({ bucket: m.bucket, key: m.source, version: src.version }, { bucket: m.destBucket, key: m.dest, version });
        const metadata = { ...(src.metadata ?? {}), lastModified: new Date().toISOString() };
        await writeRow(client, upsert ? "upsert" : "create", {
          id, bucket: m.destBucket, key: m.dest, ...ownerOf(claims), version, metadata, userMetadata: src.user_metadata,
        });
      });
    } catch (e) {
      await c.files.removeVersion(m.destBucket, m.dest, version);
      throw e;
    }
    if (old?.version) await c.files.removeVersion(m.destBucket, m.dest, old.version);
    return { Id: id, Key: `${m.destBucket}/${m.dest}` };
  });
  sendJson(r.res, 200, result);
}

/** DELETE /object/{bucket} {prefixes}: deletes what the caller may delete and see; returns those rows. */
export async function removeMany(c: StorageContext, r: GatewayRequest, bucketRaw: string) {
  const claims = requireClaims(r);
  const bucket = mustBeValidBucketName(bucketRaw);
  const body = await readJson<{ prefixes?: unknown }>(r.req);
  const prefixes = stringList(body.prefixes, "prefixes");
  const deleted = await c.locks.withKeys(prefixes.map((p) => lockKey(bucket, p)), async () => {
    const rows = await runDelete(c, r, claims, async (client) =>
      (await client.query<{ name: string; version: string | null }>(
        `delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning ${RETURNED_COLUMNS}`,
        [bucket, prefixes],
      )).rows,
    );
    for (const row of rows) await c.files.removeVersion(bucket, row.name, row.version);
    return rows;
  });
  sendJson(r.res, 200, deleted);
}

/** DELETE /object/{bucket}/{key}: one object. */
export async function removeOne(c: StorageContext, r: GatewayRequest, bucketRaw: string, keyRaw: string) {
  const claims = requireClaims(r);
  const bucket = mustBeValidBucketName(bucketRaw);
  const key = mustBeValidKey(keyRaw);
  if (!r.req.complete) r.req.resume();
  await c.locks.withKeys([lockKey(bucket, key)], async () => {
    const rows = await runDelete(c, r, claims, async (client) =>
      (await client.query<{ version: string | null }>("delete from storage.objects where bucket_id = $1 and name = $2 returning version", [bucket, key])).rows,
    );
    if (!rows[0]) {
      // Visible to the caller but not deleted: Supabase answers "access denied"; an
      // object the caller cannot even see stays "not found" (its existence is not told).
      const visible = await run(c, r, claims, async (client) =>
        (await client.query("select 1 from storage.objects where bucket_id = $1 and name = $2", [bucket, key])).rowCount ?? 0,
      );
      if (visible > 0) throw ERRORS.accessDenied();
      throw ERRORS.noSuchKey();
    }
    await c.files.removeVersion(bucket, key, rows[0].version);
  });
  sendJson(r.res, 200, { message: "Successfully deleted" });
}

export { StorageError };
