// Typed reads of request bodies: a field of the wrong type is GoTrue's 400
// bad_json (its JSON decoder refuses it), never a crash further down.
import type { IncomingMessage } from "node:http";
import { readBody, readJson } from "../http.ts";
import { AuthError, badRequest } from "./errors.ts";

export type Body = Record<string, unknown>;

const MAX_BODY = 256 * 1024;

export async function readBodyJson(req: IncomingMessage): Promise<Body> {
  const ct = String(req.headers["content-type"] ?? "");
  if (ct.includes("application/x-www-form-urlencoded")) {
    const raw = await readBody(req, MAX_BODY);
    return Object.fromEntries(new URLSearchParams(raw.toString("utf8")));
  }
  try {
    return await readJson<Body>(req, MAX_BODY);
  } catch (e) {
    const err = e as { status?: number; code?: string; message?: string };
    if (err.status === 413) throw new AuthError(413, "request_too_large", `Request body is larger than ${MAX_BODY} bytes`);
    if (err.status === 400) throw badRequest("bad_json", "Could not parse request body as JSON: " + (err.message ?? "invalid JSON"));
    throw e;
  }
}

function wrongType(field: string, want: string): AuthError {
  return badRequest("bad_json", `Could not parse request body as JSON: field "${field}" must be ${want}`);
}

export function optString(b: Body, field: string, max = 4096): string | undefined {
  const v = b[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw wrongType(field, "a string");
  if (v.length > max) throw badRequest("validation_failed", `${field} is too long`);
  return v;
}

export function optBool(b: Body, field: string): boolean | undefined {
  const v = b[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "boolean") throw wrongType(field, "a boolean");
  return v;
}

export function optObject(b: Body, field: string): Record<string, unknown> | undefined {
  const v = b[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "object" || Array.isArray(v)) throw wrongType(field, "an object");
  return v as Record<string, unknown>;
}

const EMAIL_RE = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** GoTrue's email check: a valid address, at most 255 characters, stored lower-case. */
export function validateEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (!e) throw badRequest("validation_failed", "An email address is required");
  if (e.length > 255 || !EMAIL_RE.test(e)) throw badRequest("validation_failed", "Unable to validate email address: invalid format");
  return e;
}
