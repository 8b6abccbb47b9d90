// Rows the conversation screens read (RLS decides which ones a person sees).
export type Channel = "web" | "widget" | "api" | "slack" | "discord" | "telegram" | "whatsapp";
export const CHANNELS: readonly Channel[] = ["web", "widget", "api", "slack", "discord", "telegram", "whatsapp"];

export interface ConversationSummary {
  id: string;
  bot_id: string;
  user_id: string;
  channel: Channel;
  title: string | null;
  shared: boolean;
  message_count: number;
  last_message_at: string | null;
  created_at: string;
  bot: { name: string; avatar_url: string | null } | null;
}

export interface MessageSource {
  chunk_id?: string;
  document_id?: string;
  title?: string | null;
  url?: string | null;
  excerpt?: string | null;
}

export interface ConversationMessage {
  id: string;
  chat_id: string;
  role: "user" | "assistant";
  content: string;
  sources: MessageSource[];
  latency_ms: number | null;
  first_token_ms: number | null;
  model: string | null;
  provider: string | null;
  error: string | null;
  created_at: string;
}

export interface MessageRating {
  message_id: string;
  rating: "up" | "down";
  comment: string | null;
}

export const CHAT_COLUMNS = "id, bot_id, user_id, channel, title, shared, message_count, last_message_at, created_at, bot:bots(name, avatar_url)";
export const MESSAGE_COLUMNS = "id, chat_id, role, content, sources, latency_ms, first_token_ms, model, provider, error, created_at";
