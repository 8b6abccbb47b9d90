// Stage 6: stream. The same events framed three ways: Server-Sent Events (the web chat, the
// widget), one JSON answer (`Accept: application/json`, the API), or collected in memory
// (channels reply with the whole text; the test runner compares it).
import { type ChatEvents, sseFrame } from "../contracts/chat.ts";
import { corsHeaders } from "../cors.ts";
import { env } from "../env.ts";
import { json } from "../http.ts";
import type { Answer, CollectedAnswer } from "./types.ts";

export async function collectAnswer(answer: Answer): Promise<CollectedAnswer> {
  const out: CollectedAnswer = {
    chatId: answer.meta?.chat_id ?? null,
    messageId: answer.messageId,
    content: "",
    sources: [],
    usage: { prompt_tokens: 0, completion_tokens: 0 },
    latencyMs: null,
    firstTokenMs: null,
    error: null,
  };
  for await (const ev of answer.events) {
    if (ev.event === "token") out.content += ev.data.text;
    else if (ev.event === "sources") out.sources = ev.data;
    else if (ev.event === "done") {
      out.usage = ev.data.usage;
      out.latencyMs = ev.data.latency_ms;
      out.firstTokenMs = ev.data.first_token_ms;
    } else if (ev.event === "error") out.error = ev.data;
  }
  return out;
}

/** 200 with the whole answer, or 502 with the error when the model failed after the turn was stored. */
export async function jsonAnswer(answer: Answer): Promise<Response> {
  const whole = await collectAnswer(answer);
  const ids = answer.meta ?? { chat_id: null, message_id: answer.messageId, user_message_id: null };
  if (whole.error) return json(502, { error: whole.error, chat_id: ids.chat_id, message_id: ids.message_id });
  return json(200, {
    ...ids,
    message_id: answer.messageId,
    usage: whole.usage,
    latency_ms: whole.latencyMs,
    first_token_ms: whole.firstTokenMs,
    sources: whole.sources,
    content: whole.content,
  });
}

/**
 * Token frames that follow each other within this many ms leave in one write (issue 17): the
 * extractive answer sends a few words every 8 ms and a model a token every few ms, and each
 * write costs CPU in the function, the gateway and the reader (200 visitors at once:
 * bench/chat/load.mjs). The first token goes out at once, later ones at most this late (about
 * 30 frames a second, so the answer still visibly grows); every other event flushes them first.
 */
export const TOKEN_COALESCE_MS = 32;

/** text/event-stream: meta, token*, sources, done | error. `onCancel` runs when the reader leaves. */
export function sseAnswer(answer: Answer, onCancel: () => void): Response {
  const encoder = new TextEncoder();
  const iterator = answer.events[Symbol.asyncIterator]();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let open = true;
      let pending = "";
      let gathering: ReturnType<typeof setTimeout> | undefined;
      const write = (text: string) => {
        if (!open || !text) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          open = false;
        }
      };
      // The window's end: what gathered in it leaves, and a new window opens if anything did.
      const windowEnds = () => {
        gathering = undefined;
        if (!pending) return;
        write(pending);
        pending = "";
        gathering = setTimeout(windowEnds, TOKEN_COALESCE_MS);
      };
      const send = <K extends keyof ChatEvents>(event: K, data: ChatEvents[K]) => {
        if (!open) return;
        pending += sseFrame(event, data);
        if (event === "token") {
          // Leading edge: a token outside a window leaves now and opens one.
          if (gathering === undefined) windowEnds();
          return;
        }
        clearTimeout(gathering);
        gathering = undefined;
        write(pending);
        pending = "";
      };
      if (answer.meta) send("meta", answer.meta);
      // Read to the end even after the reader left, so the answer (or its failure) is stored.
      for (;;) {
        const { done, value } = await iterator.next();
        if (done) break;
        send(value.event, value.data as never);
      }
      clearTimeout(gathering);
      write(pending);
      // Benchmarks (bench/chat): the stages' timings as a closing SSE comment, which readers ignore.
      if (open && answer.timings && env.optional("PARLEY_CHAT_TIMINGS") === "1") {
        write(`: timings ${JSON.stringify(answer.timings)}\n\n`);
      }
      if (open) {
        open = false;
        controller.close();
      }
    },
    cancel() {
      onCancel();
    },
  });
  return new Response(stream, {
    headers: {
      ...corsHeaders,
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache, no-transform",
      "X-Accel-Buffering": "no",
    },
  });
}
