// Validation of bucket names, object keys and mime types, as Supabase Storage
// validates them, plus what a file-system backend needs on top: no empty, "." or
// ".." segments and no segment longer than a file name may be.
import { ERRORS } from "./errors.ts";

// Supabase: bucket names follow S3's naming rules, ASCII only.
const VALID_BUCKET_NAME = /^[A-Za-z0-9_!.*'() &$=@;:+,?-]+$/;

// Supabase: any UTF-8 except controls, S3's "characters to avoid" and invisible glyphs.
const VALID_OBJECT_KEY =
  // eslint-disable-next-line no-misleading-character-class
  /^[^\u0000-\u001f\u007f\u0080-\u009f#[\]{}^`"<>\\|%~\u{034F}\u{061C}\u{200B}\u{200E}\u{200F}\u{2028}\u{2029}\u{202A}-\u{202E}\u{2060}\u{2066}-\u{2069}\u{FEFF}]+$/u;

const MAX_KEY_BYTES = 1024;
const MAX_SEGMENT_BYTES = 255;

export function isValidBucketName(name: unknown): name is string {
  return (
    typeof name === "string" && name.length > 0 && name.length <= 100 && VALID_BUCKET_NAME.test(name) &&
    name !== "." && name !== ".." && name.trim() === name
  );
}

export function mustBeValidBucketName(name: unknown): string {
  if (!isValidBucketName(name)) throw ERRORS.invalidBucketName();
  return name;
}

export function isValidKey(key: unknown): key is string {
  if (typeof key !== "string" || key.length === 0) return false;
  if (!VALID_OBJECT_KEY.test(key)) return false;
  if (Buffer.byteLength(key, "utf8") > MAX_KEY_BYTES) return false;
  for (const segment of key.split("/")) {
    if (segment === "" || segment === "." || segment === "..") return false;
    if (Buffer.byteLength(segment, "utf8") > MAX_SEGMENT_BYTES) return false;
  }
  return true;
}

export function mustBeValidKey(key: unknown): string {
  if (!isValidKey(key)) throw ERRORS.invalidKey(typeof key === "string" ? key : "");
  return key;
}

/** "image/png; charset=x" -> "image/png" (lower case). */
export function baseMimeType(contentType: string): string {
  return contentType.split(";")[0]!.trim().toLowerCase();
}

const MIME_PATTERN = /^[a-z0-9!#$&^_.+-]+\/([a-z0-9!#$&^_.+-]+|\*)$/i;

export function isValidMimePattern(value: unknown): value is string {
  return typeof value === "string" && MIME_PATTERN.test(value.trim());
}

/** Throws 415 unless the type is allowed by the bucket's list (wildcards like image/*). */
export function mustBeAllowedMimeType(contentType: string, allowed: string[] | null | undefined) {
  if (!allowed || allowed.length === 0) return;
  const [type, sub] = baseMimeType(contentType).split("/");
  if (!type || !sub) throw ERRORS.invalidMimeType(contentType);
  for (const pattern of allowed) {
    const [ptype, psub] = pattern.trim().toLowerCase().split("/");
    if (ptype === type && (psub === "*" || psub === sub)) return;
  }
  throw ERRORS.invalidMimeType(contentType);
}

/** Supabase's bucket size format: 20GB / 20MB / 30KB / 3B, or a number of bytes. */
export function parseBucketSize(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") {
    if (!Number.isInteger(value) || value < 0) throw ERRORS.invalidRequest("Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B");
    return value === 0 ? null : value;
  }
  if (typeof value === "string") {
    const m = /^([0-9]+(?:\.[0-9]+)?)(gb|mb|kb|b)$/i.exec(value.trim());
    if (!m) throw ERRORS.invalidRequest("Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B");
    const mult: Record<string, number> = { GB: 1e9, MB: 1e6, KB: 1e3, B: 1 };
    const n = Math.round(parseFloat(m[1]!) * mult[m[2]!.toUpperCase()]!);
    return n === 0 ? null : n;
  }
  throw ERRORS.invalidRequest("Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B");
}
