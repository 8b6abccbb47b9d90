// A channel as the channel functions see it (service role only): its row, its
// secrets, its bot's name and welcome text, plus the bookkeeping the receivers
// keep (deliveries already handled, status and counts).
import type { Db } from "../clients.ts";
import { dbFailure } from "../db.ts";
import type { ChannelType } from "./platforms.ts";

export interface LoadedChannel {
  id: string;
  botId: string;
  type: ChannelType;
  name: string;
  enabled: boolean;
  status: string;
  settings: Record<string, string>;
  secrets: Record<string, string>;
  bot: { name: string; description: string | null };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: string) => UUID.test(s);

function strings(o: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (o && typeof o === "object" && !Array.isArray(o)) {
    for (const [k, v] of Object.entries(o)) if (typeof v === "string") out[k] = v;
  }
  return out;
}

/** The channel with its secrets, or null when there is no such channel. */
export async function loadChannel(service: Db, channelId: string): Promise<LoadedChannel | null> {
  if (!isUuid(channelId)) return null;
  const [row, creds] = await Promise.all([
    service.from("channels").select("id, bot_id, type, name, enabled, status, settings, bots(name, description)").eq("id", channelId).maybeSingle(),
    service.from("channel_credentials").select("secrets").eq("channel_id", channelId).maybeSingle(),
  ]);
  if (row.error) throw dbFailure(row.error, "channel lookup");
  if (creds.error) throw dbFailure(creds.error, "channel credentials");
  const c = row.data as unknown as {
    id: string; bot_id: string; type: ChannelType; name: string; enabled: boolean; status: string; settings: unknown;
    bots: { name: string; description: string | null } | null;
  } | null;
  if (!c) return null;
  return {
    id: c.id,
    botId: c.bot_id,
    type: c.type,
    name: c.name,
    enabled: c.enabled,
    status: c.status,
    settings: strings(c.settings),
    secrets: strings((creds.data as { secrets?: unknown } | null)?.secrets),
    bot: c.bots ?? { name: "", description: null },
  };
}

/** Records a delivery; false when it was already handled (a retry or a replay). */
export async function firstDelivery(service: Db, channelId: string, deliveryId: string): Promise<boolean> {
  const { error } = await service.from("channel_deliveries").insert({ channel_id: channelId, event_id: deliveryId.slice(0, 300) });
  if (!error) return true;
  if (error.code === "23505") return false;
  throw dbFailure(error, "delivery insert");
}

export async function recordChannelEvent(service: Db, channelId: string, messages: number, error: string | null = null) {
  const res = await service.rpc("record_channel_event", { channel_id: channelId, messages, error: error ?? undefined });
  if (res.error) throw dbFailure(res.error, "record_channel_event");
}

/** Merges settings (non-secret) and secrets the functions learned or generated. */
export async function saveChannel(
  service: Db,
  channel: LoadedChannel,
  change: { settings?: Record<string, string>; secrets?: Record<string, string>; removeSecrets?: string[]; status?: string; lastError?: string | null },
) {
  if (change.secrets || change.removeSecrets) {
    const secrets = { ...channel.secrets, ...change.secrets };
    for (const name of change.removeSecrets ?? []) delete secrets[name];
    const res = await service.from("channel_credentials").upsert({ channel_id: channel.id, secrets, updated_at: new Date().toISOString() });
    if (res.error) throw dbFailure(res.error, "credentials upsert");
    channel.secrets = secrets;
  }
  const patch: { settings?: Record<string, string>; status?: string; last_error?: string | null } = {};
  if (change.settings) patch.settings = channel.settings = { ...channel.settings, ...change.settings };
  if (change.status) patch.status = channel.status = change.status;
  if (change.lastError !== undefined) patch.last_error = change.lastError;
  if (Object.keys(patch).length) {
    const res = await service.from("channels").update(patch).eq("id", channel.id);
    if (res.error) throw dbFailure(res.error, "channel update");
  }
}

/** The chat's thread id for a platform conversation: unique per channel, within the column's 300 characters. */
export async function externalThreadId(channelId: string, conversationKey: string): Promise<string> {
  if (conversationKey.length <= 250) return `${channelId}:${conversationKey}`;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(conversationKey)));
  return `${channelId}:h:${Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** The URL a platform delivers to: PARLEY_FUNCTIONS_URL (a tunnel in development) or SUPABASE_URL's functions. */
export function receiverUrl(channel: { id: string; type: string }): string {
  const base = (Deno.env.get("PARLEY_FUNCTIONS_URL") || `${Deno.env.get("SUPABASE_URL") ?? ""}/functions/v1`).replace(/\/+$/, "");
  return `${base}/channels/${channel.id}/${channel.type}`;
}

/** The text /start (and the test message) greets with. */
export function welcomeText(channel: LoadedChannel): string {
  return channel.settings.welcome_message?.trim() ||
    channel.bot.description?.trim() ||
    `Hi! I'm ${channel.bot.name || "a Parley bot"}. Ask me anything.`;
}

/**
 * The channel's latest conversation (its platform conversation key) and when its visitor last
 * wrote: where a message nobody asked for may go when no recipient is named.
 */
export async function latestConversation(service: Db, channel: LoadedChannel): Promise<{ conversationKey: string | null; lastInboundAt: Date | null }> {
  const latest = await service
    .from("chats")
    .select("id, external_thread_id, last_message_at")
    .eq("bot_id", channel.botId)
    .eq("channel", channel.type)
    .like("external_thread_id", `${channel.id}:%`)
    .order("last_message_at", { ascending: false, nullsFirst: false })
    .limit(1)
    .maybeSingle();
  if (latest.error) throw dbFailure(latest.error, "latest chat");
  let lastInboundAt: Date | null = null;
  if (latest.data) {
    const m = await service.from("messages").select("created_at").eq("chat_id", latest.data.id).eq("role", "user")
      .order("created_at", { ascending: false }).limit(1).maybeSingle();
    if (m.error) throw dbFailure(m.error, "last message");
    lastInboundAt = m.data ? new Date(m.data.created_at) : null;
  }
  return { conversationKey: latest.data?.external_thread_id?.slice(channel.id.length + 1) ?? null, lastInboundAt };
}
