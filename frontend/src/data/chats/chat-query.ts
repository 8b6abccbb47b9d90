import { useQuery } from "@tanstack/react-query";
import type { Json, Tables } from "../../lib/database";
import { unwrap } from "../../lib/errors";
import { isJsonObject, jsonString } from "../../lib/json";
import { loadSupabase } from "../../lib/supabase-ready";
import { chatKeys } from "./keys";
import { CHAT_MESSAGE_COLUMNS, toChatMessage, type ChatMessage } from "./types";

export type ChatRow = Pick<Tables<"chats">, "id" | "bot_id" | "user_id" | "title" | "shared" | "needs_human">;

export interface ChatDetail {
  chat: ChatRow;
  messages: ChatMessage[];
  /** Not the viewer's own chat: a shared one, shown read-only. */
  readOnly: boolean;
}

/** get_shared_chat answers jsonb `{ chat, messages }` (null when the chat is not shared). */
function readSharedChat(value: Json): { chat: ChatRow; messages: ChatMessage[] } | null {
  if (!isJsonObject(value) || !isJsonObject(value.chat)) return null;
  const c = value.chat;
  const id = jsonString(c.id);
  if (!id) return null;
  const chat: ChatRow = { id, bot_id: jsonString(c.bot_id) ?? "", user_id: jsonString(c.user_id) ?? "", title: jsonString(c.title) ?? null, shared: c.shared === true, needs_human: c.needs_human === true };
  const messages = (Array.isArray(value.messages) ? value.messages : []).filter(isJsonObject).map((m) =>
    toChatMessage({
      id: jsonString(m.id) ?? "",
      role: jsonString(m.role) ?? "assistant",
      content: jsonString(m.content) ?? "",
      sources: m.sources ?? [],
      images: m.images ?? [],
      actions: m.actions ?? [],
      error: jsonString(m.error) ?? null,
      created_at: jsonString(m.created_at) ?? "",
    }),
  );
  return { chat, messages };
}

/**
 * The viewer's own chat, or else a chat someone shared (get_shared_chat); null when neither.
 * RLS decides: the plain select only returns chats the viewer may read.
 */
export async function fetchChat(chatId: string, userId: string): Promise<ChatDetail | null> {
  const db = await loadSupabase();
  const chat = unwrap(await db.from("chats").select("id, bot_id, user_id, title, shared, needs_human").eq("id", chatId).eq("user_id", userId).maybeSingle());
  if (chat) {
    const rows = unwrap(await db.from("messages").select(CHAT_MESSAGE_COLUMNS).eq("chat_id", chatId).order("created_at"));
    return { chat, messages: (rows ?? []).map(toChatMessage), readOnly: false };
  }
  const shared = unwrap(await db.rpc("get_shared_chat", { chat_id: chatId }));
  const s = shared === null ? null : readSharedChat(shared);
  return s ? { ...s, readOnly: true } : null;
}

export function useChatQuery(chatId: string | undefined, userId: string | undefined) {
  return useQuery({
    queryKey: chatKeys.detail(chatId ?? ""),
    queryFn: () => fetchChat(chatId!, userId!),
    enabled: !!chatId && !!userId,
    staleTime: Infinity,
  });
}
