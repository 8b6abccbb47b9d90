// The engine's input and output, for its four callers: the web chat, channels, the test
// runner and tasks. See README.md.
import type { ChatChannel, ChatEvent, ChatEvents, ChatSource, ChatUsage, VisitorChannel } from "../contracts/chat.ts";
import type { Db } from "../clients.ts";
import type { Logger } from "../log.ts";

/** The web chat, the widget and the HTTP API as a signed-in (often anonymous) visitor: RLS decides. */
export interface VisitorConversation {
  kind: "visitor";
  /** The visitor's own client (createUserClient(req)): the chat and the turn are stored as them. */
  client: Db;
  userId: string;
  /** The caller's address (clientIp(req)), for the per-address limit. */
  ip: string;
  /** Continue this chat of the visitor's; without it a new chat is created with the turn. */
  chatId?: string;
  /** Default "web". */
  channel?: VisitorChannel;
}

/**
 * A channel (Slack, Discord, Telegram, WhatsApp, an API conversation) after its receiver verified
 * the platform's signature: the service side answers for the bot. The chat is the one of
 * (bot, channel, externalThreadId), created with the first message.
 */
export interface ChannelConversation {
  kind: "channel";
  channel: ChatChannel;
  /** The platform's conversation: a Slack `channel:thread_ts`, a Telegram chat id, a WhatsApp number... */
  externalThreadId: string;
  /** The platform's id of the person writing (rate-limited like a visitor). */
  externalUserId: string;
}

/**
 * The test runner and tasks: an answer that is not stored (no chat, no turn, not counted in the
 * monthly usage). The caller authorises (e.g. can_manage_bot) and limits its own runs.
 */
export interface EphemeralConversation {
  kind: "ephemeral";
  purpose: "test" | "task";
  /** Earlier turns to answer in the context of (oldest first). */
  history?: { role: "user" | "assistant"; content: string }[];
}

export type Conversation = VisitorConversation | ChannelConversation | EphemeralConversation;

export interface AnswerRequest {
  botId: string;
  /** Checked by `messageProblem` (1..4000 characters, no NUL, no unpaired surrogate). */
  message: string;
  /** Paths in the chat-images bucket (visitors only: their own folder). */
  images?: string[];
  conversation: Conversation;
  /** Aborts generation (the visitor left). */
  signal?: AbortSignal;
  log?: Logger;
  /** performance.now() when the request arrived (latency is measured from it). */
  startedAt?: number;
}

/** The events after `meta`: token*, sources, then done | error. */
export type AnswerEvent = Exclude<ChatEvent, { event: "meta" }>;

/** A turn that was accepted and stored (or, ephemeral, accepted): its answer is still to come. */
export interface Answer {
  /** The ids for the `meta` event; null for an ephemeral answer. */
  meta: ChatEvents["meta"] | null;
  /** The answer's id (the assistant message, when stored). */
  messageId: string;
  /** Runs retrieve → provider → generate → store, once. */
  events: AsyncIterable<AnswerEvent>;
  /**
   * ms from the request's start to the end of each stage (limits_and_bot, open, retrieve,
   * power_ups, provider, model_call, first_token, stored), filled while `events` is read;
   * sent to the client only with PARLEY_CHAT_TIMINGS=1 (benchmarks: stream.ts).
   */
  timings?: Record<string, number>;
}

/** An answer collected whole (channels reply with it, the test runner compares it). */
export interface CollectedAnswer {
  chatId: string | null;
  messageId: string;
  content: string;
  sources: ChatSource[];
  usage: ChatUsage;
  latencyMs: number | null;
  firstTokenMs: number | null;
  /** Set when the model failed (the content is then empty or partial). */
  error: ChatEvents["error"] | null;
}
