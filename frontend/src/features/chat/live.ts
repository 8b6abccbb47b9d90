// What a viewer shows of a chat read again after an announcement
// (data/chats/use-chat-announcements): stored turns merged into those on screen.
import type { ChatMessage } from "../../data/chats/types";
import type { ViewMessage } from "./MessageItem";

export function toView(m: ChatMessage): ViewMessage {
  return {
    key: m.id,
    id: m.id,
    role: m.role,
    content: m.content,
    sources: m.sources,
    actions: m.actions,
    images: m.images.map((i) => i.path),
    errorId: m.role === "assistant" && m.error ? "chat.error.provider" : undefined,
  };
}

/** How long after a question without an answer a viewer still expects one. */
const ANSWER_WAIT_MS = 120_000;

/**
 * The stored turns in their order, keeping the keys (and so the component state) of turns
 * already shown; turns this tab has and the server has not (a send that failed) stay last.
 * When the last stored turn is a recent question, a placeholder shows its answer is on its way,
 * unless no answer is expected (the chat is with a person, and the bot stays quiet).
 */
export function mergeStored(shown: ViewMessage[], stored: ChatMessage[], now = Date.now(), expectAnswer = true): ViewMessage[] {
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
    expectAnswer && last?.role === "user" && recent && unsent.length === 0
      ? [{ key: `pending-${last.id}`, role: "assistant", content: "", sources: [], actions: [], images: [], streaming: true }]
      : [];
  return [...merged, ...unsent, ...waiting];
}
