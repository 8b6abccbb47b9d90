// sseAnswer's framing (no stack needed): every event in order, token frames that follow each
// other closely in one write, the first token at once (issue 17).
import assert from "node:assert/strict";
import { parseSseFrames } from "../contracts/chat.ts";
import { sseAnswer, TOKEN_COALESCE_MS } from "./stream.ts";
import type { AnswerEvent } from "./types.ts";

const meta = { chat_id: "c", message_id: "m", user_message_id: "u" };
const done: AnswerEvent = {
  event: "done",
  data: { message_id: "m", usage: { prompt_tokens: 0, completion_tokens: 3 }, latency_ms: 1, first_token_ms: 1 },
};

/** The response body's writes, as the reader receives them. */
async function writes(events: AsyncIterable<AnswerEvent>): Promise<string[]> {
  const res = sseAnswer({ meta, messageId: "m", events }, () => {});
  const reader = res.body!.getReader();
  const out: string[] = [];
  const dec = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(dec.decode(value));
  }
}

Deno.test("sseAnswer: tokens that come at once leave in one write after the first, every event in order", async () => {
  const tokens = ["One ", "two ", "three ", "four."];
  const chunks = await writes((async function* () {
    for (const text of tokens) yield { event: "token", data: { text } } as AnswerEvent;
    yield { event: "sources", data: [] };
    yield done;
  })());
  assert.deepEqual(
    chunks.map((c) => parseSseFrames(c).events.map((e) => e.event).join(",")),
    ["meta", "token", "token,token,token,sources", "done"],
    "meta, the first token at once, the others with the next event (sources), done",
  );
  assert.deepEqual(parseSseFrames(chunks[1]!).events.map((e) => e.data), [{ text: "One " }]);
  const all = parseSseFrames(chunks.join(""));
  assert.equal(all.rest, "");
  assert.deepEqual(all.events.map((e) => e.event), ["meta", "token", "token", "token", "token", "sources", "done"]);
  assert.equal(all.events.filter((e) => e.event === "token").map((e) => (e.data as { text: string }).text).join(""), "One two three four.");
});

Deno.test("sseAnswer: tokens further apart than the window each leave on their own", async () => {
  const chunks = await writes((async function* () {
    for (const text of ["slow ", "and ", "steady"]) {
      yield { event: "token", data: { text } } as AnswerEvent;
      await new Promise((r) => setTimeout(r, TOKEN_COALESCE_MS * 3));
    }
    yield done;
  })());
  assert.deepEqual(
    chunks.map((c) => parseSseFrames(c).events.map((e) => e.event).join(",")),
    ["meta", "token", "token", "token", "done"],
  );
});
