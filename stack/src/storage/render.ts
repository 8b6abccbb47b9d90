// Sends an object's bytes (or only its headers) the way Supabase Storage renders
// an asset: content type, length, ETag, Last-Modified, Cache-Control (or Expires
// for signed URLs), single byte ranges (206 / 416) and If-None-Match (304).
import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import { ERRORS } from "./errors.ts";

export interface ObjectRow {
  id: string;
  bucket_id: string;
  name: string;
  version: string | null;
  metadata: Record<string, unknown> | null;
  user_metadata: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
}

export interface RenderOptions {
  head?: boolean;
  /** ?download= : "" for "attachment", else the file name. */
  download?: string | null;
  /** Signed URLs: the token's expiry replaces Cache-Control. */
  expires?: Date;
}

/**
 * text/html would let an uploaded page run scripts on the API origin; so would a smuggled
 * second type ("image/png;x=y, image/svg+xml"). Only one clean `type/subtype` (with at most a
 * charset) is served as stored; anything else goes out as application/octet-stream.
 */
export function safeContentType(mime: string): string {
  const clean = /^\s*([a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*)\s*(;\s*charset=[a-z0-9_.:-]+\s*)?$/i.exec(mime);
  if (!clean) return "application/octet-stream";
  return /^text\/html$/i.test(clean[1]!) ? "text/plain" : mime.trim();
}

/** Parses one "bytes=a-b" range; null means "send everything" (absent or not a single byte range). */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | "unsatisfiable" {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return null;
  let start: number;
  let end: number;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0) return "unsatisfiable";
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== "" && Number(m[2]) < start) return null;
  }
  if (start >= size || size === 0) return "unsatisfiable";
  return { start, end };
}

export async function renderObject(req: IncomingMessage, res: ServerResponse, file: string, row: ObjectRow, o: RenderOptions = {}) {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, "r");
  } catch {
    throw ERRORS.noSuchKey();
  }
  let streaming = false;
  try {
    const stat = await handle.stat();
    const size = stat.size;
    const meta = row.metadata ?? {};
    const mime = typeof meta.mimetype === "string" ? meta.mimetype : "application/octet-stream";
    const etag = typeof meta.eTag === "string" ? meta.eTag : undefined;
    const lastModified = new Date(typeof meta.lastModified === "string" ? meta.lastModified : row.updated_at);
    const headers: Record<string, string> = {
      "content-type": safeContentType(mime),
      "accept-ranges": "bytes",
      "x-content-type-options": "nosniff",
      // Whatever a stored file is, it cannot run scripts or be a page of the API origin.
      "content-security-policy": "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:",
      "last-modified": lastModified.toUTCString(),
    };
    if (etag) headers.etag = etag;
    if (o.expires) headers.expires = o.expires.toUTCString();
    else headers["cache-control"] = typeof meta.cacheControl === "string" ? meta.cacheControl : "no-cache";
    if (o.download !== undefined && o.download !== null) {
      const name = encodeURIComponent(o.download);
      headers["content-disposition"] = o.download === "" ? "attachment;" : `attachment; filename=${name}; filename*=UTF-8''${name};`;
    }

    const ifNoneMatch = req.headers["if-none-match"];
    if (etag && ifNoneMatch && ifNoneMatch.split(",").map((s) => s.trim()).includes(etag)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }

    const range = parseRange(req.headers.range, size);
    if (range === "unsatisfiable") throw ERRORS.invalidRange(size);
    const start = range ? range.start : 0;
    const end = range ? range.end : size - 1;
    headers["content-length"] = String(Math.max(0, end - start + 1));
    if (range) headers["content-range"] = `bytes ${start}-${end}/${size}`;
    res.writeHead(range ? 206 : 200, headers);
    if (o.head || req.method === "HEAD" || size === 0) {
      res.end();
      return;
    }
    const stream = handle.createReadStream({ start, end }); // closes the handle when done
    streaming = true;
    await pipeline(stream, res).catch(() => {
      /* the client went away mid-download */
    });
  } finally {
    if (!streaming) await handle.close().catch(() => {});
  }
}

/** GET /object/info/...: the object's description as JSON (Supabase's InfoRenderer body). */
export function objectInfo(row: ObjectRow) {
  const meta = row.metadata ?? {};
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    bucket_id: row.bucket_id,
    size: meta.size ?? null,
    content_type: meta.mimetype ?? null,
    cache_control: meta.cacheControl ?? null,
    etag: meta.eTag ?? null,
    metadata: row.user_metadata ?? {},
    last_modified: row.updated_at,
    created_at: row.created_at,
  };
}
