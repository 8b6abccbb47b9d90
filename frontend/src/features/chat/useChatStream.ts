// The turns of one conversation: the stored ones, the visitor's sends streamed in token by
// token, and turns stored elsewhere (the visitor's other tab, the owner of a shared chat),
// which arrive live. This tab's own send is already on screen: announcements during it wait.
// Power-ups' events (a tool line, a lead form, a link, a handoff) join the answer as its actions;
// while the chat is with a person of the team the bot stays quiet and their replies arrive live.
import { useEffect, useRef, useState } from "react";
import { fetchChat, type ChatDetail } from "../../data/chats/chat-query";
import { sendChatMessage } from "../../data/chats/chat-stream";
import { useChatAnnouncements } from "../../data/chats/use-chat-announcements";
import { AppError } from "../../lib/errors";
import { chatErrorMessageId } from "./errors";
import type { ChatAction } from "../../data/chats/types";
import { mergeStored, toView } from "./live";
import type { ViewMessage } from "./MessageItem";

export interface SendOptions {
  botId: string;
  channel: "web" | "widget";
  images: string[];
  ensureVisitor: () => Promise<string>;
}

export type SendResult = { kind: "done"; chatId?: string; visitorId?: string; withPerson?: boolean; /** The answer's text as streamed ("" when none came). */ text: string } | { kind: "password_required" } | { kind: "aborted" };

export function useChatStream(routeChatId: string | undefined, userId: string | undefined, existing: ChatDetail | null | undefined) {
  const [chatId, setChatId] = useState<string | undefined>(routeChatId);
  const [messages, setMessages] = useState<ViewMessage[]>([]);
  const [busy, setBusy] = useState(false);
  /** The chat is with a person of the team: the bot does not answer until they hand it back. */
  const [withPerson, setWithPerson] = useState(false);
  const abortRef = useRef<AbortController | null>(null);
  const loaded = useRef(false);
  const busyRef = useRef(false);
  const refreshing = useRef(false);
  const refreshAgain = useRef(false);

  useEffect(() => {
    if (!loaded.current && existing) {
      loaded.current = true;
      setMessages(existing.messages.map(toView));
      setWithPerson(existing.chat.needs_human === true);
    }
  }, [existing]);
  useEffect(() => () => abortRef.current?.abort(), []);

  async function refresh() {
    if (!chatId || busyRef.current) return;
    if (refreshing.current) {
      refreshAgain.current = true;
      return;
    }
    refreshing.current = true;
    try {
      do {
        refreshAgain.current = false;
        if (!userId) return;
        const detail = await fetchChat(chatId, userId);
        if (detail && !busyRef.current) {
          setWithPerson(detail.chat.needs_human === true);
          setMessages((shown) => mergeStored(shown, detail.messages, Date.now(), !detail.chat.needs_human));
        }
      } while (refreshAgain.current);
    } catch {
      // A failed refresh leaves the chat as shown; the next announcement tries again.
    } finally {
      refreshing.current = false;
    }
  }
  useChatAnnouncements(chatId, () => void refresh());

  function update(key: string, patch: (m: ViewMessage) => ViewMessage) {
    setMessages((list) => list.map((m) => (m.key === key ? patch(m) : m)));
  }
  const addAction = (key: string, action: ChatAction) => update(key, (m) => ({ ...m, actions: [...m.actions, action] }));

  async function send(text: string, o: SendOptions): Promise<SendResult> {
    const stamp = Date.now().toString(36);
    const userKey = `u-${stamp}`;
    const botKey = `a-${stamp}`;
    setMessages((list) => [...list, { key: userKey, role: "user", content: text, sources: [], actions: [], images: o.images }, { key: botKey, role: "assistant", content: "", sources: [], actions: [], images: [], streaming: true }]);
    setBusy(true);
    busyRef.current = true;
    const controller = new AbortController();
    abortRef.current = controller;
    let newChatId = chatId;
    let answerId: string | undefined;
    let visitorId = userId;
    let handedOver = false;
    let answer = "";
    try {
      visitorId = await o.ensureVisitor();
      const request = { bot_id: o.botId, chat_id: chatId, message: text, images: o.images.length ? o.images.map((path) => ({ path })) : undefined, channel: o.channel };
      for await (const ev of sendChatMessage(request, controller.signal)) {
        if (ev.event === "meta") {
          newChatId = ev.data.chat_id;
          answerId = ev.data.message_id;
          setChatId(ev.data.chat_id);
          update(botKey, (m) => ({ ...m, id: ev.data.message_id }));
          if (ev.data.user_message_id) update(userKey, (m) => ({ ...m, id: ev.data.user_message_id }));
        } else if (ev.event === "token") {
          answer += ev.data.text;
          update(botKey, (m) => ({ ...m, content: m.content + ev.data.text }));
        }
        else if (ev.event === "sources") update(botKey, (m) => ({ ...m, sources: ev.data }));
        else if (ev.event === "tool") addAction(botKey, { type: "tool", ...ev.data });
        else if (ev.event === "lead_form") addAction(botKey, { type: "lead_form", ...ev.data });
        else if (ev.event === "link") addAction(botKey, { type: "link", ...ev.data });
        else if (ev.event === "handoff") {
          addAction(botKey, { type: "handoff", ...ev.data });
          handedOver = true;
          setWithPerson(true);
        } else if (ev.event === "done" && ev.data.quiet) {
          // A person answers this chat: no answer from the bot, and none stored.
          setMessages((list) => list.filter((m) => m.key !== botKey));
          handedOver = true;
          setWithPerson(true);
        } else if (ev.event === "done") {
          update(botKey, (m) => ({ ...m, id: ev.data.message_id || answerId, streaming: false }));
          // The bot answered, so the chat is not with a person (any more), unless this answer handed it over.
          setWithPerson(handedOver);
        }
        else if (ev.event === "error") update(botKey, (m) => ({ ...m, streaming: false, errorId: chatErrorMessageId(ev.data.code) }));
      }
      update(botKey, (m) => ({ ...m, streaming: false }));
    } catch (err) {
      if (controller.signal.aborted) return { kind: "aborted" };
      const e = err instanceof AppError ? err : new AppError({ status: 0, code: "network_error", message: String(err) });
      if (e.code === "password_required") return { kind: "password_required" };
      update(botKey, (m) => ({ ...m, streaming: false, errorId: chatErrorMessageId(e.code), errorValues: { seconds: e.retryAfter ?? 60 } }));
    } finally {
      setBusy(false);
      busyRef.current = false;
    }
    return { kind: "done", chatId: newChatId, visitorId, withPerson: handedOver, text: answer };
  }

  /** Stops a running answer and starts over with no chat. */
  function reset() {
    abortRef.current?.abort();
    setChatId(undefined);
    setMessages([]);
    setWithPerson(false);
  }

  /** Calls `use` with the turns as they are after every pending update (a state updater that changes nothing). */
  function withLatest(use: (list: ViewMessage[]) => void) {
    setMessages((list) => {
      use(list);
      return list;
    });
  }

  return { chatId, messages, busy, withPerson, send, reset, withLatest };
}
