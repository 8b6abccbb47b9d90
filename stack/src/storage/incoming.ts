// Reads an upload body the two ways storage-js sends it: multipart/form-data
// (a Blob or FormData: fields cacheControl and metadata, then the file) or a raw
// body (content-type, cache-control and base64 x-metadata headers). The bytes are
// streamed straight to disk; nothing is buffered whole.
import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import busboy from "busboy";
import { ERRORS, StorageError } from "./errors.ts";
import { mustBeAllowedMimeType } from "./names.ts";
import type { WrittenFile } from "./files.ts";

export interface IncomingUpload {
  file: WrittenFile;
  mimeType: string;
  cacheControl: string;
  userMetadata: Record<string, unknown> | null;
}

export interface UploadLimits {
  maxBytes: number;
  allowedMimeTypes: string[] | null;
}

/** A raw upload's row as known from its headers, before the body is read. */
export interface KnownBeforeBody {
  mimeType: string;
  size: number;
  cacheControl: string;
  userMetadata: Record<string, unknown> | null;
}

export interface Writer {
  /** Tests the row before any byte is stored, for raw bodies whose size is declared. */
  precheck(known: KnownBeforeBody): Promise<void>;
  write(stream: Readable, maxBytes: number): Promise<WrittenFile>;
  discard(tempPath: string): Promise<void>;
}

function parseUserMetadata(json: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw ERRORS.invalidParameter("metadata", "Invalid metadata: not valid JSON");
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw ERRORS.invalidParameter("metadata", "Invalid metadata: must be a JSON object");
  }
  return value as Record<string, unknown>;
}

function cacheControlFromSeconds(value: string | undefined): string {
  if (!value) return "no-cache";
  return /^\d+$/.test(value.trim()) ? `max-age=${value.trim()}` : value.trim();
}

export function receiveUpload(req: IncomingMessage, limits: UploadLimits, write: Writer): Promise<IncomingUpload> {
  const contentType = req.headers["content-type"] ?? "";
  if (/^multipart\/form-data/i.test(contentType)) return receiveMultipart(req, limits, write);
  return receiveRaw(req, limits, write);
}

async function receiveRaw(req: IncomingMessage, limits: UploadLimits, write: Writer): Promise<IncomingUpload> {
  const mimeType = (req.headers["content-type"] as string | undefined) || "application/octet-stream";
  mustBeAllowedMimeType(mimeType, limits.allowedMimeTypes);
  const declared = Number(req.headers["content-length"] ?? "NaN");
  if (Number.isFinite(declared) && declared > limits.maxBytes) throw ERRORS.entityTooLarge();
  const metaHeader = req.headers["x-metadata"];
  const userMetadata =
    typeof metaHeader === "string" && metaHeader ? parseUserMetadata(Buffer.from(metaHeader, "base64").toString("utf8")) : null;
  const cacheControl = (req.headers["cache-control"] as string | undefined) || "no-cache";
  if (Number.isFinite(declared)) await write.precheck({ mimeType, size: declared, cacheControl, userMetadata });
  const file = await write.write(req, limits.maxBytes);
  return { file, mimeType, cacheControl, userMetadata };
}

function receiveMultipart(req: IncomingMessage, limits: UploadLimits, write: Writer): Promise<IncomingUpload> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        limits: { files: 1, fields: 20, fieldSize: 64 * 1024, parts: 25, fileSize: limits.maxBytes },
      });
    } catch {
      reject(ERRORS.invalidRequest("Malformed multipart body"));
      return;
    }
    const fields: Record<string, string> = {};
    let pending: Promise<IncomingUpload> | null = null;
    let fileStream: Readable | null = null;
    let failed = false;
    const fail = (e: unknown) => {
      if (failed) return;
      failed = true;
      req.unpipe(bb);
      req.resume();
      reject(e);
    };
    // A client that goes away mid-body: end the file stream with an error so the
    // writer discards its temp file (and releases the key) instead of waiting forever.
    const aborted = () => {
      if (req.complete) return;
      const err = new StorageError(400, "Aborted", "The upload was aborted");
      fileStream?.destroy(err);
      fail(err);
    };
    req.on("close", aborted);
    req.on("error", aborted);

    bb.on("field", (name, value) => {
      fields[name] = value;
    });
    bb.on("file", (_name, stream, info) => {
      if (pending || failed) {
        stream.resume();
        return;
      }
      // As Supabase Storage: a `contentType` field wins over the part's own type, and
      // user metadata comes from the `metadata` (or `userMetadata`) field.
      const mimeType = fields.contentType || info.mimeType || "application/octet-stream";
      fileStream = stream;
      pending = (async () => {
        mustBeAllowedMimeType(mimeType, limits.allowedMimeTypes);
        const rawMetadata = fields.metadata ?? fields.userMetadata;
        const userMetadata = rawMetadata ? parseUserMetadata(rawMetadata) : null;
        // busboy truncates at fileSize and flags it; the writer allows one byte more
        // so the flag, not the writer, reports the overflow.
        const file = await write.write(stream, limits.maxBytes + 1);
        if ((stream as Readable & { truncated?: boolean }).truncated) {
          await write.discard(file.tempPath);
          throw ERRORS.entityTooLarge();
        }
        return { file, mimeType, cacheControl: cacheControlFromSeconds(fields.cacheControl), userMetadata };
      })();
      pending.catch((e) => {
        stream.resume();
        fail(e);
      });
    });
    bb.on("error", () => fail(ERRORS.invalidRequest("Malformed multipart body")));
    bb.on("close", () => {
      if (failed) return;
      if (!pending) return fail(ERRORS.invalidRequest("No file provided"));
      pending.then(resolve, fail);
    });
    req.pipe(bb);
  });
}
