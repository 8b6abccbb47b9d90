// One conversation, kept live: new messages arrive through realtime without a reload.
import { useState, type ReactNode } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { Button, EmptyState, Loading } from "../../components/ui";
import { useConversationQuery } from "../../data/chats/conversation-query";
import { useDeleteConversationMutation } from "../../data/chats/conversation-delete-mutation";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { ErrorNote } from "../../components/ErrorNote";
import { LocalizedLink } from "../../components/LocalizedLink";
import { MessageItem } from "./MessageItem";
import { useLiveConversation } from "../../data/chats/use-live-conversations";
import { When } from "./ConversationList";
import { HandoffPanel } from "./HandoffPanel";
import { VisitorIdentity } from "./VisitorIdentity";
import { PowerUpCalls } from "./PowerUpCalls";

export function ConversationView({ chatId, canDelete, onDeleted, messageActions }: {
  chatId: string;
  canDelete: boolean;
  onDeleted: () => void;
  /** Extra actions under a bot's answer (the tests area's "add as test case"). */
  messageActions?: (message: { id: string; bot_id: string; content: string }) => ReactNode;
}) {
  const intl = useIntl();
  const q = useConversationQuery(chatId);
  const del = useDeleteConversationMutation();
  const [confirming, setConfirming] = useState(false);
  useLiveConversation(chatId);

  if (q.isPending) return <Loading />;
  if (q.isError) return <ErrorNote error={q.error} />;
  const { chat, messages, ratings, calls, pendingCalls } = q.data;
  if (!chat) {
    return <EmptyState title={<FormattedMessage id="conversations.view.notFoundTitle" />} description={<FormattedMessage id="conversations.view.notFoundText" />} />;
  }
  return (
    <article className="conv-view" aria-labelledby="conv-view-title">
      <header className="conv-view__head">
        <div>
          <h2 id="conv-view-title" className="conv-view__title">{chat.title || <FormattedMessage id="conversations.list.untitled" />}</h2>
          <p className="form-note">
            {chat.bot && <LocalizedLink to={`/app/bots/${chat.bot_id}`}>{chat.bot.name}</LocalizedLink>}
            {" · "}
            <FormattedMessage id={`conversations.channel.${chat.channel}`} />
            {" · "}
            <When iso={chat.created_at} />
          </p>
          <VisitorIdentity visitor={chat.visitor} />
        </div>
        {canDelete && (
          <Button theme="delete" size="sm" onClick={() => setConfirming(true)}>
            <FormattedMessage id="conversations.view.delete" />
          </Button>
        )}
      </header>
      {messages.length === 0 ? (
        <p className="form-note"><FormattedMessage id="conversations.view.noMessages" /></p>
      ) : (
        <ol className="conv-view__messages" aria-label={intl.formatMessage({ id: "conversations.view.messages" })} aria-live="polite">
          {messages.map((m) => <MessageItem key={m.id} message={m} rating={ratings[m.id]} calls={calls[m.id]} actions={canDelete ? messageActions?.({ id: m.id, bot_id: chat.bot_id, content: m.content }) : undefined} />)}
          {pendingCalls.length > 0 && (
            <li className="conv-msg conv-msg--pending" data-testid="conv-pending-calls">
              <PowerUpCalls calls={pendingCalls} live />
            </li>
          )}
        </ol>
      )}
      {canDelete && <HandoffPanel chatId={chatId} needsHuman={chat.needs_human} />}
      <ConfirmDialog
        open={confirming}
        title={<FormattedMessage id="conversations.delete.title" />}
        body={<FormattedMessage id="conversations.delete.body" />}
        confirmLabel={<FormattedMessage id="conversations.delete.confirm" />}
        busy={del.isPending}
        error={del.isError ? <ErrorNote error={del.error} /> : undefined}
        onClose={() => { setConfirming(false); del.reset(); }}
        onConfirm={() => del.mutate(chatId, { onSuccess: () => { setConfirming(false); onDeleted(); } })}
      />
    </article>
  );
}
