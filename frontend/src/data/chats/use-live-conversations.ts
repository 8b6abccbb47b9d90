// Keeps the conversation screens current: new or updated chats of the team's bots refresh the
// lists, new messages in the open conversation refresh its view (postgres_changes under RLS).
import { useQueryClient } from "@tanstack/react-query";
import { tableChanges, useRealtimeChannel } from "../../lib/realtime";
import { statsKeys } from "../stats/keys";
import { teamKeys } from "../teams/keys";
import { chatKeys } from "./keys";

/** Refreshes conversation lists (and stats) when chats of these bots change. */
export function useLiveChatList(botIds: string[] | undefined) {
  const qc = useQueryClient();
  const key = botIds && botIds.length > 0 ? [...botIds].sort().join(",") : null;
  useRealtimeChannel(key ? `conversations:${key}` : null, {
    listeners: [
      tableChanges("chats", `bot_id=in.(${key})`, () => {
        void qc.invalidateQueries({ queryKey: teamKeys.all, predicate: (q) => q.queryKey[2] === "conversations" });
        void qc.invalidateQueries({ queryKey: chatKeys.all });
        void qc.invalidateQueries({ queryKey: statsKeys.all });
      }),
    ],
  });
}

/** Refreshes one conversation's view when its messages change. */
export function useLiveConversation(chatId: string | undefined) {
  const qc = useQueryClient();
  useRealtimeChannel(chatId ? `conversation:${chatId}` : null, {
    listeners: [tableChanges("messages", `chat_id=eq.${chatId}`, () => void qc.invalidateQueries({ queryKey: chatKeys.conversation(chatId!) }))],
  });
}
