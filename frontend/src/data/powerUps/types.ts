import type { Json, Tables } from "../../lib/database";
import { jsonObject } from "../../lib/json";

export const POWER_UP_COLUMNS = "id, bot_id, type, name, label, description, enabled, example_phrases, settings, call_count, last_called_at, created_at" as const;
export type PowerUp = Pick<Tables<"power_ups">, "id" | "bot_id" | "type" | "name" | "label" | "description" | "enabled" | "example_phrases" | "settings" | "call_count" | "last_called_at" | "created_at">;
export type PowerUpType = "http" | "lead" | "link" | "handoff";
export const POWER_UP_TYPES: readonly PowerUpType[] = ["http", "lead", "link", "handoff"];

/** settings is jsonb: read as an object, whatever was stored. */
export function readSettings(value: Json | undefined): Record<string, unknown> {
  return jsonObject(value);
}
