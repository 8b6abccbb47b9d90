// The conversation screen's state lives in the URL so it can be shared and survives reloads:
// bot and open chat in the path (/app/conversations/all, /bot/{botId}, .../chat/{chatId}),
// channel, date range, feedback and "waits for a person" in the query
// (?channel=web&from=2026-11-01&to=…&feedback=up&human=1).
import { CHANNELS, type ConversationFilters, type FeedbackFilter } from "../../data/chats/types";

export type { ConversationFilters, FeedbackFilter };

export const FEEDBACK_FILTERS: readonly FeedbackFilter[] = ["up", "down", "none"];

export interface ConversationLocation {
  filters: ConversationFilters;
  chatId?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function validDate(v: string | null): string | undefined {
  if (!v || !DATE.test(v)) return undefined;
  return Number.isNaN(Date.parse(`${v}T00:00:00Z`)) ? undefined : v;
}

/** Reads the filters from the catch-all slug and the query; unknown or malformed parts are ignored. */
export function parseConversationLocation(slug: string, search: URLSearchParams): ConversationLocation {
  const parts = slug.split("/").filter(Boolean);
  const filters: ConversationFilters = {};
  let chatId: string | undefined;
  for (let i = 0; i < parts.length; i++) {
    const key = parts[i];
    const value = parts[i + 1];
    if (key === "bot" && value && UUID.test(value)) {
      filters.botId = value.toLowerCase();
      i++;
    } else if (key === "chat" && value && UUID.test(value)) {
      chatId = value.toLowerCase();
      i++;
    }
  }
  const channel = search.get("channel");
  const known = CHANNELS.find((c) => c === channel);
  if (known) filters.channel = known;
  const from = validDate(search.get("from"));
  const to = validDate(search.get("to"));
  if (from) filters.from = from;
  if (to) filters.to = to;
  const feedback = search.get("feedback");
  if (feedback && (FEEDBACK_FILTERS as readonly string[]).includes(feedback)) filters.feedback = feedback as FeedbackFilter;
  if (search.get("human") === "1") filters.human = true;
  return { filters, chatId };
}

/** The unprefixed URL (path + query) for a set of filters and an optional open conversation. */
export function conversationPath(loc: ConversationLocation): string {
  const { filters, chatId } = loc;
  let path = filters.botId ? `/app/conversations/bot/${filters.botId}` : "/app/conversations/all";
  if (chatId) path += `/chat/${chatId}`;
  const q = new URLSearchParams();
  if (filters.channel) q.set("channel", filters.channel);
  if (filters.from) q.set("from", filters.from);
  if (filters.to) q.set("to", filters.to);
  if (filters.feedback) q.set("feedback", filters.feedback);
  if (filters.human) q.set("human", "1");
  const qs = q.toString();
  return qs ? `${path}?${qs}` : path;
}
