// Shared display helpers for the conversation screens.
import type { ConversationSummary } from "../../data/chats/types";

/** Only http(s) links are rendered as links; anything else (javascript:, data:) stays text. */
export function safeUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
  } catch {
    return null;
  }
}

export function lastActivity(c: Pick<ConversationSummary, "last_message_at" | "created_at">): string {
  return c.last_message_at ?? c.created_at;
}
