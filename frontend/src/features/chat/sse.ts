// Server-Sent Events for the chat function. EventSource cannot POST or send an
// Authorization header, so the stream is read from fetch() and parsed here; network
// chunks split events (and even UTF-8 characters) anywhere, so the parser buffers.
export interface SseEvent {
  event: string;
  data: string;
}

export class SseParser {
  private buffer = "";
  private event = "";
  private data: string[] = [];

  /** Feeds a piece of text; returns the events it completed. */
  push(text: string): SseEvent[] {
    this.buffer += text;
    const out: SseEvent[] = [];
    let nl: number;
    while ((nl = this.buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = this.buffer.slice(0, nl);
      const sepLen = this.buffer.startsWith("\r\n", nl) ? 2 : 1;
      // A lone \r at the very end may be the first half of \r\n: wait for more.
      if (this.buffer[nl] === "\r" && nl + 1 === this.buffer.length) break;
      this.buffer = this.buffer.slice(nl + sepLen);
      this.line(line, out);
    }
    return out;
  }

  /** The stream ended: an event without its blank line still counts. */
  end(): SseEvent[] {
    const out: SseEvent[] = [];
    if (this.buffer) this.line(this.buffer, out);
    this.buffer = "";
    this.line("", out);
    return out;
  }

  private line(line: string, out: SseEvent[]) {
    if (line === "") {
      if (this.data.length) out.push({ event: this.event || "message", data: this.data.join("\n") });
      this.event = "";
      this.data = [];
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.event = value;
    else if (field === "data") this.data.push(value);
  }
}

export interface ChatSource {
  chunk_id?: string;
  document_id?: string;
  title?: string | null;
  url?: string | null;
  excerpt?: string | null;
}

export type ChatStreamEvent =
  | { type: "meta"; chat_id: string; message_id: string; user_message_id?: string }
  | { type: "token"; text: string }
  | { type: "sources"; sources: ChatSource[] }
  | { type: "done"; message_id: string; latency_ms?: number }
  | { type: "error"; code: string; message: string };

/** Turns a raw SSE event into a typed chat event; unknown or malformed events are dropped. */
export function toChatEvent(e: SseEvent): ChatStreamEvent | null {
  let data: unknown;
  try {
    data = JSON.parse(e.data);
  } catch {
    return e.event === "error" ? { type: "error", code: "bad_event", message: e.data } : null;
  }
  const o = (data ?? {}) as Record<string, unknown>;
  switch (e.event) {
    case "meta":
      return typeof o.chat_id === "string" ? { type: "meta", chat_id: o.chat_id, message_id: String(o.message_id ?? ""), user_message_id: o.user_message_id as string | undefined } : null;
    case "token":
      return typeof o.text === "string" ? { type: "token", text: o.text } : null;
    case "sources":
      return Array.isArray(data) ? { type: "sources", sources: data as ChatSource[] } : null;
    case "done":
      return { type: "done", message_id: String(o.message_id ?? ""), latency_ms: typeof o.latency_ms === "number" ? o.latency_ms : undefined };
    case "error":
      return { type: "error", code: String(o.code ?? "error"), message: String(o.message ?? "") };
    default:
      return null;
  }
}

/** Reads a fetch body as chat events. */
export async function* readChatStream(body: ReadableStream<Uint8Array>): AsyncGenerator<ChatStreamEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      const events = done ? parser.push(decoder.decode()).concat(parser.end()) : parser.push(decoder.decode(value, { stream: true }));
      for (const raw of events) {
        const ev = toChatEvent(raw);
        if (ev) yield ev;
      }
      if (done) return;
    }
  } finally {
    reader.releaseLock();
  }
}
