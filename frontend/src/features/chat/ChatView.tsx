// The chat: one component for the chat page, the embeds and the widget's iframe.
import { useEffect, useMemo, useRef, useState, type CSSProperties } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { useNavigate, useLocation } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { Button, Dialog, EmptyState, Loading, Menu, Select, useToast, TOAST_MESSAGES, type MenuItem } from "../../components/ui";
import { usePublicBotQuery, type PublicBot } from "../../data/chats/public-bot-query";
import { useBotGrantQuery } from "../../data/chats/bot-grant-query";
import { fetchChat, useChatQuery, type ChatDetail } from "../../data/chats/chat-query";
import { useChatShareMutation } from "../../data/chats/chat-share-mutation";
import { useTeamBotsQuery } from "../../data/chats/team-bots-query";
import { chatKeys } from "../../data/chats/keys";
import { getConfig } from "../../lib/config";
import { useLocalePath } from "../site/LocalizedLink";
import { ChatApiError, downloadTranscript, sendChatMessage } from "./api";
import { Composer, type PendingImage } from "./Composer";
import { chatErrorMessageId } from "./errors";
import { uploadImage } from "./images";
import { MessageItem, type ViewMessage } from "./MessageItem";
import { mergeStored, toView, useChatAnnouncements } from "./live";
import { useVisitorSession } from "./useVisitorSession";
import "./chat.css";

export type ChatVariant = "page" | "embed" | "embed-center";

const HEX = /^#[0-9a-f]{3,8}$/i;

function themeStyle(bot: PublicBot, colorOverride?: string | null): CSSProperties {
  const style: Record<string, string> = {};
  const primary = colorOverride && HEX.test(colorOverride) ? colorOverride : bot.theme?.primary;
  if (primary && HEX.test(primary)) style["--chat-primary"] = primary;
  return style as CSSProperties;
}

export function ChatView({ botId, chatId, variant = "page", color }: { botId: string; chatId?: string; variant?: ChatVariant; color?: string | null }) {
  const intl = useIntl();
  const bot = usePublicBotQuery(botId);
  // A chat named in the URL is read with the visitor's session, so it is needed at once;
  // a new chat signs the visitor in at the first message.
  const visitor = useVisitorSession({ eager: !!chatId });
  // Visitors of a password bot without a session, or anonymous ones, go to its login first
  // unless they hold a grant. A signed-in user may be on the bot's team (no password needed),
  // which only the chat function can tell: for them a 403 password_required from it sends
  // them to the login instead.
  const passwordBot = bot.data?.visibility === "password";
  const needsGrant = passwordBot && (!visitor.user || visitor.anonymous);
  const grant = useBotGrantQuery(botId, visitor.user?.id, needsGrant && !!visitor.user);
  const navigate = useNavigate();
  const location = useLocation();
  const lp = useLocalePath();

  const loginPath = `${lp(`/bots/${botId}/login`)}?redirect=${encodeURIComponent(location.pathname + location.search)}`;
  const mustLogin = needsGrant && visitor.settled && (!visitor.user || grant.data === false);
  useEffect(() => {
    if (mustLogin) navigate(loginPath, { replace: true });
  }, [mustLogin, navigate, loginPath]);

  const waitingForVisitor = !visitor.settled || (!!chatId && !visitor.ready && !visitor.error);
  if (bot.isPending || (bot.data && waitingForVisitor)) return <Loading className="chat-loading" />;
  if (bot.isError || (chatId && visitor.error)) {
    return <EmptyState title={<FormattedMessage id="chat.error.loadTitle" />} description={<FormattedMessage id={chatErrorMessageId(visitor.error ?? "")} values={{ seconds: 60 }} />} />;
  }
  if (!bot.data) return <EmptyState title={<FormattedMessage id="chat.error.notFoundTitle" />} description={<FormattedMessage id="chat.error.notFound" />} />;
  if (needsGrant && (mustLogin || (grant.data !== true && !grant.isError))) return <Loading className="chat-loading" />;
  return (
    <div className={`chat chat--${variant}`} style={themeStyle(bot.data, color)} aria-label={intl.formatMessage({ id: "chat.region" }, { name: bot.data.name })} role="region">
      <Conversation key={chatId ?? "new"} bot={bot.data} chatId={chatId} variant={variant} userId={visitor.user?.id} anonymous={!visitor.user || visitor.anonymous} ensureVisitor={visitor.ensure} />
    </div>
  );
}

function Conversation({
  bot,
  chatId: routeChatId,
  variant,
  userId,
  anonymous,
  ensureVisitor,
}: {
  bot: PublicBot;
  chatId?: string;
  variant: ChatVariant;
  /** The visitor's user id; none until their first message when they came without a session. */
  userId?: string;
  anonymous: boolean;
  ensureVisitor: () => Promise<string>;
}) {
  const intl = useIntl();
  const toast = useToast();
  const navigate = useNavigate();
  const lp = useLocalePath();
  const qc = useQueryClient();
  const existing = useChatQuery(routeChatId, userId);
  const share = useChatShareMutation();
  const [chatId, setChatId] = useState<string | undefined>(routeChatId);
  const [messages, setMessages] = useState<ViewMessage[]>([]);
  const [busy, setBusy] = useState(false);
  const [images, setImages] = useState<PendingImage[]>([]);
  const [pickerOpen, setPickerOpen] = useState(false);
  const listRef = useRef<HTMLOListElement>(null);
  const abortRef = useRef<AbortController | null>(null);
  const loaded = useRef(false);
  const busyRef = useRef(false);
  const refreshing = useRef(false);
  const refreshAgain = useRef(false);

  useEffect(() => {
    if (!loaded.current && existing.data) {
      loaded.current = true;
      setMessages(existing.data.messages.map(toView));
    }
  }, [existing.data]);
  useEffect(() => () => abortRef.current?.abort(), []);
  useEffect(() => {
    const el = listRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [messages]);

  const readOnly = !!existing.data?.readOnly;
  const embedded = variant !== "page";
  const siteUrl = getConfig().siteUrl;
  const botUrl = `${siteUrl}${lp(`/bots/${bot.id}`)}`;

  // Turns stored elsewhere (the visitor's other tab, or the owner of a shared chat) appear
  // live. This tab's own send is already on screen: announcements during it are skipped.
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
        if (detail && !busyRef.current) setMessages((shown) => mergeStored(shown, detail.messages));
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

  async function send(text: string) {
    if (busy) return;
    const paths = images.filter((i) => i.status === "ready" && i.path).map((i) => i.path!);
    images.forEach((i) => URL.revokeObjectURL(i.preview));
    setImages([]);
    const stamp = Date.now().toString(36);
    const userKey = `u-${stamp}`;
    const botKey = `a-${stamp}`;
    setMessages((list) => [...list, { key: userKey, role: "user", content: text, sources: [], imageCount: paths.length }, { key: botKey, role: "assistant", content: "", sources: [], imageCount: 0, streaming: true }]);
    setBusy(true);
    busyRef.current = true;
    const controller = new AbortController();
    abortRef.current = controller;
    let newChatId = chatId;
    let answerId: string | undefined;
    let visitorId = userId;
    try {
      visitorId = await ensureVisitor();
      for await (const ev of sendChatMessage({ botId: bot.id, chatId, message: text, images: paths, channel: embedded ? "widget" : "web", signal: controller.signal })) {
        if (ev.type === "meta") {
          newChatId = ev.chat_id;
          answerId = ev.message_id;
          setChatId(ev.chat_id);
          update(botKey, (m) => ({ ...m, id: ev.message_id }));
          if (ev.user_message_id) update(userKey, (m) => ({ ...m, id: ev.user_message_id }));
        } else if (ev.type === "token") update(botKey, (m) => ({ ...m, content: m.content + ev.text }));
        else if (ev.type === "sources") update(botKey, (m) => ({ ...m, sources: ev.sources }));
        else if (ev.type === "done") update(botKey, (m) => ({ ...m, id: ev.message_id || answerId, streaming: false }));
        else if (ev.type === "error") update(botKey, (m) => ({ ...m, streaming: false, errorId: chatErrorMessageId(ev.code) }));
      }
      update(botKey, (m) => ({ ...m, streaming: false }));
    } catch (err) {
      if (controller.signal.aborted) return;
      const e = err instanceof ChatApiError ? err : new ChatApiError(0, "network_error", String(err));
      if (e.code === "password_required") {
        navigate(`${lp(`/bots/${bot.id}/login`)}?redirect=${encodeURIComponent(window.location.pathname)}`, { replace: true });
        return;
      }
      update(botKey, (m) => ({ ...m, streaming: false, errorId: chatErrorMessageId(e.code), errorValues: { seconds: e.retryAfter ?? 60 } }));
    } finally {
      setBusy(false);
      busyRef.current = false;
    }
    // The page's URL names the chat once it has an answer, so a reload or a link finds it.
    if (variant === "page" && newChatId && !routeChatId) {
      setMessages((list) => {
        const detail: ChatDetail = {
          chat: { id: newChatId!, bot_id: bot.id, user_id: visitorId ?? "", title: null, shared: false },
          messages: list.map((m) => ({ id: m.id ?? m.key, role: m.role, content: m.content, sources: m.sources, images: [], error: null })),
          readOnly: false,
        };
        qc.setQueryData(chatKeys.detail(newChatId!), detail);
        return list;
      });
      navigate(lp(`/bots/${bot.id}/chats/${newChatId}`), { replace: true });
    }
  }

  async function addImages(files: File[]) {
    const { getSupabase } = await import("../../lib/supabase");
    const added = files.map((file) => ({ id: crypto.randomUUID(), file, preview: URL.createObjectURL(file), status: "uploading" as const }));
    setImages((list) => [...list, ...added]);
    let visitorId: string;
    try {
      visitorId = await ensureVisitor();
    } catch (err) {
      setImages((list) => list.map((i) => (added.some((a) => a.id === i.id) ? { ...i, status: "failed" } : i)));
      toast.show(err instanceof ChatApiError && err.code === "sign_in_rate_limited" ? "chat.error.busy" : "chat.images.failed", "error");
      return;
    }
    await Promise.all(
      added.map(async (img) => {
        try {
          const path = await uploadImage(getSupabase(), visitorId, img.file);
          setImages((list) => list.map((i) => (i.id === img.id ? { ...i, status: "ready", path } : i)));
        } catch {
          setImages((list) => list.map((i) => (i.id === img.id ? { ...i, status: "failed" } : i)));
          toast.show("chat.images.failed", "error");
        }
      }),
    );
  }

  function removeImage(id: string) {
    setImages((list) => {
      const gone = list.find((i) => i.id === id);
      if (gone) URL.revokeObjectURL(gone.preview);
      return list.filter((i) => i.id !== id);
    });
  }

  async function copy(text: string, messageId: string) {
    try {
      await navigator.clipboard.writeText(text);
      toast.show(messageId);
    } catch {
      toast.show("chat.options.copyFailed", "error");
    }
  }

  async function shareChat() {
    if (!chatId) return;
    try {
      await share.mutateAsync(chatId);
      await copy(`${siteUrl}${lp(`/bots/${bot.id}/chats/${chatId}`)}`, TOAST_MESSAGES.chatUrlCopied);
    } catch {
      toast.show("chat.options.shareFailed", "error");
    }
  }

  async function download(format: "txt" | "md") {
    if (!chatId) return;
    try {
      await downloadTranscript(chatId, format);
    } catch {
      toast.show("chat.options.downloadFailed", "error");
    }
  }

  function newChat(targetBot = bot.id) {
    abortRef.current?.abort();
    if (variant === "page" || targetBot !== bot.id) {
      navigate(lp(variant === "page" ? `/bots/${targetBot}` : `/bots/${targetBot}/${variant}`));
    }
    setChatId(undefined);
    setMessages([]);
  }

  const menuItems: MenuItem[] = [];
  if (chatId && !readOnly) menuItems.push({ key: "share-chat", label: intl.formatMessage({ id: "chat.options.shareChat" }), onSelect: () => void shareChat() });
  menuItems.push({ key: "share-link", label: intl.formatMessage({ id: "chat.options.shareLink" }), onSelect: () => void copy(botUrl, TOAST_MESSAGES.linkCopied) });
  if (chatId) {
    menuItems.push({ key: "download-txt", label: intl.formatMessage({ id: "chat.options.downloadTxt" }), onSelect: () => void download("txt") });
    menuItems.push({ key: "download-md", label: intl.formatMessage({ id: "chat.options.downloadMd" }), onSelect: () => void download("md") });
  }
  menuItems.push({ key: "new-chat", label: intl.formatMessage({ id: "chat.options.newChat" }), onSelect: () => newChat() });
  if (!anonymous && !embedded) menuItems.push({ key: "other-bot", label: intl.formatMessage({ id: "chat.options.otherBot" }), onSelect: () => setPickerOpen(true) });

  const suggestions = useMemo(() => (bot.suggested_questions ?? []).filter((q) => q.trim()).slice(0, 6), [bot.suggested_questions]);

  if (routeChatId && existing.isPending) return <Loading className="chat-loading" />;
  if (routeChatId && (existing.isError || existing.data === null)) {
    return (
      <EmptyState
        title={<FormattedMessage id="chat.error.chatNotFoundTitle" />}
        description={<FormattedMessage id="chat.error.chatNotFound" />}
        action={<Button onClick={() => newChat()}><FormattedMessage id="chat.options.newChat" /></Button>}
      />
    );
  }

  return (
    <>
      <header className="chat-header">
        {bot.avatar_url && safeAvatar(bot.avatar_url) ? <img className="chat-avatar" src={bot.avatar_url} alt="" /> : <span className="chat-avatar chat-avatar--letter" aria-hidden="true">{bot.name.slice(0, 1).toUpperCase()}</span>}
        <div className="chat-header__text">
          <h1 className="chat-header__name">{bot.name}</h1>
          {!embedded && bot.description && <p className="chat-header__desc">{bot.description}</p>}
        </div>
        <Menu className="chat-options" buttonLabel={intl.formatMessage({ id: "chat.options.open" })} label={<span aria-hidden="true">⋯</span>} items={menuItems} />
      </header>
      <ol className="chat-messages" ref={listRef} aria-live="polite" aria-label={intl.formatMessage({ id: "chat.messages.label" })}>
        {messages.length === 0 && (
          <li className="chat-welcome">
            <p className="chat-welcome__hello">
              <FormattedMessage id="chat.welcome" values={{ name: bot.name }} />
            </p>
            {suggestions.length > 0 && (
              <div className="chat-suggestions">
                <h2 className="chat-suggestions__title">
                  <FormattedMessage id="chat.suggestions.title" />
                </h2>
                <ul>
                  {suggestions.map((q) => (
                    <li key={q}>
                      <button type="button" className="chat-suggestion" onClick={() => void send(q)} disabled={busy || readOnly}>
                        {q}
                      </button>
                    </li>
                  ))}
                </ul>
              </div>
            )}
          </li>
        )}
        {messages.map((m) => (
          <MessageItem key={m.key} message={m} botName={bot.name} canGiveFeedback={!readOnly} />
        ))}
      </ol>
      {readOnly ? (
        <div className="chat-readonly">
          <p>
            <FormattedMessage id="chat.shared.readOnly" />
          </p>
          <Button onClick={() => newChat()}>
            <FormattedMessage id="chat.options.newChat" />
          </Button>
        </div>
      ) : (
        <Composer busy={busy} onSend={(t) => void send(t)} images={images} onAddImages={(f) => void addImages(f)} onRemoveImage={removeImage} />
      )}
      {bot.show_powered_by && (
        <p className="chat-powered">
          <a href={`${siteUrl}${lp("/")}`} target="_blank" rel="noopener">
            <FormattedMessage id="chat.poweredBy" values={{ brand: "Parley" }} />
          </a>
        </p>
      )}
      {pickerOpen && <BotPicker botId={bot.id} onClose={() => setPickerOpen(false)} onPick={(id) => newChat(id)} />}
    </>
  );
}

function safeAvatar(url: string): boolean {
  return /^(https?:|\/)/i.test(url);
}

function BotPicker({ botId, onClose, onPick }: { botId: string; onClose: () => void; onPick: (id: string) => void }) {
  const intl = useIntl();
  const bots = useTeamBotsQuery(botId, true);
  const [choice, setChoice] = useState(botId);
  return (
    <Dialog
      open
      onClose={onClose}
      title={intl.formatMessage({ id: "chat.picker.title" })}
      footer={
        <>
          <Button theme="secondary" onClick={onClose}>
            <FormattedMessage id="chat.picker.cancel" />
          </Button>
          <Button
            onClick={() => {
              onClose();
              onPick(choice);
            }}
            disabled={!bots.data?.length}
          >
            <FormattedMessage id="chat.picker.start" />
          </Button>
        </>
      }
    >
      {bots.isPending ? (
        <Loading />
      ) : bots.isError ? (
        <p role="alert"><FormattedMessage id="chat.error.generic" /></p>
      ) : (
        <Select label={intl.formatMessage({ id: "chat.picker.label" })} value={choice} onChange={(e) => setChoice(e.target.value)} options={(bots.data ?? []).map((b) => ({ value: b.id, label: b.name }))} />
      )}
    </Dialog>
  );
}
