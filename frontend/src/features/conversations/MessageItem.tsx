// One turn of a conversation. Text is rendered as text (React escapes it), never as HTML.
import type { ReactNode } from "react";
import { FormattedMessage, FormattedNumber, useIntl } from "react-intl";
import type { ConversationMessage, MessageRating, PowerUpCall } from "../../data/chats/types";
import { PowerUpCalls } from "./PowerUpCalls";
import { ImageThumbs } from "../../components/ImageThumbs";
import { safeUrl } from "./format";

// Answers use **bold** for the passage headings; that one mark becomes <strong>, built as React
// nodes so nothing in the text is ever parsed as HTML.
export function richText(text: string): ReactNode[] {
  return text.split(/\*\*([^*\n]+)\*\*/g).map((part, i) => (i % 2 === 1 ? <strong key={i}>{part}</strong> : part));
}

export function MessageItem({ message, rating, actions, calls }: { message: ConversationMessage; rating?: MessageRating; actions?: ReactNode; calls?: PowerUpCall[] }) {
  const intl = useIntl();
  const mine = message.role === "user";
  return (
    <li className={`conv-msg conv-msg--${message.role}`}>
      <div className="conv-msg__who">
        <FormattedMessage id={mine ? "conversations.message.visitor" : message.role === "human" ? "conversations.message.human" : "conversations.message.bot"} />
        <time dateTime={message.created_at}>{intl.formatTime(message.created_at, { hour: "2-digit", minute: "2-digit" })}</time>
      </div>
      <div className="conv-msg__bubble">
        {message.content && <p className="conv-msg__text">{message.role === "assistant" ? richText(message.content) : message.content}</p>}
        {message.images.length > 0 && <ImageThumbs paths={message.images} />}
        {message.error && (
          <p className="conv-msg__error" role="note">
            <FormattedMessage id="conversations.message.error" values={{ error: message.error }} />
          </p>
        )}
      </div>
      {calls && <PowerUpCalls calls={calls} />}
      {message.sources.length > 0 && (
        <details className="conv-msg__sources">
          <summary><FormattedMessage id="conversations.message.sources" values={{ count: message.sources.length }} /></summary>
          <ol>
            {message.sources.map((s, i) => {
              const href = safeUrl(s.url);
              const title = s.title || intl.formatMessage({ id: "conversations.message.sourceUntitled" });
              return (
                <li key={s.chunk_id ?? i}>
                  {href ? <a href={href} target="_blank" rel="noreferrer noopener">{title}</a> : <strong>{title}</strong>}
                  {s.excerpt && <p className="conv-msg__excerpt">{s.excerpt}</p>}
                </li>
              );
            })}
          </ol>
        </details>
      )}
      {message.role === "assistant" && (
        <div className="conv-msg__facts">
          {message.latency_ms !== null && (
            <span><FormattedMessage id="conversations.message.latency" values={{ ms: <FormattedNumber key="ms" value={message.latency_ms} /> }} /></span>
          )}
          {message.first_token_ms !== null && (
            <span><FormattedMessage id="conversations.message.firstToken" values={{ ms: <FormattedNumber key="ms" value={message.first_token_ms} /> }} /></span>
          )}
          {(message.model || message.provider) && (
            <span><FormattedMessage id="conversations.message.model" values={{ model: [message.provider, message.model].filter(Boolean).join(" · ") }} /></span>
          )}
          {rating && (
            <span className={`badge conv-msg__rating conv-msg__rating--${rating.rating}`}>
              <FormattedMessage id={rating.rating === "up" ? "conversations.feedback.up" : "conversations.feedback.down"} />
              {rating.comment && <span className="conv-msg__comment">“{rating.comment}”</span>}
            </span>
          )}
          {actions}
        </div>
      )}
    </li>
  );
}
