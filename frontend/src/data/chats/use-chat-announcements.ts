// Live chat for its viewers: the database announces each stored turn on the private Realtime
// topic chat:<chat id> (ids only; see migration 20261121021100_chat_live_updates). A viewer (the
// visitor's other tabs, readers of a shared chat) then reads the chat again the way it may.
// A change of the chat row itself (a person of the team hands it back: needs_human) is read the
// same way, through postgres_changes under RLS: the visitor's own chat only.
import { tableChanges, useRealtimeChannel } from "../../lib/realtime";

/**
 * Calls onAnnounce when a turn of this chat is stored or the chat changes, and each time the subscription is
 * (re)joined: turns stored between the first read and the join, or while a dropped
 * connection was down, were announced to nobody.
 */
export function useChatAnnouncements(chatId: string | undefined, onAnnounce: () => void) {
  useRealtimeChannel(chatId ? `chat:${chatId}` : null, {
    private: true,
    listeners: [{ kind: "broadcast", event: "message", onMessage: onAnnounce }, tableChanges("chats", `id=eq.${chatId}`, onAnnounce, "UPDATE")],
    onSubscribed: onAnnounce,
  });
}
