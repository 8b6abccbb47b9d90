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
