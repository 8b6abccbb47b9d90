// Rows of public.channels and public.api_keys as the app reads them (migration
// 20261123010000_channels.sql), derived from the generated Database type. Secrets are never
// read: only whether each one is set.
import { CHANNEL_STATUSES, type ChannelStatus } from "@shared/contracts/channels.ts";
import { ENUM_VALUES, type Enums, type Json, type RpcRow, type Tables } from "../../lib/database";
import { jsonObject, jsonString } from "../../lib/json";

export type ChannelType = Enums<"channel_type">;
export const CHANNEL_TYPES: readonly ChannelType[] = ENUM_VALUES.channel_type;
/** The channels a message can be posted to (an ask task's answer). */
export const MESSAGING_TYPES: readonly ChannelType[] = ["slack", "discord", "telegram", "whatsapp"];
// channels.status is text with a check, not an enum: its values are the functions' contract.
export type { ChannelStatus };

type ChannelColumns = "id" | "bot_id" | "type" | "name" | "enabled" | "settings" | "status" | "last_error" | "last_event_at" | "message_count" | "created_at";
export const CHANNEL_COLUMNS = "id, bot_id, type, name, enabled, settings, status, last_error, last_event_at, message_count, created_at";

/** Non-secret settings (welcome text, phone number id, ...): strings, as the functions keep them. */
export type ChannelSettings = Record<string, string>;

export type Channel = Omit<Pick<Tables<"channels">, ChannelColumns>, "settings" | "status"> & {
  settings: ChannelSettings;
  status: ChannelStatus;
};

/** settings is jsonb: its string values (the functions read it the same way). */
export function readChannelSettings(value: Json | undefined): ChannelSettings {
  const out: ChannelSettings = {};
  for (const [k, v] of Object.entries(jsonObject(value))) {
    const s = jsonString(v);
    if (s !== undefined) out[k] = s;
  }
  return out;
}

const isChannelStatus = (s: string): s is ChannelStatus => (CHANNEL_STATUSES as readonly string[]).includes(s);

export function toChannel(row: Pick<Tables<"channels">, ChannelColumns>): Channel {
  // The column's check allows the three statuses only.
  return { ...row, settings: readChannelSettings(row.settings), status: isChannelStatus(row.status) ? row.status : "not_connected" };
}

/** Which of a channel's secrets are set; updated_at is null for one never set (a left join). */
export type CredentialStatus = Omit<RpcRow<"channel_credential_status">, "updated_at"> & { updated_at: string | null };

/** Never key_hash: clients may not read it (column privileges). */
export type ApiKey = Pick<Tables<"api_keys">, "id" | "bot_id" | "name" | "prefix" | "rate_limit_per_minute" | "created_at" | "last_used_at" | "revoked_at">;
export const API_KEY_COLUMNS = "id, bot_id, name, prefix, rate_limit_per_minute, created_at, last_used_at, revoked_at";

/** create_api_key's answer: the key itself is in it only. */
export type NewApiKey = RpcRow<"create_api_key">;

// One error path for every fetcher: the data layer's shared helper.
export { toAppError } from "../../lib/errors";
