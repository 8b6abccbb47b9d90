// What each channel type asks of the owner: its secrets (stored through
// set_channel_credentials, never read back), its non-secret settings, and how many
// setup steps its instructions have (messages channels.setup.<type>.<n>).
import type { ChannelType } from "../../data/channels/types";

export interface PlatformFields {
  /** Secret names (channel_credentials); the form shows only whether each is set. */
  secrets: string[];
  /** Non-secret settings (channels.settings). */
  settings: string[];
  steps: number;
  /** The platform delivers to Parley's receiver URL. */
  messaging: boolean;
}

export const PLATFORMS: Record<ChannelType, PlatformFields> = {
  web: { secrets: [], settings: [], steps: 2, messaging: false },
  api: { secrets: [], settings: [], steps: 2, messaging: false },
  slack: { secrets: ["bot_token", "signing_secret", "client_secret"], settings: ["client_id", "test_recipient"], steps: 4, messaging: true },
  discord: { secrets: ["bot_token"], settings: ["test_recipient"], steps: 4, messaging: true },
  telegram: { secrets: ["bot_token"], settings: ["welcome_message"], steps: 3, messaging: true },
  whatsapp: { secrets: ["access_token", "app_secret", "verify_token"], settings: ["phone_number_id", "test_recipient"], steps: 4, messaging: true },
};

/** Where the platform delivers: the `channels` function's path for this channel. */
export function receiverUrl(apiBaseUrl: string, channel: { id: string; type: ChannelType }): string {
  return `${apiBaseUrl.replace(/\/+$/, "")}/channels/${channel.id}/${channel.type}`;
}
