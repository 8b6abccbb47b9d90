// Keeps the conversation screens current: new or updated chats of the team's bots refresh the
// list, new messages in the open conversation refresh its view (postgres_changes under RLS).
import { useEffect } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { conversationKeys } from "../../data/conversations/keys";
import { statsKeys } from "../../data/stats/keys";

type Unsubscribe = () => void;

async function subscribe(name: string, table: "chats" | "messages", filter: string, onChange: () => void): Promise<Unsubscribe> {
  const { getSupabase } = await import("../../lib/supabase");
  const client = getSupabase();
  const channel = client
    .channel(name)
    .on("postgres_changes", { event: "*", schema: "public", table, filter }, onChange)
    .subscribe();
  return () => void client.removeChannel(channel);
}

function useSubscription(name: string | null, table: "chats" | "messages", filter: string | null, onChange: () => void) {
  useEffect(() => {
    if (!name || !filter) return;
    let stop: Unsubscribe | null = null;
    let cancelled = false;
    void subscribe(name, table, filter, onChange).then((u) => {
      if (cancelled) u();
      else stop = u;
    });
    return () => {
      cancelled = true;
      stop?.();
    };
    // onChange is rebuilt each render; the subscription only depends on what it listens to.
  }, [name, table, filter]);
}

/** Refreshes conversation lists (and stats) when chats of these bots change. */
export function useLiveChatList(botIds: string[] | undefined) {
  const qc = useQueryClient();
  const key = botIds && botIds.length > 0 ? [...botIds].sort().join(",") : null;
  useSubscription(key ? `conversations:${key}` : null, "chats", key ? `bot_id=in.(${key})` : null, () => {
    void qc.invalidateQueries({ queryKey: conversationKeys.lists() });
    void qc.invalidateQueries({ queryKey: statsKeys.all });
  });
}

/** Refreshes one conversation's view when its messages change. */
export function useLiveConversation(chatId: string | undefined) {
  const qc = useQueryClient();
  useSubscription(chatId ? `conversation:${chatId}` : null, "messages", chatId ? `chat_id=eq.${chatId}` : null, () => {
    void qc.invalidateQueries({ queryKey: conversationKeys.detail(chatId!) });
  });
}
