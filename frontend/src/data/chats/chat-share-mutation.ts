import { useMutation, useQueryClient } from "@tanstack/react-query";
import { chatKeys } from "./keys";
import { client, dbError } from "./errors";

/** Makes a chat readable by its link (RLS: only its visitor may). */
export async function shareChat(chatId: string): Promise<void> {
  const { error } = await (await client()).from("chats").update({ shared: true }).eq("id", chatId);
  if (error) throw dbError(error);
}

export function useChatShareMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: shareChat,
    onSuccess: (_d, chatId) => qc.invalidateQueries({ queryKey: chatKeys.detail(chatId) }),
  });
}
