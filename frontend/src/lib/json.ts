// Readers for jsonb columns: the generated types can only say `Json`; these narrow a value at
// run time to the shape the app uses, so a malformed row degrades instead of crashing a screen.
import type { Json } from "./database";

export type JsonObject = { [key: string]: Json | undefined };

export function isJsonObject(value: Json | undefined): value is JsonObject {
  return !!value && typeof value === "object" && !Array.isArray(value);
}

/** The object, or `{}` for anything else. */
export function jsonObject(value: Json | undefined): JsonObject {
  return isJsonObject(value) ? value : {};
}

/** The objects of an array (other items dropped), or `[]`. */
export function jsonObjects(value: Json | undefined): JsonObject[] {
  return Array.isArray(value) ? value.filter(isJsonObject) : [];
}

export function jsonString(value: Json | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** Is this value plain JSON data (what a jsonb column stores)? Properties that are undefined are allowed: JSON leaves them out. */
export function isJson(value: unknown): value is Json {
  if (value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean") return true;
  if (Array.isArray(value)) return value.every(isJson);
  return typeof value === "object" && Object.values(value).every((v) => v === undefined || isJson(v));
}

/** An object edited as loose values (a settings form), as a jsonb value: entries that are not JSON are left out, as JSON.stringify leaves out functions. */
export function toJsonObject(value: Record<string, unknown>): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) if (v === undefined || isJson(v)) out[k] = v;
  return out;
}
