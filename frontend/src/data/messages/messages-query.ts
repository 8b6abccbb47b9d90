import type { ChatSource } from "../../features/chat/sse";

/** A turn of a chat as the visitor sees it. */
export interface ChatMessage {
  id: string;
  role: "user" | "assistant";
  content: string;
  sources: ChatSource[] | null;
  images: { path: string }[] | null;
  error: string | null;
  created_at?: string;
}
