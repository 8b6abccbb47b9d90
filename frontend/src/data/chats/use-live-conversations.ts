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

/** Refreshes one conversation's view when its messages change or a power-up is called for it. */
export function useLiveConversation(chatId: string | undefined) {
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: chatKeys.conversation(chatId!) });
  useRealtimeChannel(chatId ? `conversation:${chatId}` : null, {
    listeners: [tableChanges("messages", `chat_id=eq.${chatId}`, refresh), tableChanges("power_up_calls", `chat_id=eq.${chatId}`, refresh)],
    // Calls or turns written while the channel was joining are read again.
    onSubscribed: refresh,
  });
}

/** Refreshes the team's count of chats waiting for a person (the nav badge) when their chats change. */
export function useLiveWaitingForHuman(teamId: string | undefined, botIds: string[] | undefined) {
  const qc = useQueryClient();
  const key = teamId && botIds && botIds.length > 0 ? [...botIds].sort().join(",") : null;
  // A chat row changes with every turn (last_message_at) and with its handoff state.
  useRealtimeChannel(key ? `waiting-for-human:${teamId}:${key}` : null, {
    listeners: [tableChanges("chats", `bot_id=in.(${key})`, () => void qc.invalidateQueries({ queryKey: chatKeys.waitingForHuman(teamId!) }))],
  });
}
