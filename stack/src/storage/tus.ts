// Resumable uploads at /storage/v1/upload/resumable: the TUS 1.0 protocol as Supabase
// Storage speaks it (tus-js-client with Upload-Metadata bucketName, objectName,
// contentType, cacheControl and metadata; x-upsert; extensions creation,
// creation-with-upload, termination, expiration). Parts are appended to a file under
// <dataDir>/storage-uploads; a dropped connection keeps what arrived, and HEAD tells the
// client where to resume. As with Supabase's tus server, a new request for an upload
// stops the one still in flight for it (its bytes so far are kept), and a finished
// upload answers HEAD with its full length until it expires, so a client whose last
// answer was lost resumes into success instead of starting again. The upload is refused
// at creation when the caller's insert policy refuses its row (size, type and user
// metadata are all declared then), and the finished object's row is written as the
// caller, as every other upload's is.
import crypto from "node:crypto";
import { once } from "node:events";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Claims } from "../keys.ts";
import type { GatewayRequest } from "../service.ts";
import { findBucket, ownerOf, requireClaims, run, testPermission, uploadLimit, type StorageContext } from "./context.ts";
import { ERRORS, StorageError } from "./errors.ts";
import { lockKey } from "./locks.ts";
import { mustBeAllowedMimeType, mustBeValidBucketName, mustBeValidKey } from "./names.ts";
import { currentRow, writeRow, type RowValues, type WriteMode } from "./objects.ts";

const TUS_VERSION = "1.0.0";
const EXTENSIONS = "creation,creation-with-upload,termination,expiration";
const EXPIRES_MS = 24 * 3600 * 1000; // Supabase: an unfinished upload URL lives 24 hours
const MAX_METADATA_BYTES = 1024 * 1024;
const ID = /^[A-Za-z0-9_-]{1,2048}$/;
const EXPOSE = "location, upload-offset, upload-length, upload-metadata, upload-expires, tus-resumable, tus-version, tus-extension, tus-max-size";

interface UploadState {
  bucket: string;
  key: string;
  version: string;
  size: number;
  mode: WriteMode;
  sub: string | null;
  contentType: string;
  cacheControl: string;
  userMetadata: Record<string, unknown>;
  /** The Upload-Metadata header as sent (HEAD answers it back). */
  rawMetadata?: string;
  expires: number;
  /** The last byte arrived and the object was written. */
  done?: boolean;
}

function tusHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { "tus-resumable": TUS_VERSION, "cache-control": "no-store", "access-control-expose-headers": EXPOSE, ...extra };
}

function reply(r: GatewayRequest, status: number, headers: Record<string, string> = {}) {
  r.res.writeHead(status, tusHeaders(headers));
  r.res.end();
}

/** Upload-Metadata: "key base64value,key2 base64value2" (a key alone means an empty value). */
export function parseUploadMetadata(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  if (Buffer.byteLength(header) > MAX_METADATA_BYTES) throw ERRORS.entityTooLarge("upload metadata");
  for (const pair of header.split(",")) {
    const [key, value, ...rest] = pair.trim().split(" ");
    if (!key || rest.length > 0 || (value !== undefined && !/^[A-Za-z0-9+/]*={0,2}$/.test(value))) {
      throw ERRORS.invalidRequest("Upload-Metadata is malformed");
    }
    out[key] = value ? Buffer.from(value, "base64").toString("utf8") : "";
  }
  return out;
}

function idOf(s: Pick<UploadState, "bucket" | "key" | "version">) {
  return Buffer.from(`${s.bucket}/${s.key}/${s.version}`).toString("base64url");
}

class UploadFiles {
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = path.resolve(dataDir, "storage-uploads");
    fs.mkdirSync(this.dir, { recursive: true });
  }

  private paths(id: string) {
    if (!ID.test(id)) throw ERRORS.noSuchKey();
    const name = crypto.createHash("sha256").update(id).digest("hex");
    return { data: path.join(this.dir, `${name}.part`), info: path.join(this.dir, `${name}.json`) };
  }

  async create(id: string, state: UploadState) {
    const p = this.paths(id);
    await (await fsp.open(p.data, "wx", 0o600)).close();
    await fsp.writeFile(p.info, JSON.stringify(state), { mode: 0o600 });
  }

  async read(id: string): Promise<{ state: UploadState; offset: number; data: string } | null> {
    const p = this.paths(id);
    try {
      const state = JSON.parse(await fsp.readFile(p.info, "utf8")) as UploadState;
      if (state.done) return { state, offset: state.size, data: p.data };
      const { size } = await fsp.stat(p.data);
      return { state, offset: size, data: p.data };
    } catch {
      return null;
    }
  }

  async remove(id: string) {
    const p = this.paths(id);
    await fsp.rm(p.data, { force: true });
    await fsp.rm(p.info, { force: true });
  }

  /** The upload finished: its part became the object; what remains says so until it expires. */
  async markDone(id: string, state: UploadState) {
    const p = this.paths(id);
    await fsp.writeFile(p.info, JSON.stringify({ ...state, done: true }), { mode: 0o600 });
    await fsp.rm(p.data, { force: true });
  }

  /** Drops uploads past their expiry (at start and on each creation). */
  async expire(now = Date.now()) {
    for (const name of await fsp.readdir(this.dir).catch(() => [] as string[])) {
      if (!name.endsWith(".json")) continue;
      const info = path.join(this.dir, name);
      try {
        const state = JSON.parse(await fsp.readFile(info, "utf8")) as UploadState;
        if (state.expires > now) continue;
      } catch {
        /* unreadable: drop it */
      }
      await fsp.rm(info, { force: true });
      await fsp.rm(info.replace(/\.json$/, ".part"), { force: true });
    }
  }
}

/** The PATCH (or creation-with-upload) still receiving bytes for an upload, so a newer request can stop it. */
const inFlight = new Map<string, AbortController>();

/**
 * Runs `fn` holding the upload's lock. A request still receiving bytes for the upload is
 * stopped first (as @tus/server does when another request asks for the lock): a client
 * asks again only when it gave up on that one, whose connection may hang for minutes on a
 * phone network. What it had received is kept.
 */
async function withUpload<T>(c: StorageContext, id: string, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  inFlight.get(id)?.abort();
  return c.locks.withKeys([lockKey("\u0000tus", id)], async () => {
    const mine = new AbortController();
    inFlight.set(id, mine);
    try {
      return await fn(mine.signal);
    } finally {
      if (inFlight.get(id) === mine) inFlight.delete(id);
    }
  });
}

const stores = new WeakMap<StorageContext, UploadFiles>();
function uploads(c: StorageContext): UploadFiles {
  let s = stores.get(c);
  if (!s) {
    s = new UploadFiles(c.svc.options.dataDir);
    stores.set(c, s);
  }
  return s;
}

export async function expireUploads(c: StorageContext) {
  await uploads(c).expire();
}

function mustSpeakTus(r: GatewayRequest) {
  if (r.req.headers["tus-resumable"] !== TUS_VERSION) {
    throw new StorageError(412, "InvalidRequest", `Tus-Resumable ${TUS_VERSION} is required`, "Precondition Failed");
  }
}

function mustNotBeExpired(state: UploadState) {
  if (state.expires <= Date.now()) throw new StorageError(410, "NoSuchUpload", "The upload has expired", "Gone");
}

function sameUploader(state: UploadState, claims: Claims) {
  const sub = typeof claims.sub === "string" ? claims.sub : null;
  if (state.sub !== sub) throw ERRORS.noSuchKey(); // someone else's upload is not told about
}

/**
 * Appends the request body at `offset`, never past `size`; returns the new offset, also
 * after a dropped connection or a stop by a newer request (`signal`): what reached the
 * disk counts.
 */
async function append(r: GatewayRequest, data: string, offset: number, size: number, signal: AbortSignal): Promise<number> {
  let written = offset;
  const bound = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      if (written + chunk.length > size) return cb(ERRORS.entityTooLarge());
      written += chunk.length;
      cb(null, chunk);
    },
  });
  const out = fs.createWriteStream(data, { flags: "r+", start: offset });
  const socket = r.req.socket;
  try {
    await pipeline(r.req, bound, out, { signal });
  } catch (e) {
    // Stopped for a newer request: the connection goes too (destroying the request alone
    // would leave it open, and the client would read an answer to a part it never finished).
    if (signal.aborted) socket.destroy();
    // The file's size is only final once the stream has closed (a write may be under way).
    if (!out.closed) await once(out, "close").catch(() => undefined);
    if (e instanceof StorageError) throw e;
    return (await fsp.stat(data)).size;
  }
  return written;
}

async function md5Of(file: string): Promise<string> {
  const hash = crypto.createHash("md5");
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest("hex");
}

/** The last byte arrived: the part becomes the object's version and its row is written as the caller. */
async function finish(c: StorageContext, r: GatewayRequest, claims: Claims, id: string, state: UploadState, data: string) {
  await c.locks.withKeys([lockKey(state.bucket, state.key)], async () => {
    const old = await currentRow(c, state.bucket, state.key);
    if (state.mode === "create" && old) {
      await uploads(c).remove(id);
      throw ERRORS.alreadyExists();
    }
    const md5 = await md5Of(data);
    const target = c.files.versionPath(state.bucket, state.key, state.version);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.rename(data, target);
    const values: RowValues = {
      id: old?.id ?? crypto.randomUUID(),
      bucket: state.bucket,
      key: state.key,
      ...ownerOf(claims),
      version: state.version,
      metadata: {
        eTag: `"${md5}"`,
        size: state.size,
        mimetype: state.contentType,
        cacheControl: state.cacheControl,
        lastModified: new Date().toISOString(),
        contentLength: state.size,
        httpStatusCode: 200,
      },
      userMetadata: state.userMetadata,
    };
    try {
      await run(c, r, claims, (client) => writeRow(client, state.mode, values));
    } catch (e) {
      await c.files.removeVersion(state.bucket, state.key, state.version);
      await uploads(c).remove(id);
      throw e;
    }
    if (old?.version && old.version !== state.version) await c.files.removeVersion(state.bucket, state.key, old.version);
  });
  await uploads(c).markDone(id, state);
}

/** POST /upload/resumable: creates an upload (and takes its first part with creation-with-upload). */
async function create(c: StorageContext, r: GatewayRequest) {
  const claims = requireClaims(r);
  mustSpeakTus(r);
  if (r.req.headers["upload-defer-length"] !== undefined) {
    throw new StorageError(501, "NotImplemented", "creation-defer-length is not supported; send Upload-Length", "Not Implemented");
  }
  const lengthRaw = r.req.headers["upload-length"];
  if (typeof lengthRaw !== "string" || !/^\d{1,15}$/.test(lengthRaw)) throw ERRORS.invalidRequest("Upload-Length is required");
  const size = Number(lengthRaw);
  const rawMetadata = r.req.headers["upload-metadata"] as string | undefined;
  const meta = parseUploadMetadata(rawMetadata);
  const bucket = mustBeValidBucketName(meta.bucketName);
  const key = mustBeValidKey(meta.objectName);
  const b = await findBucket(c, bucket);
  if (size > uploadLimit(c, b)) throw ERRORS.entityTooLarge();
  const contentType = meta.contentType || "application/octet-stream";
  mustBeAllowedMimeType(contentType, b.allowed_mime_types);
  let userMetadata: Record<string, unknown> = {};
  if (meta.metadata) {
    try {
      const parsed: unknown = JSON.parse(meta.metadata);
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
      userMetadata = parsed as Record<string, unknown>;
    } catch {
      throw ERRORS.invalidParameter("metadata", "Invalid metadata: must be a JSON object");
    }
  }
  // As Supabase's onCreate: a number of seconds becomes max-age, anything else no-cache.
  const cacheControl = /^\d+$/.test(meta.cacheControl ?? "") ? `max-age=${meta.cacheControl}` : "no-cache";
  const mode: WriteMode = r.req.headers["x-upsert"] === "true" ? "upsert" : "create";
  const old = await currentRow(c, bucket, key);
  if (mode === "create" && old) throw ERRORS.alreadyExists();
  // Everything the row will hold is declared now: ask the policies before any byte is stored.
  await testPermission(c, r, claims, (client) =>
    writeRow(client, mode, {
      id: old?.id ?? crypto.randomUUID(), bucket, key, ...ownerOf(claims), version: crypto.randomUUID(),
      metadata: { size, contentLength: size, mimetype: contentType, cacheControl, httpStatusCode: 200 }, userMetadata,
    }),
  );
  const store = uploads(c);
  await store.expire();
  const state: UploadState = {
    bucket, key, version: crypto.randomUUID(), size, mode,
    sub: typeof claims.sub === "string" ? claims.sub : null,
    contentType, cacheControl, userMetadata, rawMetadata, expires: Date.now() + EXPIRES_MS,
  };
  const id = idOf(state);
  await store.create(id, state);
  const location = `/storage/v1/upload/resumable/${id}`;
  const expires = new Date(state.expires).toUTCString();
  const withBody = r.req.headers["content-type"] === "application/offset+octet-stream";
  if (!withBody) {
    if (!r.req.complete) r.req.resume();
    if (size === 0) {
      await finish(c, r, claims, id, state, (await store.read(id))!.data);
      return reply(r, 201, { location, "upload-offset": "0", "upload-expires": expires, "tus-complete": "1" });
    }
    return reply(r, 201, { location, "upload-offset": "0", "upload-expires": expires });
  }
  const got = (await store.read(id))!;
  await withUpload(c, id, async (signal) => {
    const offset = await append(r, got.data, 0, size, signal);
    const complete = offset === size;
    if (complete) await finish(c, r, claims, id, state, got.data);
    reply(r, 201, { location, "upload-offset": String(offset), "upload-expires": expires, ...(complete ? { "tus-complete": "1" } : {}) });
  });
}

/** HEAD /upload/resumable/{id}: where to resume (the full length once finished). */
async function head(c: StorageContext, r: GatewayRequest, id: string) {
  const claims = requireClaims(r);
  mustSpeakTus(r);
  await withUpload(c, id, async () => {
    const got = await uploads(c).read(id);
    if (!got) throw ERRORS.noSuchKey();
    sameUploader(got.state, claims);
    mustNotBeExpired(got.state);
    reply(r, 200, {
      "upload-offset": String(got.offset),
      "upload-length": String(got.state.size),
      "upload-expires": new Date(got.state.expires).toUTCString(),
      ...(got.state.rawMetadata ? { "upload-metadata": got.state.rawMetadata } : {}),
    });
  });
}

/** PATCH /upload/resumable/{id}: the next part, at the offset the server has. */
async function patch(c: StorageContext, r: GatewayRequest, id: string) {
  const claims = requireClaims(r);
  mustSpeakTus(r);
  // @tus/server's statuses: 403 for a missing Content-Type or Upload-Offset.
  if (r.req.headers["content-type"] !== "application/offset+octet-stream") {
    throw new StorageError(403, "InvalidRequest", "Content-Type must be application/offset+octet-stream", "Forbidden");
  }
  const claimedRaw = r.req.headers["upload-offset"];
  const claimed = typeof claimedRaw === "string" && /^\d{1,15}$/.test(claimedRaw) ? Number(claimedRaw) : NaN;
  if (Number.isNaN(claimed)) throw new StorageError(403, "InvalidRequest", "Upload-Offset is required", "Forbidden");
  await withUpload(c, id, async (signal) => {
    const got = await uploads(c).read(id);
    if (!got) throw ERRORS.noSuchKey();
    sameUploader(got.state, claims);
    if (got.state.expires <= Date.now()) {
      await uploads(c).remove(id);
      mustNotBeExpired(got.state);
    }
    if (claimed !== got.offset) throw new StorageError(409, "InvalidRequest", `Upload-Offset must be ${got.offset}`, "Conflict");
    if (got.state.done) {
      // Nothing is left to send: an empty part is answered with the full length.
      if (Number(r.req.headers["content-length"] ?? "0") > 0) throw ERRORS.entityTooLarge();
      r.req.resume();
      return reply(r, 204, { "upload-offset": String(got.offset), "tus-complete": "1" });
    }
    const offset = await append(r, got.data, got.offset, got.state.size, signal);
    const complete = offset === got.state.size;
    if (complete) await finish(c, r, claims, id, got.state, got.data);
    reply(r, 204, { "upload-offset": String(offset), "upload-expires": new Date(got.state.expires).toUTCString(), ...(complete ? { "tus-complete": "1" } : {}) });
  });
}

/** DELETE /upload/resumable/{id}: termination (not of a finished upload, as Supabase's disableTerminationForFinishedUploads). */
async function terminate(c: StorageContext, r: GatewayRequest, id: string) {
  const claims = requireClaims(r);
  mustSpeakTus(r);
  await withUpload(c, id, async () => {
    const got = await uploads(c).read(id);
    if (!got) throw ERRORS.noSuchKey();
    sameUploader(got.state, claims);
    if (got.state.done) throw ERRORS.invalidRequest("Cannot terminate an already completed upload");
    await uploads(c).remove(id);
  });
  reply(r, 204);
}

/** Routes /upload/resumable[/{id}]. */
export async function routeResumable(c: StorageContext, r: GatewayRequest, method: string, parts: string[]) {
  const [kind = "", id, ...rest] = parts;
  if (kind !== "resumable" || rest.length > 0) throw ERRORS.notFoundRoute();
  if (method === "OPTIONS") {
    return reply(r, 204, { "tus-version": TUS_VERSION, "tus-extension": EXTENSIONS, "tus-max-size": String(c.globalLimit) });
  }
  if (id === undefined || id === "") {
    if (method === "POST") return create(c, r);
    throw ERRORS.notFoundRoute();
  }
  if (method === "HEAD") return head(c, r, id);
  if (method === "PATCH") return patch(c, r, id);
  if (method === "DELETE") return terminate(c, r, id);
  throw ERRORS.notFoundRoute();
}
