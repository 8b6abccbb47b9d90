// Chats and their turns as the app reads them (RLS decides which ones a person sees): columns
// of the generated rows, with role, channel and the jsonb sources/images read into their shapes.
import type { ChatAction, ChatChannel, ChatImageRef, ChatSource, LeadFormField } from "@shared/contracts/chat.ts";
import { CHAT_CHANNELS, LEAD_FORM_FIELDS } from "@shared/contracts/chat.ts";
import type { Json, Tables } from "../../lib/database";
import { jsonObjects, jsonString, type JsonObject } from "../../lib/json";

export type { ChatAction, ChatChannel, ChatSource, LeadFormField };
export const CHANNELS = CHAT_CHANNELS;

export type MessageRole = "user" | "assistant";
export const readRole = (role: string): MessageRole => (role === "user" ? "user" : "assistant");
export const readChannel = (channel: string): ChatChannel => CHAT_CHANNELS.find((c) => c === channel) ?? "web";

/** messages.sources: the passages an answer cites (missing fields of older rows read as empty). */
export function readSources(value: Json | undefined): ChatSource[] {
  return jsonObjects(value).map((o) => ({
    chunk_id: jsonString(o.chunk_id) ?? "",
    document_id: jsonString(o.document_id) ?? "",
    title: jsonString(o.title) ?? "",
    url: jsonString(o.url) ?? null,
    excerpt: jsonString(o.excerpt) ?? "",
  }));
}

/** messages.images: paths in the chat-images bucket. */
export function readImages(value: Json | undefined): ChatImageRef[] {
  return jsonObjects(value).flatMap((o) => {
    const path = jsonString(o.path);
    return path ? [{ path }] : [];
  });
}

const leadFields = (value: Json | undefined): LeadFormField[] =>
  (Array.isArray(value) ? value : []).flatMap((f) => LEAD_FORM_FIELDS.filter((name) => name === f));

/** One entry of messages.actions (or one power-up event's payload); null when it is not one. */
export function readAction(type: string, o: JsonObject): ChatAction | null {
  const text = (v: Json | undefined) => jsonString(v) ?? "";
  switch (type) {
    case "tool": {
      const message = jsonString(o.message);
      return { type, name: text(o.name), label: text(o.label) || text(o.name), ok: o.ok !== false, ...(message ? { message } : {}) };
    }
    case "lead_form": {
      const power_up_id = jsonString(o.power_up_id);
      const fields = leadFields(o.fields);
      if (!power_up_id || !fields.length) return null;
      return { type, power_up_id, label: text(o.label), intro: jsonString(o.intro) || null, fields, required: leadFields(o.required).filter((f) => fields.includes(f)) };
    }
    case "link": {
      const url = jsonString(o.url);
      return url ? { type, power_up_id: text(o.power_up_id), label: text(o.label) || url, url } : null;
    }
    case "handoff":
      return { type, text: text(o.text) };
    default:
      return null;
  }
}

/** messages.actions: what power-ups showed the visitor with a turn (unknown entries dropped). */
export function readActions(value: Json | undefined): ChatAction[] {
  return jsonObjects(value).flatMap((o) => {
    const action = readAction(jsonString(o.type) ?? "", o);
    return action ? [action] : [];
  });
}

/** Who wrote a turn the visitor sees: the visitor, the bot, or a person of the bot's team. */
export type ChatRole = MessageRole | "human";
export const readChatRole = (role: string): ChatRole => (role === "human" ? "human" : readRole(role));

/** A turn of a chat as the visitor sees it. */
export type ChatMessage = Pick<Tables<"messages">, "id" | "content" | "error"> & {
  role: ChatRole;
  sources: ChatSource[];
  images: ChatImageRef[];
  actions: ChatAction[];
  created_at?: string;
};

export const CHAT_MESSAGE_COLUMNS = "id, role, content, sources, images, actions, error, created_at";

export function toChatMessage(row: Pick<Tables<"messages">, "id" | "role" | "content" | "sources" | "images" | "actions" | "error" | "created_at">): ChatMessage {
  return { ...row, role: readChatRole(row.role), sources: readSources(row.sources), images: readImages(row.images), actions: readActions(row.actions) };
}

/** A chat in the team's (or the visitor's own) lists, with its bot's face. */
export type ConversationSummary = Pick<Tables<"chats">, "id" | "bot_id" | "user_id" | "title" | "shared" | "needs_human" | "message_count" | "last_message_at" | "created_at" | "visitor"> & {
  channel: ChatChannel;
  bot: { name: string; avatar_url: string | null } | null;
};

export const CHAT_COLUMNS = "id, bot_id, user_id, channel, title, shared, needs_human, message_count, last_message_at, created_at, visitor, bot:bots(name, avatar_url)";

export function toConversationSummary(row: Omit<ConversationSummary, "channel"> & { channel: string }): ConversationSummary {
  return { ...row, channel: readChannel(row.channel) };
}

/** A turn as the team sees it in a conversation (with timings and the provider). */
export type ConversationMessage = Pick<Tables<"messages">, "id" | "chat_id" | "content" | "latency_ms" | "first_token_ms" | "model" | "provider" | "error" | "created_at"> & {
  role: ChatRole;
  sources: ChatSource[];
  /** The turn's images: paths in the chat-images bucket. */
  images: string[];
};

// A failed answer's code is on the message; the provider's words are in message_error_details,
// which only the bot's team reads (the visitor who chatted sees the code's sentence).
export const MESSAGE_COLUMNS = "id, chat_id, role, content, sources, images, latency_ms, first_token_ms, model, provider, error, created_at, error_detail:message_error_details(detail)";

export function toConversationMessage(
  row: Omit<ConversationMessage, "role" | "sources" | "images"> & { role: string; sources: Json; images?: Json; error_detail?: { detail: string } | null },
): ConversationMessage {
  const { error_detail, ...rest } = row;
  const error = rest.error && error_detail?.detail ? `${rest.error}: ${error_detail.detail}` : rest.error;
  return { ...rest, error, role: readChatRole(row.role), sources: readSources(row.sources), images: readImages(row.images).map((i) => i.path) };
}

/** A power-up call made while answering, as the team sees it (power_up_calls; secrets masked in `request`). */
export type PowerUpCall = Pick<Tables<"power_up_calls">, "id" | "message_id" | "name" | "arguments" | "status" | "error_code" | "request" | "result" | "duration_ms" | "created_at">;
export const POWER_UP_CALL_COLUMNS = "id, message_id, name, arguments, status, error_code, request, result, duration_ms, created_at";

export type MessageRating = Pick<Tables<"message_feedback">, "message_id" | "comment"> & { rating: "up" | "down" };
export const readRating = (rating: string): "up" | "down" => (rating === "down" ? "down" : "up");

/** The conversation screens' filters (they live in the URL; features/conversations/filters reads them). */
export type FeedbackFilter = "up" | "down" | "none";
export interface ConversationFilters {
  botId?: string;
  channel?: ChatChannel;
  from?: string;
  to?: string;
  feedback?: FeedbackFilter;
  /** Only chats waiting for a person of the team (handoff). */
  human?: boolean;
}
