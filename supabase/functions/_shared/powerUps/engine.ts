// The power-ups' side of the answering engine (engine/index.ts calls these): the quiet answer of a
// chat that is with a person, and the extractive default's answer when a power-up matched.
import type { ChatEvents } from "../contracts/chat.ts";
import type { GenerateEvent } from "../providers/types.ts";
import type { PowerUpSession } from "./session.ts";

export { powerUpSession } from "./session.ts";

/** The chat is with a person: no answer, nothing stored. */
export function quietDone(messageId: string, started: number): { event: "done"; data: ChatEvents["done"] } {
  return {
    event: "done",
    data: {
      message_id: messageId,
      usage: { prompt_tokens: 0, completion_tokens: 0 },
      latency_ms: Math.round(performance.now() - started),
      first_token_ms: null,
      quiet: true,
    },
  };
}

async function* say(text: string): AsyncGenerator<GenerateEvent> {
  for (const piece of text.match(/\S+\s*/g) ?? []) yield { type: "token", text: piece };
  yield { type: "done", usage: { prompt_tokens: 0, completion_tokens: 0 } };
}

/**
 * Without a model: a matched handoff answers with its sentence, a matched parameterless http
 * action with its result; a lead form or link is shown next to the usual extractive answer
 * (null here: the engine generates that answer).
 */
export async function answerWithoutModel(session: PowerUpSession, message: string) {
  if (!session.powerUps.length) return null;
  const offer = await session.offerWithoutModel(message);
  const text = offer.handoffText ?? offer.output;
  if (!text) return null;
  return { generation: { events: say(text), sources: [], provider: "extractive", model: null } };
}
