// One turn: the visitor's text, the bot's answer as safe Markdown with what its power-ups
// showed, its sources and feedback buttons, or the reply of a person of the bot's team.
import { useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { useToast, TOAST_MESSAGES } from "../../components/ui";
import { useMessageFeedbackMutation } from "../../data/messages/message-feedback-mutation";
import { Markdown, safeHref } from "./Markdown";
import type { ChatAction, ChatRole, ChatSource } from "../../data/chats/types";
import { OfferedActions, ToolLines } from "./PowerUpActions";
import { ImageThumbs } from "../../components/ImageThumbs";

export interface ViewMessage {
  key: string;
  id?: string;
  role: ChatRole;
  content: string;
  sources: ChatSource[];
  actions: ChatAction[];
  /** The turn's images: paths in the chat-images bucket. */
  images: string[];
  streaming?: boolean;
  errorId?: string;
  errorValues?: Record<string, string | number>;
}

function Sources({ sources, anchor }: { sources: ChatSource[]; anchor: string }) {
  if (!sources.length) return null;
  return (
    <div className="chat-sources">
      <h4 className="chat-sources__title">
        <FormattedMessage id="chat.sources.title" />
      </h4>
      <ol>
        {sources.map((s, i) => {
          const href = s.url ? safeHref(s.url) : null;
          const title = s.title || s.url || `#${i + 1}`;
          return (
            <li key={i} id={`${anchor}-src-${i + 1}`}>
              {href ? (
                <a href={href} target="_blank" rel="noopener noreferrer nofollow">
                  {title}
                </a>
              ) : (
                <span>{title}</span>
              )}
              {s.excerpt && <p className="chat-sources__excerpt">{s.excerpt}</p>}
            </li>
          );
        })}
      </ol>
    </div>
  );
}

function Feedback({ messageId, botId }: { messageId: string; botId: string }) {
  const intl = useIntl();
  const toast = useToast();
  const mutation = useMessageFeedbackMutation();
  const [rating, setRating] = useState<"up" | "down" | null>(null);
  const [comment, setComment] = useState("");
  const [commentSent, setCommentSent] = useState(false);

  function rate(r: "up" | "down") {
    setRating(r);
    mutation.mutate({ messageId, botId, rating: r }, { onSuccess: () => toast.show(TOAST_MESSAGES.feedbackThanks), onError: () => toast.show("chat.feedback.failed", "error") });
  }
  function sendComment() {
    if (!rating || !comment.trim()) return;
    mutation.mutate(
      { messageId, botId, rating, comment },
      {
        onSuccess: () => {
          setCommentSent(true);
          toast.show(TOAST_MESSAGES.feedbackThanks);
        },
        onError: () => toast.show("chat.feedback.failed", "error"),
      },
    );
  }
  return (
    <div className="chat-feedback">
      <div className="chat-feedback__buttons" role="group" aria-label={intl.formatMessage({ id: "chat.feedback.label" })}>
        <button type="button" className="chat-icon-button" aria-pressed={rating === "up"} aria-label={intl.formatMessage({ id: "chat.feedback.up" })} onClick={() => rate("up")}>
          <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true"><path fill="currentColor" d="M1 21h4V9H1v12zm22-11a2 2 0 0 0-2-2h-6.31l.95-4.57.03-.32c0-.41-.17-.79-.44-1.06L14.17 1 7.59 7.59C7.22 7.95 7 8.45 7 9v10a2 2 0 0 0 2 2h9c.83 0 1.54-.5 1.84-1.22l3.02-7.05c.09-.23.14-.47.14-.73v-2z" /></svg>
        </button>
        <button type="button" className="chat-icon-button" aria-pressed={rating === "down"} aria-label={intl.formatMessage({ id: "chat.feedback.down" })} onClick={() => rate("down")}>
          <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true"><path fill="currentColor" d="M15 3H6c-.83 0-1.54.5-1.84 1.22l-3.02 7.05c-.09.23-.14.47-.14.73v2a2 2 0 0 0 2 2h6.31l-.95 4.57-.03.32c0 .41.17.79.44 1.06L9.83 23l6.59-6.59c.36-.36.58-.86.58-1.41V5a2 2 0 0 0-2-2zm4 0v12h4V3h-4z" /></svg>
        </button>
      </div>
      {rating && !commentSent && (
        <div className="chat-feedback__comment">
          <label className="sr-only" htmlFor={`fb-${messageId}`}>
            <FormattedMessage id="chat.feedback.commentLabel" />
          </label>
          <input
            id={`fb-${messageId}`}
            className="chat-feedback__input"
            value={comment}
            maxLength={2000}
            placeholder={intl.formatMessage({ id: "chat.feedback.commentPlaceholder" })}
            onChange={(e) => setComment(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                sendComment();
              }
            }}
          />
          <button type="button" className="chat-link-button" disabled={!comment.trim() || mutation.isPending} onClick={sendComment}>
            <FormattedMessage id="chat.feedback.sendComment" />
          </button>
        </div>
      )}
    </div>
  );
}

export function MessageItem({
  message,
  botId,
  botName,
  canGiveFeedback,
  chatId,
}: {
  message: ViewMessage;
  botId: string;
  botName: string;
  /** The viewer's own chat (not a shared one): feedback and forms take input. */
  canGiveFeedback: boolean;
  chatId?: string;
}) {
  const anchor = `m-${message.key}`;
  if (message.role === "user") {
    return (
      <li className="chat-msg chat-msg--user">
        <div className="chat-bubble chat-bubble--user">
          <p className="chat-user-text">{message.content}</p>
          {message.images.length > 0 && <ImageThumbs paths={message.images} />}
        </div>
      </li>
    );
  }
  if (message.role === "human") {
    return (
      <li className="chat-msg chat-msg--human">
        <div className="chat-bubble chat-bubble--human" data-testid="chat-human-reply">
          <p className="chat-human__from">
            <FormattedMessage id="chat.human.from" />
          </p>
          <p className="chat-user-text">{message.content}</p>
        </div>
      </li>
    );
  }
  const waiting = message.streaming && !message.content;
  return (
    <li className="chat-msg chat-msg--bot" aria-busy={message.streaming || undefined}>
      <span className="sr-only">{botName}:</span>
      <div className="chat-bubble chat-bubble--bot" data-testid="chat-answer">
        <ToolLines actions={message.actions} />
        {waiting ? (
          <span className="chat-typing" role="status">
            <FormattedMessage id="common.loading" />
          </span>
        ) : (
          <Markdown
            text={message.content}
            citation={(n) =>
              n >= 1 && n <= message.sources.length ? (
                <a className="chat-cite" href={`#${anchor}-src-${n}`}>
                  [{n}]
                </a>
              ) : (
                `[${n}]`
              )
            }
          />
        )}
        {message.errorId && (
          <p className="chat-error" role="alert">
            <FormattedMessage id={message.errorId} values={message.errorValues} />
          </p>
        )}
        <OfferedActions actions={message.actions} content={message.content} chatId={chatId} messageId={message.id} interactive={canGiveFeedback} />
        {!message.streaming && <Sources sources={message.sources} anchor={anchor} />}
      </div>
      {!message.streaming && message.id && !message.errorId && canGiveFeedback && <Feedback messageId={message.id} botId={botId} />}
    </li>
  );
}
