import { useMutation } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import type { Json } from "../../lib/database";

/** Stores who the host site says the visitor is on the visitor's own chat (RLS: only theirs). */
export async function setChatVisitor(chatId: string, visitor: Record<string, string | number | boolean> | null): Promise<void> {
  unwrap(await (await loadSupabase()).from("chats").update({ visitor: visitor as Json }).eq("id", chatId));
}

export function useChatVisitorMutation() {
  return useMutation({ mutationFn: (v: { chatId: string; visitor: Record<string, string | number | boolean> | null }) => setChatVisitor(v.chatId, v.visitor) });
}
