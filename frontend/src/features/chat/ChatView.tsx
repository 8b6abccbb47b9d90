// The chat: one component for the chat page, the embeds and the widget's iframe. The turns and
// their streaming live in useChatStream, pending images in useChatImages, the conversation
// menu in ChatMenu; this file decides who may see the chat and lays it out.
import { lazy, Suspense, useEffect, useMemo, useRef, useState, type CSSProperties } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { useQueryClient } from "@tanstack/react-query";
import { Button, EmptyState, Loading } from "../../components/ui";
import { usePublicBotQuery, type PublicBot } from "../../data/bots/public-bot-query";
import { useBotGrantQuery } from "../../data/bots/bot-grant-query";
import { useChatQuery, type ChatDetail } from "../../data/chats/chat-query";
import { chatKeys } from "../../data/chats/keys";
import { getConfig } from "../../lib/config";
import { useChatLocalePath, useChatNav } from "./nav";
import { BotPasswordForm } from "./BotPasswordForm";
import { ChatMenu } from "./ChatMenu";
import { Composer } from "./Composer";
import { chatErrorMessageId } from "./errors";
import { useChatImages } from "./useChatImages";
import { useChatStream } from "./useChatStream";
import { useVisitorSession } from "./useVisitorSession";
import { useVisitorIdentity } from "./identity";
import { useChatVisitorMutation } from "../../data/chats/chat-visitor-mutation";
import "./chat.css";
import { avatarSrc } from "../../lib/avatars";

export type ChatVariant = "page" | "embed" | "embed-center";

// The turns (Markdown, sources, power-ups, feedback) are their own chunk: a new visitor's
// composer does not wait for them; they are fetched as soon as the chat is on screen.
const loadMessageItem = () => import("./MessageItem");
const MessageItem = lazy(() => loadMessageItem().then((m) => ({ default: m.MessageItem })));

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
  // them to the login instead. In an embed (an iframe on a customer's site, which the login page
  // refuses to be) the chat asks for the password itself, with the login page's form.
  const passwordBot = bot.data?.visibility === "password";
  const needsGrant = passwordBot && (!visitor.user || visitor.anonymous);
  const grant = useBotGrantQuery(botId, visitor.user?.id, needsGrant && !!visitor.user);
  const nav = useChatNav();
  const lp = useChatLocalePath();
  const embedded = variant !== "page";
  const [askPassword, setAskPassword] = useState(false);

  const loginPath = `${lp(`/bots/${botId}/login`)}?redirect=${encodeURIComponent(nav.pathname + nav.search)}`;
  const mustLogin = needsGrant && visitor.settled && (!visitor.user || grant.data === false);
  const navigate = nav.navigate;
  useEffect(() => {
    if (!mustLogin) return;
    if (embedded) setAskPassword(true);
    else navigate(loginPath, { replace: true });
  }, [mustLogin, embedded, navigate, loginPath]);

  const waitingForVisitor = !visitor.settled || (!!chatId && !visitor.ready && !visitor.error);
  if (bot.isPending || (bot.data && waitingForVisitor)) return <Loading className="chat-loading" />;
  if (bot.isError || (chatId && visitor.error)) {
    return <EmptyState title={<FormattedMessage id="chat.error.loadTitle" />} description={<FormattedMessage id={chatErrorMessageId(visitor.error ?? "")} values={{ seconds: 60 }} />} />;
  }
  if (!bot.data) return <EmptyState title={<FormattedMessage id="chat.error.notFoundTitle" />} description={<FormattedMessage id="chat.error.notFound" />} />;
  // Shown until the password is accepted (the form stays while the visitor's new session and the
  // grant are read, so a wrong password's message is not lost).
  if (embedded && askPassword) {
    return (
      <div className="bot-login bot-login--embed" style={themeStyle(bot.data, color)}>
        <BotPasswordForm botId={botId} botName={bot.data.name} onDone={() => setAskPassword(false)} />
      </div>
    );
  }
  if (needsGrant && (mustLogin || (grant.data !== true && !grant.isError))) return <Loading className="chat-loading" />;
  return (
    <div className={`chat chat--${variant}`} style={themeStyle(bot.data, color)} aria-label={intl.formatMessage({ id: "chat.region" }, { name: bot.data.name })} role="region">
      <Conversation key={chatId ?? "new"} bot={bot.data} chatId={chatId} variant={variant} userId={visitor.user?.id} anonymous={!visitor.user || visitor.anonymous} ensureVisitor={visitor.ensure} onPasswordRequired={() => setAskPassword(true)} />
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
  onPasswordRequired,
}: {
  bot: PublicBot;
  chatId?: string;
  variant: ChatVariant;
  /** The visitor's user id; none until their first message when they came without a session. */
  userId?: string;
  anonymous: boolean;
  ensureVisitor: () => Promise<string>;
  /** The chat function wants the bot's password (an embed asks for it in place). */
  onPasswordRequired: () => void;
}) {
  const intl = useIntl();
  const { navigate } = useChatNav();
  const lp = useChatLocalePath();
  const qc = useQueryClient();
  const existing = useChatQuery(routeChatId, userId);
  const stream = useChatStream(routeChatId, userId, existing.data);
  const images = useChatImages(ensureVisitor);
  const listRef = useRef<HTMLOListElement>(null);
  const { chatId, messages, busy } = stream;
  useStoreIdentity(chatId, !existing.data?.readOnly);

  useEffect(() => {
    const t = setTimeout(() => void loadMessageItem().catch(() => undefined), 0);
    return () => clearTimeout(t);
  }, []);

  useEffect(() => {
    const el = listRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [messages]);

  const readOnly = !!existing.data?.readOnly;
  const embedded = variant !== "page";
  const siteUrl = getConfig().siteUrl;
  const botUrl = `${siteUrl}${lp(`/bots/${bot.id}`)}`;

  async function send(text: string) {
    if (busy) return;
    const result = await stream.send(text, { botId: bot.id, channel: embedded ? "widget" : "web", images: images.take(), ensureVisitor });
    if (result.kind === "password_required") {
      if (embedded) {
        onPasswordRequired();
        return;
      }
      navigate(`${lp(`/bots/${bot.id}/login`)}?redirect=${encodeURIComponent(window.location.pathname)}`, { replace: true });
      return;
    }
    // In the widget's iframe: the loader keeps the chat for this site (until a new one) and
    // counts answers that arrive while it is closed.
    if (result.kind === "done" && embedded && window.parent !== window) {
      window.parent.postMessage({ parley: "chat", chatId: result.chatId }, "*");
      window.parent.postMessage({ parley: "answer", text: result.text }, "*");
    }
    // The page's URL names the chat once it has an answer, so a reload or a link finds it.
    if (result.kind === "done" && variant === "page" && result.chatId && !routeChatId) {
      const newChatId = result.chatId;
      stream.withLatest((list) => {
        const detail: ChatDetail = {
          chat: { id: newChatId, bot_id: bot.id, user_id: result.visitorId ?? "", title: null, shared: false, needs_human: result.withPerson === true },
          messages: list.map((m) => ({ id: m.id ?? m.key, role: m.role, content: m.content, sources: m.sources, images: m.images.map((path) => ({ path })), actions: m.actions, error: null })),
          readOnly: false,
        };
        qc.setQueryData(chatKeys.detail(newChatId), detail);
      });
      navigate(lp(`/bots/${bot.id}/chats/${newChatId}`), { replace: true });
    }
  }

  function newChat(targetBot = bot.id) {
    if (embedded && window.parent !== window) window.parent.postMessage({ parley: "chat", chatId: null }, "*");
    if (variant === "page" || targetBot !== bot.id || routeChatId) {
      const search = embedded ? new URLSearchParams(window.location.search) : null;
      search?.delete("chat");
      const query = search?.toString() ? `?${search}` : "";
      navigate(lp(variant === "page" ? `/bots/${targetBot}` : `/bots/${targetBot}/${variant}`) + query);
    }
    stream.reset();
  }

  // A new visitor's session is made while they write their first message, not after they send it
  // (the anonymous sign-in then overlaps the typing; people who only look still make none).
  const preparing = useRef(false);
  function prepareVisitor() {
    if (preparing.current) return;
    preparing.current = true;
    ensureVisitor().catch(() => {
      preparing.current = false;
    });
  }

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
        {bot.avatar_url ? <img className="chat-avatar" src={avatarSrc(bot.avatar_url)} alt="" /> : <span className="chat-avatar chat-avatar--letter" aria-hidden="true">{bot.name.slice(0, 1).toUpperCase()}</span>}
        <div className="chat-header__text">
          <h1 className="chat-header__name">{bot.name}</h1>
          {!embedded && bot.description && <p className="chat-header__desc">{bot.description}</p>}
        </div>
        <ChatMenu
          botId={bot.id}
          chatId={chatId}
          readOnly={readOnly}
          canPickBot={!anonymous && !embedded}
          botUrl={botUrl}
          chatUrl={(id) => `${siteUrl}${lp(`/bots/${bot.id}/chats/${id}`)}`}
          onNewChat={(id) => newChat(id)}
        />
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
        <Suspense fallback={null}>
          {messages.map((m) => (
            <MessageItem key={m.key} message={m} botId={bot.id} botName={bot.name} canGiveFeedback={!readOnly} chatId={chatId} />
          ))}
        </Suspense>
      </ol>
      {stream.withPerson && !readOnly && (
        <p className="chat-with-person" role="status">
          <FormattedMessage id="chat.handoff.active" />
        </p>
      )}
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
        <Composer busy={busy} onSend={(t) => void send(t)} onTyping={userId ? undefined : prepareVisitor} images={images.images} onAddImages={(f) => void images.add(f)} onRemoveImage={images.remove} />
      )}
      {bot.show_powered_by && (
        <p className="chat-powered">
          <a href={`${siteUrl}${lp("/")}`} target="_blank" rel="noopener">
            <FormattedMessage id="chat.poweredBy" values={{ brand: "Parley" }} />
          </a>
        </p>
      )}
    </>
  );
}


/**
 * Keeps what the host site said about the visitor (Parley.identify) on the visitor's own chat,
 * once per chat and identity. A failure changes nothing the visitor sees.
 */
function useStoreIdentity(chatId: string | undefined, writable: boolean) {
  const identity = useVisitorIdentity();
  const store = useChatVisitorMutation();
  const stored = useRef("");
  const json = identity ? JSON.stringify(identity) : "";
  useEffect(() => {
    if (!chatId || !writable || !identity) return;
    const key = `${chatId} ${json}`;
    if (stored.current === key) return;
    stored.current = key;
    store.mutate({ chatId, visitor: identity });
  }, [chatId, writable, json, identity, store]);
}
