// Rows of public.channels and public.api_keys as the app reads them (migration
// 20261123010000_channels.sql). Secrets are never read: only whether each one is set.
export type ChannelType = "web" | "api" | "slack" | "discord" | "telegram" | "whatsapp";
export type ChannelStatus = "not_connected" | "connected" | "needs_attention";
export const CHANNEL_TYPES: readonly ChannelType[] = ["web", "api", "slack", "discord", "telegram", "whatsapp"];
export const MESSAGING_TYPES: readonly ChannelType[] = ["slack", "discord", "telegram", "whatsapp"];

export interface Channel {
  id: string;
  bot_id: string;
  type: ChannelType;
  name: string;
  enabled: boolean;
  settings: Record<string, string>;
  status: ChannelStatus;
  last_error: string | null;
  last_event_at: string | null;
  message_count: number;
  created_at: string;
}

export const CHANNEL_COLUMNS = "id, bot_id, type, name, enabled, settings, status, last_error, last_event_at, message_count, created_at";

export interface CredentialStatus {
  name: string;
  is_set: boolean;
  updated_at: string | null;
}

export interface ApiKey {
  id: string;
  bot_id: string;
  name: string;
  prefix: string;
  rate_limit_per_minute: number;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** Never key_hash: clients may not read it (column privileges). */
export const API_KEY_COLUMNS = "id, bot_id, name, prefix, rate_limit_per_minute, created_at, last_used_at, revoked_at";

// One error path for every fetcher: the data layer's shared helper.
export { toAppError } from "../../lib/errors";
