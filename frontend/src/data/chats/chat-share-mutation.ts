import { useMutation, useQueryClient } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { chatKeys } from "./keys";

/** Makes a chat readable by its link (RLS: only its visitor may). */
export async function shareChat(chatId: string): Promise<void> {
  unwrap(await (await loadSupabase()).from("chats").update({ shared: true }).eq("id", chatId));
}

export function useChatShareMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: shareChat,
    onSuccess: (_d, chatId) => qc.invalidateQueries({ queryKey: chatKeys.detail(chatId) }),
  });
}
