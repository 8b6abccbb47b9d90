// The chat function's answer as typed events (the contract in
// supabase/functions/_shared/contracts/chat.ts): each raw SSE event is checked before use, so a
// malformed or unknown one is dropped instead of breaking the chat.
import type { ChatEvent, ChatRequest } from "@shared/contracts/chat.ts";
import { isErrorCode } from "@shared/contracts/errors.ts";
import { streamFunction } from "../../lib/functions";
import { isJsonObject, jsonString } from "../../lib/json";
import type { Json } from "../../lib/database";
import type { SseEvent } from "../../lib/sse";
import { readAction, readSources, type ChatAction } from "./types";

export type { ChatEvent };

function parse(data: string): Json | undefined {
  try {
    const value: Json = JSON.parse(data);
    return value;
  } catch {
    return undefined;
  }
}

/** A power-up's event: the stored action's payload without its type (contracts/chat.ts ChatAction). */
function actionEvent(a: ChatAction): ChatEvent {
  switch (a.type) {
    case "tool":
      return { event: "tool", data: { name: a.name, label: a.label, ok: a.ok, ...(a.message ? { message: a.message } : {}) } };
    case "lead_form":
      return { event: "lead_form", data: { power_up_id: a.power_up_id, label: a.label, intro: a.intro, fields: a.fields, required: a.required } };
    case "link":
      return { event: "link", data: { power_up_id: a.power_up_id, label: a.label, url: a.url } };
    case "handoff":
      return { event: "handoff", data: { text: a.text } };
  }
}

/** A raw SSE event as a chat event, or null when it is not one. */
export function toChatEvent(e: SseEvent): ChatEvent | null {
  const data = parse(e.data);
  if (data === undefined) return e.event === "error" ? { event: "error", data: { code: "internal_error", message: e.data } } : null;
  if (e.event === "sources") return Array.isArray(data) ? { event: "sources", data: readSources(data) } : null;
  if (!isJsonObject(data)) return null;
  const num = (v: Json | undefined) => (typeof v === "number" ? v : null);
  switch (e.event) {
    case "meta": {
      const chat_id = jsonString(data.chat_id);
      return chat_id ? { event: "meta", data: { chat_id, message_id: jsonString(data.message_id) ?? "", user_message_id: jsonString(data.user_message_id) ?? "" } } : null;
    }
    case "token": {
      const text = jsonString(data.text);
      return text === undefined ? null : { event: "token", data: { text } };
    }
    case "done": {
      const usage = isJsonObject(data.usage) ? data.usage : {};
      return {
        event: "done",
        data: {
          message_id: jsonString(data.message_id) ?? "",
          usage: { prompt_tokens: num(usage.prompt_tokens) ?? 0, completion_tokens: num(usage.completion_tokens) ?? 0 },
          latency_ms: num(data.latency_ms) ?? 0,
          first_token_ms: num(data.first_token_ms),
          ...(data.quiet === true ? { quiet: true } : {}),
        },
      };
    }
    case "tool":
    case "lead_form":
    case "link":
    case "handoff": {
      const action = readAction(e.event, data);
      return action ? actionEvent(action) : null;
    }
    case "error":
      return { event: "error", data: { code: isErrorCode(data.code) ? data.code : "internal_error", message: jsonString(data.message) ?? "" } };
    default:
      return null;
  }
}

/** Reads SSE events as chat events. */
export async function* readChatEvents(events: AsyncIterable<SseEvent>): AsyncGenerator<ChatEvent> {
  for await (const raw of events) {
    const ev = toChatEvent(raw);
    if (ev) yield ev;
  }
}

/** Sends a message; yields the answer's events as they stream in. */
export function sendChatMessage(request: ChatRequest, signal?: AbortSignal): AsyncGenerator<ChatEvent> {
  return readChatEvents(streamFunction("chat", request, { signal }));
}
