// Live chat for its viewers: the database announces each stored turn on the private
// Realtime topic chat:<chat id> (ids only; see migration 20261121021100_chat_live_updates).
// A viewer (the visitor's other tabs, readers of a shared chat) then reads the chat again the
// way it may and merges what it got into what it shows.
import { useEffect, useRef } from "react";
import type { ChatMessage } from "../../data/messages/messages-query";
import type { ViewMessage } from "./MessageItem";

export function toView(m: ChatMessage): ViewMessage {
  return {
    key: m.id,
    id: m.id,
    role: m.role,
    content: m.content,
    sources: Array.isArray(m.sources) ? m.sources : [],
    imageCount: Array.isArray(m.images) ? m.images.length : 0,
    errorId: m.role === "assistant" && m.error ? "chat.error.provider" : undefined,
  };
}

/** How long after a question without an answer a viewer still expects one. */
const ANSWER_WAIT_MS = 120_000;

/**
 * The stored turns in their order, keeping the keys (and so the component state) of turns
 * already shown; turns this tab has and the server has not (a send that failed) stay last.
 * When the last stored turn is a recent question, a placeholder shows its answer is on its way.
 */
export function mergeStored(shown: ViewMessage[], stored: ChatMessage[], now = Date.now()): ViewMessage[] {
  const byId = new Map(shown.filter((m) => m.id).map((m) => [m.id!, m]));
  const storedIds = new Set(stored.map((m) => m.id));
  const merged = stored.map((s) => {
    const view = toView(s);
    const mine = byId.get(s.id);
    return mine ? { ...view, key: mine.key, errorValues: mine.errorValues } : view;
  });
  const unsent = shown.filter((m) => !m.streaming && (!m.id || !storedIds.has(m.id)));
  const last = stored[stored.length - 1];
  const recent = !!last?.created_at && now - Date.parse(last.created_at) < ANSWER_WAIT_MS;
  const waiting: ViewMessage[] =
    last?.role === "user" && recent && unsent.length === 0 ? [{ key: `pending-${last.id}`, role: "assistant", content: "", sources: [], imageCount: 0, streaming: true }] : [];
  return [...merged, ...unsent, ...waiting];
}

/**
 * Calls onAnnounce when a turn of this chat is stored, and each time the subscription is
 * (re)joined: turns stored between the first read and the join, or while a dropped
 * connection was down, were announced to nobody.
 */
export function useChatAnnouncements(chatId: string | undefined, onAnnounce: () => void) {
  const callback = useRef(onAnnounce);
  useEffect(() => {
    callback.current = onAnnounce;
  });
  useEffect(() => {
    if (!chatId) return;
    let stopped = false;
    let stop: (() => void) | undefined;
    void import("../../lib/supabase").then(({ getSupabase }) => {
      if (stopped) return;
      const client = getSupabase();
      const channel = client
        .channel(`chat:${chatId}`, { config: { private: true } })
        .on("broadcast", { event: "message" }, () => callback.current())
        .subscribe((status) => {
          if (status === "SUBSCRIBED") callback.current();
        });
      stop = () => void client.removeChannel(channel);
    });
    return () => {
      stopped = true;
      stop?.();
    };
  }, [chatId]);
}
