// Supabase Storage API at /storage/v1 (the routes storage-js calls), files under
// <dataDir>/storage, permissions decided by RLS on storage.objects / storage.buckets.
// As on hosted Supabase, the tables refuse deletes in SQL (storage.protect_delete,
// stack/sql/20-storage.sql): this API deletes with storage.allow_delete_query set for
// its transaction (runDelete), so a row never goes without its file.
import { parseSize } from "../config.ts";
import { HttpError } from "../http.ts";
import type { GatewayRequest, Service, ServiceContext } from "../service.ts";
import * as buckets from "./buckets.ts";
import { setOperation, type StorageContext } from "./context.ts";
import { ERRORS, StorageError, fromDbError, sendError } from "./errors.ts";
import { FileStore } from "./files.ts";
import { listV2 } from "./list-v2.ts";
import { KeyLocks } from "./locks.ts";
import * as objects from "./objects.ts";
import { expireUploads, routeResumable } from "./tus.ts";

function decode(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw ERRORS.invalidRequest("Malformed percent-encoding in path");
  }
}

/** "/a/b/c" after "object/" -> bucket "a", key "b/c" (decoded). */
function bucketAndKey(parts: string[], from: number): [string, string] {
  return [decode(parts[from] ?? ""), decode(parts.slice(from + 1).join("/"))];
}

async function routeObject(c: StorageContext, r: GatewayRequest, method: string, parts: string[]) {
  const [first = "", second = ""] = parts;
  switch (method) {
    case "GET":
    case "HEAD":
      if (first === "public") return objects.downloadPublic(c, r, ...bucketAndKey(parts, 1));
      if (first === "authenticated") return objects.downloadAuthenticated(c, r, ...bucketAndKey(parts, 1));
      if (first === "sign" && method === "GET") return objects.downloadSigned(c, r, ...bucketAndKey(parts, 1));
      if (first === "info" && method === "GET") {
        if (second === "public") return objects.info(c, r, ...bucketAndKey(parts, 2), true);
        if (second === "authenticated") return objects.info(c, r, ...bucketAndKey(parts, 2), false);
        return objects.info(c, r, ...bucketAndKey(parts, 1), false);
      }
      return objects.downloadAuthenticated(c, r, ...bucketAndKey(parts, 0));
    case "POST":
      if (first === "move" && parts.length === 1) return objects.move(c, r);
      if (first === "copy" && parts.length === 1) return objects.copy(c, r);
      if (first === "list" && parts.length === 2) return objects.list(c, r, decode(second));
      if (first === "list-v2" && parts.length === 2) return listV2(c, r, decode(second));
      if (first === "sign" && parts.length === 2) return objects.signUrls(c, r, decode(second));
      if (first === "sign") return objects.signUrl(c, r, ...bucketAndKey(parts, 1));
      if (first === "upload" && second === "sign") return objects.signUpload(c, r, ...bucketAndKey(parts, 2));
      return objects.upload(c, r, ...bucketAndKey(parts, 0), "POST");
    case "PUT":
      if (first === "upload" && second === "sign") return objects.uploadSigned(c, r, ...bucketAndKey(parts, 2));
      return objects.upload(c, r, ...bucketAndKey(parts, 0), "PUT");
    case "DELETE":
      if (parts.length === 1) return objects.removeMany(c, r, decode(first));
      return objects.removeOne(c, r, ...bucketAndKey(parts, 0));
  }
  throw ERRORS.notFoundRoute();
}

async function routeBucket(c: StorageContext, r: GatewayRequest, method: string, parts: string[]) {
  if (parts.length === 0 || (parts.length === 1 && parts[0] === "")) {
    if (method === "GET") return buckets.listBuckets(c, r);
    if (method === "POST") return buckets.createBucket(c, r);
  } else if (parts.length === 1) {
    const id = decode(parts[0]!);
    if (method === "GET") return buckets.getBucket(c, r, id);
    if (method === "PUT") return buckets.updateBucket(c, r, id);
    if (method === "DELETE") return buckets.deleteBucket(c, r, id);
  } else if (parts.length === 2 && parts[1] === "empty" && method === "POST") {
    return buckets.emptyBucket(c, r, decode(parts[0]!));
  }
  throw ERRORS.notFoundRoute();
}

/** Supabase Storage's operation name for a route (its ROUTE_OPERATIONS), set as `storage.operation`. */
export function operationOf(method: string, parts: string[]): string {
  const [root = "", first = "", second = ""] = parts;
  const o = (name: string) => `storage.object.${name}`;
  if (root === "bucket") {
    if (parts.length <= 2 && (first === "" || parts.length === 1)) {
      if (first === "") return method === "POST" ? "storage.bucket.create" : "storage.bucket.list";
      return ({ GET: "storage.bucket.get", PUT: "storage.bucket.update", DELETE: "storage.bucket.delete" } as Record<string, string>)[method] ?? "";
    }
    return second === "empty" ? "storage.bucket.empty" : "";
  }
  if (root === "upload") {
    // Supabase's ROUTE_OPERATIONS for its tus server.
    if (method === "OPTIONS") return "storage.tus.options";
    if (method === "POST") return "storage.tus.upload.create";
    return ({ PATCH: "storage.tus.upload.part", HEAD: "storage.tus.upload.get", DELETE: "storage.tus.upload.delete" } as Record<string, string>)[method] ?? "";
  }
  if (root !== "object") return "";
  switch (method) {
    case "GET":
    case "HEAD":
      if (first === "public") return o("get_public");
      if (first === "sign") return o("get_signed");
      if (first === "info") return second === "public" ? o("info_public") : o("info_authenticated");
      return o("get_authenticated");
    case "POST":
      if (first === "move") return o("move");
      if (first === "copy") return o("copy");
      if (first === "list") return o("list");
      if (first === "list-v2") return o("list_v2");
      if (first === "sign") return parts.length === 3 ? o("sign_many") : o("sign");
      if (first === "upload" && second === "sign") return o("sign_upload_url");
      return o("upload");
    case "PUT":
      if (first === "upload" && second === "sign") return o("upload_signed");
      return o("upload_update");
    case "DELETE":
      return parts.length === 2 ? o("delete_many") : o("delete");
  }
  return "";
}

function toStorageError(c: StorageContext, r: GatewayRequest, e: unknown): StorageError {
  if (e instanceof StorageError) return e;
  // The client went away mid-request: nobody is left to answer, nothing to log.
  if (r.req.destroyed && !r.req.complete) return new StorageError(400, "Aborted", "The request was aborted");
  if (e instanceof HttpError) {
    if (e.status === 413) return ERRORS.entityTooLarge("request body");
    return new StorageError(e.status, e.status === 400 ? "InvalidRequest" : e.code, e.message);
  }
  const mapped = fromDbError(e);
  if (mapped) return mapped;
  c.svc.log.error("storage request failed", { error: (e as Error)?.stack ?? String(e) });
  return ERRORS.internal();
}

export async function createService(ctx: ServiceContext): Promise<Service> {
  const files = new FileStore(ctx.options.dataDir);
  const c: StorageContext = {
    svc: ctx,
    files,
    locks: new KeyLocks(),
    globalLimit: parseSize(ctx.config.storage?.file_size_limit, 50 * 1024 * 1024),
  };
  const log = ctx.log.child ? ctx.log.child("storage") : ctx.log;

  // Leftovers of a crash: temp files and versions whose row never committed.
  const { rows } = await ctx.db.query<{ bucket_id: string; name: string; version: string }>(
    "select bucket_id, name, version from storage.objects where version is not null",
  );
  const current = new Set(rows.map((x) => `${x.bucket_id}\u0000${x.name}\u0000${x.version}`));
  const removed = await files.sweep((bucket, key, version) => current.has(`${bucket}\u0000${key}\u0000${version}`));
  if (removed > 0) log.info(`storage: removed ${removed} leftover file(s) from an earlier run`);
  await expireUploads(c);

  return {
    async handle(r: GatewayRequest) {
      const method = (r.req.method ?? "GET").toUpperCase();
      try {
        const parts = r.path.replace(/^\/+/, "").split("/");
        const [root, ...rest] = parts;
        setOperation(r, operationOf(method, parts));
        if (root === "object") return await routeObject(c, r, method, rest);
        if (root === "bucket") return await routeBucket(c, r, method, rest);
        if (root === "upload") return await routeResumable(c, r, method, rest);
        throw ERRORS.notFoundRoute();
      } catch (e) {
        const err = toStorageError(c, r, e);
        if (!r.req.complete) {
          // Answer now; a large unread body is not worth reading only to discard it.
          const declared = Number(r.req.headers["content-length"] ?? "0");
          if (!(declared > 0 && declared < 8 * 1024 * 1024)) r.res.setHeader("connection", "close");
          r.req.resume();
        }
        sendError(r.res, err);
      }
    },
    health: () => files.writable(),
  };
}
