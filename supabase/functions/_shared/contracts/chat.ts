// POST /functions/v1/chat: the request body and the Server-Sent Events of the answer.
// With `Accept: application/json` the same answer comes whole (ChatJsonAnswer, or
// ChatJsonFailure with status 502 when the model failed after the turn was stored).
import type { ErrorCode } from "./errors.ts";

export const MAX_MESSAGE_CHARS = 4000;
export const MAX_IMAGES = 4;
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

/** Where a chat happens (chats.channel). */
export const CHAT_CHANNELS = ["web", "widget", "api", "slack", "discord", "telegram", "whatsapp"] as const;
export type ChatChannel = (typeof CHAT_CHANNELS)[number];
/** The channels a visitor's own session chats on (the others are answered by their receivers). */
export const VISITOR_CHANNELS = ["web", "widget", "api"] as const satisfies readonly ChatChannel[];
export type VisitorChannel = (typeof VISITOR_CHANNELS)[number];

export interface ChatImageRef {
  /** A path in the `chat-images` bucket inside the caller's own folder (`<uid>/...`). */
  path: string;
}

export interface ChatRequest {
  bot_id: string;
  /** Continue one of the caller's chats with this bot; without it a new chat is created with this first turn. */
  chat_id?: string;
  /** 1..4000 characters after trimming; no NUL characters or unpaired surrogates. */
  message: string;
  images?: ChatImageRef[];
  /** Default "web". */
  channel?: VisitorChannel;
}

/** A passage the answer drew on (messages.sources). */
export interface ChatSource {
  chunk_id: string;
  document_id: string;
  title: string;
  url: string | null;
  excerpt: string;
}

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

/** Contact fields a lead form may ask for (power-ups of type lead). */
export const LEAD_FORM_FIELDS = ["name", "email", "phone", "company", "message"] as const;
export type LeadFormField = (typeof LEAD_FORM_FIELDS)[number];

/**
 * What a power-up showed the visitor besides the text (the `tool`, `lead_form`, `link` and
 * `handoff` events), stored in messages.actions so the chat shows them again when reloaded.
 */
export type ChatAction =
  | ({ type: "tool" } & ChatToolLine)
  | ({ type: "lead_form" } & ChatLeadForm)
  | ({ type: "link" } & ChatLink)
  | ({ type: "handoff" } & ChatHandoff);

/** A short line for the visitor about a power-up call ("Looked up your order"); the owner's view has the full call. */
export interface ChatToolLine {
  name: string;
  label: string;
  ok: boolean;
  /** When it failed: a plain sentence for the visitor. */
  message?: string;
}

/** A form the visitor fills in; sent with `rpc("submit_lead", { chat_id, power_up_id, fields })`. */
export interface ChatLeadForm {
  power_up_id: string;
  label: string;
  intro: string | null;
  fields: LeadFormField[];
  required: LeadFormField[];
}

/** A button that opens a link (a booking page). */
export interface ChatLink {
  power_up_id: string;
  label: string;
  url: string;
}

/** The chat is with a person of the team now: the bot stays quiet until they hand it back. */
export interface ChatHandoff {
  text: string;
}

/** The payload of each event, by event name, in the order they arrive: meta, token*, sources, done | error. */
export interface ChatEvents {
  /** First: the ids of the chat, of the stored user turn and of the answer to come. */
  meta: { chat_id: string; message_id: string; user_message_id: string };
  /** A piece of the answer's text. */
  token: { text: string };
  /** A power-up was called (between tokens; the answer goes on after it). */
  tool: ChatToolLine;
  /** The bot offers a contact form. */
  lead_form: ChatLeadForm;
  /** The bot offers a link button. */
  link: ChatLink;
  /** The chat was handed to a person (or is still with one: then no answer follows, `done.quiet`). */
  handoff: ChatHandoff;
  /** The passages the answer cites as [n] (before `done`; absent after a failure). */
  sources: ChatSource[];
  /** Last on success: the stored answer. */
  done: {
    message_id: string;
    usage: ChatUsage;
    latency_ms: number;
    first_token_ms: number | null;
    /** The chat is with a person: the bot did not answer and stored no turn. */
    quiet?: boolean;
  };
  /** Last on failure: a code and a sentence fit for the visitor. */
  error: { code: ErrorCode; message: string };
}

export type ChatEventName = keyof ChatEvents;
export const CHAT_EVENT_NAMES = [
  "meta",
  "token",
  "tool",
  "lead_form",
  "link",
  "handoff",
  "sources",
  "done",
  "error",
] as const satisfies readonly ChatEventName[];

/** One event as a discriminated union: `{ event: "token", data: { text } }`. */
export type ChatEvent = { [K in ChatEventName]: { event: K; data: ChatEvents[K] } }[ChatEventName];

/** One SSE frame: `event: <name>\ndata: <json>\n\n`. */
export function sseFrame<K extends ChatEventName>(event: K, data: ChatEvents[K]): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * Splits a buffer of SSE text into the complete chat events it holds and the unfinished rest.
 * Frames with an unknown event name or data that is not JSON are skipped.
 */
export function parseSseFrames(buffer: string): { events: ChatEvent[]; rest: string } {
  const events: ChatEvent[] = [];
  const normalized = buffer.replace(/\r\n?/g, "\n");
  const frames = normalized.split("\n\n");
  const rest = frames.pop() ?? "";
  for (const frame of frames) {
    let name = "message";
    const data: string[] = [];
    for (const line of frame.split("\n")) {
      if (line.startsWith("event:")) name = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    if (!(CHAT_EVENT_NAMES as readonly string[]).includes(name) || !data.length) continue;
    try {
      events.push({ event: name, data: JSON.parse(data.join("\n")) } as ChatEvent);
    } catch {
      // not JSON: not one of ours
    }
  }
  return { events, rest };
}

/** 200 with `Accept: application/json`. */
export type ChatJsonAnswer = ChatEvents["meta"] &
  ChatEvents["done"] & {
    content: string;
    sources: ChatSource[];
  };

/** 502 with `Accept: application/json`: the turn is stored, the model failed. */
export interface ChatJsonFailure {
  error: ChatEvents["error"];
  chat_id: string;
  message_id: string;
}
