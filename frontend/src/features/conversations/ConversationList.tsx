// The list of conversations; each row links to its conversation view.
import { FormattedMessage, FormattedRelativeTime, useIntl } from "react-intl";
import type { ConversationSummary } from "../../data/chats/types";
import { LocalizedLink } from "../../components/LocalizedLink";
import { lastActivity } from "./format";

function relative(iso: string): { value: number; unit: "second" | "minute" | "hour" | "day" } {
  const s = Math.round((Date.parse(iso) - Date.now()) / 1000);
  if (Math.abs(s) < 60) return { value: s, unit: "second" };
  if (Math.abs(s) < 3600) return { value: Math.round(s / 60), unit: "minute" };
  if (Math.abs(s) < 86400) return { value: Math.round(s / 3600), unit: "hour" };
  return { value: Math.round(s / 86400), unit: "day" };
}

export function When({ iso }: { iso: string }) {
  const r = relative(iso);
  const intl = useIntl();
  return (
    <time dateTime={iso} title={intl.formatDate(iso, { dateStyle: "medium", timeStyle: "short" })}>
      <FormattedRelativeTime value={r.value} unit={r.unit} numeric="auto" />
    </time>
  );
}

export function ConversationList(props: { items: ConversationSummary[]; hrefOf: (c: ConversationSummary) => string; activeId?: string; label: string; titleOf?: (c: ConversationSummary) => string | null }) {
  return (
    <ul className="conv-list" aria-label={props.label}>
      {props.items.map((c) => {
        const title = props.titleOf?.(c) ?? c.title;
        return (
          <li key={c.id}>
            <LocalizedLink className={`conv-list__item${props.activeId === c.id ? " conv-list__item--active" : ""}`} to={props.hrefOf(c)} aria-current={props.activeId === c.id ? "page" : undefined}>
              <span className="conv-list__title">{title || <FormattedMessage id="conversations.list.untitled" />}</span>
              <span className="conv-list__meta">
                {c.bot && <span className="conv-list__bot">{c.bot.name}</span>}
                {c.needs_human && <span className="badge conv-badge--human"><FormattedMessage id="conversations.needsHuman.label" /></span>}
                <span className="badge"><FormattedMessage id={`conversations.channel.${c.channel}`} /></span>
                <span><FormattedMessage id="conversations.list.messageCount" values={{ count: c.message_count }} /></span>
                <When iso={lastActivity(c)} />
              </span>
            </LocalizedLink>
          </li>
        );
      })}
    </ul>
  );
}
