// Bucket routes of Supabase Storage (/storage/v1/bucket...). Who may create, see,
// change or delete a bucket is decided by RLS on storage.buckets: with no policy
// only the service role (which bypasses RLS) may.
import { readJson, sendJson } from "../http.ts";
import type { GatewayRequest } from "../service.ts";
import { isServiceRole, iso, requireClaims, ownerOf, run, runDelete, type StorageContext } from "./context.ts";
import { ERRORS, fromDbError } from "./errors.ts";
import { isValidMimePattern, mustBeValidBucketName, parseBucketSize } from "./names.ts";

const BUCKET_COLUMNS = `id, name, owner, owner_id, coalesce(public, false) as public, type,
  file_size_limit::float8 as file_size_limit, allowed_mime_types, ${iso("created_at")}, ${iso("updated_at")}`;

interface BucketBody {
  id?: unknown;
  name?: unknown;
  public?: unknown;
  file_size_limit?: unknown;
  allowed_mime_types?: unknown;
}

function sizeLimit(c: StorageContext, value: unknown): number | null {
  const n = parseBucketSize(value);
  if (n !== null && n > c.globalLimit) throw ERRORS.entityTooLarge("bucket file size limit");
  return n;
}

function mimeTypes(value: unknown): string[] | null {
  if (value === null || value === undefined) return null;
  if (!Array.isArray(value)) throw ERRORS.invalidParameter("allowed_mime_types", "allowed_mime_types must be a list of mime types");
  const list = value.filter((v) => v !== "" && v !== null);
  for (const v of list) if (!isValidMimePattern(v)) throw ERRORS.invalidParameter("allowed_mime_types", `Invalid mime type: ${String(v).slice(0, 100)}`);
  return list.length ? (list as string[]).map((v) => v.trim()) : null;
}

function publicFlag(value: unknown): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean") throw ERRORS.invalidParameter("public", "public must be a boolean");
  return value;
}

export async function listBuckets(c: StorageContext, r: GatewayRequest) {
  const claims = requireClaims(r);
  const q = r.query;
  const limit = q.get("limit") ? Number(q.get("limit")) : null;
  const offset = q.get("offset") ? Number(q.get("offset")) : 0;
  if (limit !== null && (!Number.isInteger(limit) || limit < 1)) throw ERRORS.invalidParameter("limit");
  if (!Number.isInteger(offset) || offset < 0) throw ERRORS.invalidParameter("offset");
  const sortColumn = q.get("sortColumn") ?? "name";
  const sortOrder = (q.get("sortOrder") ?? "asc").toLowerCase();
  if (!["id", "name", "created_at", "updated_at"].includes(sortColumn)) throw ERRORS.invalidParameter("sortColumn");
  if (sortOrder !== "asc" && sortOrder !== "desc") throw ERRORS.invalidParameter("sortOrder");
  const search = q.get("search") ?? "";
  const rows = await run(c, r, claims, async (client) =>
    (await client.query(
      `select ${BUCKET_COLUMNS} from storage.buckets
        where $1 = '' or name ilike '%' || replace(replace(replace($1, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'
        order by ${sortColumn} ${sortOrder} limit $2 offset $3`,
      [search, limit, offset],
    )).rows,
  );
  sendJson(r.res, 200, rows);
}

export async function getBucket(c: StorageContext, r: GatewayRequest, idRaw: string) {
  const claims = requireClaims(r);
  const id = mustBeValidBucketName(idRaw);
  const row = await run(c, r, claims, async (client) => (await client.query(`select ${BUCKET_COLUMNS} from storage.buckets where id = $1`, [id])).rows[0]);
  if (!row) throw ERRORS.noSuchBucket();
  sendJson(r.res, 200, row);
}

export async function createBucket(c: StorageContext, r: GatewayRequest) {
  const claims = requireClaims(r);
  const body = await readJson<BucketBody>(r.req);
  if (body.name === undefined) throw ERRORS.missingParameter("name");
  const name = mustBeValidBucketName(body.name);
  const id = body.id === undefined || body.id === null ? name : mustBeValidBucketName(body.id);
  const isPublic = publicFlag(body.public) ?? false;
  const limit = sizeLimit(c, body.file_size_limit);
  const mimes = mimeTypes(body.allowed_mime_types);
  const owner = ownerOf(claims);
  try {
    await run(c, r, claims, (client) =>
      client.query(
        `insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types)
         values ($1, $2, $3, $4, $5, $6, $7)`,
        [id, name, owner.owner, owner.owner_id, isPublic, limit, mimes],
      ),
    );
  } catch (e) {
    if ((e as { code?: string }).code === "23505") throw ERRORS.bucketAlreadyExists();
    throw e;
  }
  sendJson(r.res, 200, { name });
}

export async function updateBucket(c: StorageContext, r: GatewayRequest, idRaw: string) {
  const claims = requireClaims(r);
  const id = mustBeValidBucketName(idRaw);
  const body = await readJson<BucketBody>(r.req);
  const sets: string[] = ["updated_at = now()"];
  const params: unknown[] = [id];
  const isPublic = publicFlag(body.public);
  if (isPublic !== undefined) sets.push(`public = $${params.push(isPublic)}`);
  if (body.file_size_limit !== undefined) sets.push(`file_size_limit = $${params.push(sizeLimit(c, body.file_size_limit))}`);
  if (body.allowed_mime_types !== undefined) sets.push(`allowed_mime_types = $${params.push(mimeTypes(body.allowed_mime_types))}`);
  const count = await run(c, r, claims, async (client) => (await client.query(`update storage.buckets set ${sets.join(", ")} where id = $1`, params)).rowCount);
  if (!count) throw ERRORS.noSuchBucket();
  sendJson(r.res, 200, { message: "Successfully updated" });
}

export async function deleteBucket(c: StorageContext, r: GatewayRequest, idRaw: string) {
  const claims = requireClaims(r);
  const id = mustBeValidBucketName(idRaw);
  if (!r.req.complete) r.req.resume();
  const { rows } = await c.svc.db.query("select 1 from storage.objects where bucket_id = $1 limit 1", [id]);
  if (rows.length) throw ERRORS.bucketNotEmpty();
  let count: number | null;
  try {
    count = await runDelete(c, r, claims, async (client) => (await client.query("delete from storage.buckets where id = $1", [id])).rowCount);
  } catch (e) {
    if ((e as { code?: string }).code === "23503") throw ERRORS.bucketNotEmpty();
    throw fromDbError(e) ?? e;
  }
  if (!count) throw ERRORS.noSuchBucket();
  await c.files.removeBucket(id);
  sendJson(r.res, 200, { message: "Successfully deleted" });
}

export async function emptyBucket(c: StorageContext, r: GatewayRequest, idRaw: string) {
  const claims = requireClaims(r);
  const id = mustBeValidBucketName(idRaw);
  if (!r.req.complete) r.req.resume();
  // As on Supabase: emptying a bucket is for the service role only, whatever the policies say.
  if (!isServiceRole(claims)) throw ERRORS.accessDenied("Only the service role may empty a bucket");
  const removed = await runDelete(c, r, claims, async (client) => {
    const found = await client.query("select 1 from storage.buckets where id = $1", [id]);
    if (!found.rowCount) throw ERRORS.noSuchBucket();
    return (await client.query<{ name: string; version: string | null }>("delete from storage.objects where bucket_id = $1 returning name, version", [id])).rows;
  });
  for (const row of removed) await c.files.removeVersion(id, row.name, row.version);
  sendJson(r.res, 200, { message: "Successfully emptied" });
}
