// The channel functions' contracts: channels-connect, the `channels` receivers' refusals
// and the HTTP API (`api`). The API's full description is its OpenAPI document
// (GET /functions/v1/api/v1/openapi.json).

/** Error codes of channels, channels-connect and api, beyond errors.ts's shared ones. */
export const CHANNEL_ERROR_CODES = [
  // channels (receivers)
  "channel_not_found",
  "channel_disabled",
  "missing_signature",
  "bad_signature",
  "stale_request",
  "not_configured",
  "verification_failed",
  // channels-connect: a platform refused (the channel then needs attention)
  "platform_error",
  "missing_credentials",
  "no_recipient",
  "whatsapp_window_closed",
  "invalid_state",
  // api
  "missing_api_key",
  "invalid_api_key",
  "wrong_bot",
  "conversation_not_found",
] as const;
export type ChannelErrorCode = (typeof CHANNEL_ERROR_CODES)[number];

export const CHANNEL_TYPES = ["web", "api", "slack", "discord", "telegram", "whatsapp"] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];
export const CHANNEL_STATUSES = ["not_connected", "connected", "needs_attention"] as const;
export type ChannelStatus = (typeof CHANNEL_STATUSES)[number];

/** The secrets each channel type holds (set_channel_credentials; never readable back). */
export const CHANNEL_SECRETS: Record<ChannelType, readonly string[]> = {
  web: [],
  api: [],
  slack: ["bot_token", "signing_secret", "client_secret"],
  discord: ["bot_token"],
  telegram: ["bot_token", "webhook_secret"],
  whatsapp: ["access_token", "app_secret", "verify_token"],
};

/** POST /functions/v1/channels-connect */
export interface ChannelConnectRequest {
  channel_id: string;
  action: "connect" | "test" | "disconnect" | "install";
}

export interface ChannelConnectAnswer {
  channel: { id: string; status: ChannelStatus; last_error: string | null; settings: Record<string, unknown>; last_event_at: string | null };
  /** Where the platform delivers (paste it into Slack, Discord or Meta); null for web and api. */
  webhook_url: string | null;
  /** Values Parley generated that the owner must copy now (WhatsApp's verify token). */
  show_once?: Record<string, string>;
  /** install (Slack): the page to send the owner's browser to. */
  authorize_url?: string;
}

/** POST /functions/v1/api/v1/chat */
export interface ApiChatRequest {
  message: string;
  bot_id?: string;
  conversation_id?: string;
  stream?: boolean;
}
