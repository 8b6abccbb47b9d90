// Deletes a conversation (RLS lets team members of the bot and the visitor who owns it).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toAppError } from "../teams/errors";
import { conversationKeys } from "./keys";
import { statsKeys } from "../stats/keys";

export async function deleteConversation(chatId: string): Promise<void> {
  const { getSupabase } = await import("../../lib/supabase");
  const { data, error } = await getSupabase().from("chats").delete().eq("id", chatId).select("id");
  if (error) throw toAppError(error);
  // RLS hides rows instead of refusing: nothing deleted means not allowed.
  if (!data || data.length === 0) throw toAppError({ message: "This conversation could not be deleted.", code: "42501" });
}

export function useDeleteConversationMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteConversation,
    onSuccess: (_v, chatId) => {
      qc.removeQueries({ queryKey: conversationKeys.detail(chatId) });
      void qc.invalidateQueries({ queryKey: conversationKeys.all });
      void qc.invalidateQueries({ queryKey: statsKeys.all });
    },
  });
}
