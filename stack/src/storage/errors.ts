// Storage errors in Supabase Storage's wire shape: {statusCode, code, error, message}.
// The HTTP status is the one the body names (Supabase's legacy "always 400" is not
// reproduced; storage-js reads both the status and the body's statusCode).
import type { ServerResponse } from "node:http";
import { sendJson } from "../http.ts";

export class StorageError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly error: string = code,
  ) {
    super(message);
  }

  render() {
    return { statusCode: String(this.status), code: this.code, error: this.error, message: this.message };
  }
}

export const ERRORS = {
  noSuchBucket: () => new StorageError(404, "NoSuchBucket", "Bucket not found", "Bucket not found"),
  noSuchKey: () => new StorageError(404, "NoSuchKey", "Object not found", "not_found"),
  invalidKey: (key: string) => new StorageError(400, "InvalidKey", `Invalid key: ${key.slice(0, 200)}`),
  invalidBucketName: () => new StorageError(400, "InvalidBucketName", "Bucket name invalid", "Invalid Input"),
  invalidRequest: (message: string) => new StorageError(400, "InvalidRequest", message),
  missingParameter: (name: string) => new StorageError(400, "MissingParameter", `Missing Required Parameter ${name}`),
  invalidParameter: (name: string, message?: string) => new StorageError(400, "InvalidParameter", message ?? `Invalid Parameter ${name}`),
  accessDenied: (message = "Access denied") => new StorageError(403, "AccessDenied", message, "Unauthorized"),
  invalidJwt: (message = "Invalid JWT") => new StorageError(400, "InvalidJWT", message),
  invalidSignature: (message = "The url do not match the signature") => new StorageError(400, "InvalidSignature", message),
  alreadyExists: () => new StorageError(409, "ResourceAlreadyExists", "The resource already exists", "Duplicate"),
  keyAlreadyExists: () => new StorageError(409, "KeyAlreadyExists", "The resource already exists", "Duplicate"),
  bucketAlreadyExists: () => new StorageError(409, "BucketAlreadyExists", "The resource already exists", "Duplicate"),
  bucketNotEmpty: () => new StorageError(409, "ResourceNotEmpty", "The bucket you tried to delete is not empty"),
  entityTooLarge: (entity = "object") =>
    new StorageError(413, "EntityTooLarge", `The ${entity} exceeded the maximum allowed size`, "Payload too large"),
  invalidMimeType: (mime: string) =>
    new StorageError(415, "InvalidMimeType", `mime type ${mime.slice(0, 100)} is not supported`, "invalid_mime_type"),
  invalidRange: (size: number) => Object.assign(new StorageError(416, "InvalidRange", "invalid range provided", "invalid_range"), { size }),
  noContent: () => new StorageError(400, "InvalidRequest", "No content provided"),
  notFoundRoute: () => new StorageError(404, "NotFound", "Route not found", "Not Found"),
  internal: () => new StorageError(500, "InternalError", "Internal server error", "Internal"),
};

interface PgLikeError {
  code?: string;
  message?: string;
  status?: number;
}

/** Maps a Postgres error raised while running as the caller to Supabase's error. */
export function fromDbError(e: unknown): StorageError | null {
  const err = e as PgLikeError;
  if (!err || typeof err !== "object" || typeof err.code !== "string") return null;
  switch (err.code) {
    case "42501":
      return ERRORS.accessDenied(
        err.message?.includes("row-level security") ? "new row violates row-level security policy" : (err.message ?? "Access denied"),
      );
    case "23505":
      return ERRORS.alreadyExists();
    case "23503":
      return new StorageError(404, "InvalidRequest", "The related resource does not exist");
    case "22P02":
    case "22023":
      return ERRORS.invalidParameter("value", err.message);
    case "invalid_role":
      return ERRORS.accessDenied(err.message);
    case "57014":
      return new StorageError(544, "DatabaseTimeout", "The connection to the database timed out");
    default:
      return null;
  }
}

export function sendError(res: ServerResponse, err: StorageError) {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const headers: Record<string, string> = {};
  if (err.status === 416 && typeof (err as StorageError & { size?: number }).size === "number") {
    headers["content-range"] = `bytes */${(err as StorageError & { size?: number }).size}`;
  }
  // sendJson: a refusal sent before the body was read closes the connection without a reset
  // overtaking the answer (a plain close made a 20 MB upload's client see EPIPE, not the 413).
  // For HEAD, Node sends the headers only.
  sendJson(res, err.status, err.render(), headers);
}
