// Deletes a conversation with its messages and ratings (RLS: the bot's team admins and owners,
// and the visitor who owns it).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { refused, unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { statsKeys } from "../stats/keys";
import { teamKeys } from "../teams/keys";
import { chatKeys } from "./keys";

export async function deleteConversation(chatId: string): Promise<void> {
  const rows = unwrap(await (await loadSupabase()).from("chats").delete().eq("id", chatId).select("id"));
  // RLS hides rows instead of refusing: nothing deleted means not allowed.
  if (!rows?.length) throw refused("This conversation could not be deleted.");
}

export function useDeleteConversationMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteConversation,
    onSuccess: (_v, chatId) => {
      qc.removeQueries({ queryKey: chatKeys.conversation(chatId) });
      qc.removeQueries({ queryKey: chatKeys.detail(chatId) });
      void qc.invalidateQueries({ queryKey: chatKeys.all });
      // The team's lists hang off the team: ['teams', <id>, 'conversations', ...].
      void qc.invalidateQueries({ queryKey: teamKeys.all, predicate: (q) => q.queryKey[2] === "conversations" });
      void qc.invalidateQueries({ queryKey: statsKeys.all });
    },
  });
}
