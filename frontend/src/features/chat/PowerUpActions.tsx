// What a bot's power-ups showed the visitor with an answer (messages.actions, or the chat
// stream's tool/lead_form/link/handoff events): a short line per action called, link buttons,
// lead forms and the notice that a person takes over. All text is rendered as text.
import { FormattedMessage } from "react-intl";
import type { ChatAction } from "../../data/chats/types";
import { lazy, Suspense } from "react";

// Rarely shown (a lead form power-up offered): its own chunk, fetched when an answer offers it.
const LeadForm = lazy(() => import("./LeadForm").then((m) => ({ default: m.LeadForm })));

/** A link button's URL when it is an absolute http(s) URL, else null (never javascript:, data:, ...). */
export function safeLinkUrl(url: string): string | null {
  try {
    const u = new URL(url.trim());
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : null;
  } catch {
    return null;
  }
}

/** The lines about actions the bot took, shown before the answer's text. */
export function ToolLines({ actions }: { actions: ChatAction[] }) {
  const lines = actions.flatMap((a) => (a.type === "tool" ? [a] : []));
  if (!lines.length) return null;
  return (
    <ul className="chat-tools">
      {lines.map((t, i) => (
        <li key={i} className={t.ok ? "chat-tool" : "chat-tool chat-tool--failed"}>
          <FormattedMessage id={t.ok ? "chat.tool.done" : "chat.tool.failed"} values={{ label: t.label || t.name }} />
        </li>
      ))}
    </ul>
  );
}

/** Link buttons, lead forms and the handoff notice, shown after the answer's text. */
export function OfferedActions({ actions, content, chatId, messageId, interactive }: { actions: ChatAction[]; content: string; chatId?: string; messageId?: string; interactive: boolean }) {
  const offered = actions.filter((a) => a.type !== "tool");
  if (!offered.length) return null;
  return (
    <div className="chat-actions">
      {offered.map((a, i) => {
        if (a.type === "link") {
          const href = safeLinkUrl(a.url);
          return href ? (
            <a key={i} className="chat-action-link" href={href} target="_blank" rel="noopener noreferrer">
              {a.label}
            </a>
          ) : null;
        }
        if (a.type === "lead_form") {
          return interactive ? (
            <Suspense key={i} fallback={null}>
              <LeadForm form={a} chatId={chatId} messageId={messageId} />
            </Suspense>
          ) : (
            <p key={i} className="chat-lead chat-lead--offered">
              <FormattedMessage id="chat.lead.offered" values={{ label: a.label }} />
            </p>
          );
        }
        if (a.type === "handoff") {
          // The extractive default says the handoff's sentence as its answer: not twice.
          const text = a.text.trim() && a.text.trim() !== content.trim() ? a.text : null;
          return (
            <div key={i} className="chat-handoff" role="note">
              <p className="chat-handoff__title">
                <FormattedMessage id="chat.handoff.title" />
              </p>
              {text && <p className="chat-handoff__text">{text}</p>}
            </div>
          );
        }
        return null;
      })}
    </div>
  );
}
