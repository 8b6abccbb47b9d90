// Stage 4 without a model: the extractive default (providers/extractive.ts) answers with the
// sentences of the retrieved passages that answer the question, or says it does not know and
// offers the bot's suggested questions and its contact form (the power-up session's
// offerContact). Images need a vision model: it says so first.
import type { ChatSource } from "../contracts/chat.ts";
import { env } from "../env.ts";
import { extractiveReply, imagesNeedVision, type Passage, streamText } from "../providers/extractive.ts";
import type { GenerateEvent } from "../providers/index.ts";
import type { LoopEvent } from "../powerUps/loop.ts";
import type { PowerUpSession } from "../powerUps/session.ts";
import type { EngineBot } from "./bot.ts";
import { toSource } from "./prompt.ts";

/**
 * Milliseconds between the extractive answer's token events (default 8, at most 500):
 * PARLEY_EXTRACTIVE_PACE_MS. A slower pace makes the typing visible on any connection.
 */
export function extractivePaceMs(): number {
  const n = Number(env.optional("PARLEY_EXTRACTIVE_PACE_MS") ?? 8);
  return Number.isFinite(n) ? Math.min(500, Math.max(0, Math.round(n))) : 8;
}

export function generateExtractive(input: {
  bot: EngineBot;
  passages: Passage[];
  message: string;
  imageCount: number;
  /** The bot's power-ups: the contact form is offered when the answer is not known. */
  powerUps?: PowerUpSession;
}): { events: AsyncIterable<GenerateEvent | LoopEvent>; sources: ChatSource[] } {
  const { bot, passages, message } = input;
  // Filled while the events are read; the engine reads the sources after the last token.
  const sources: ChatSource[] = [];
  async function* events(): AsyncGenerator<GenerateEvent | LoopEvent> {
    let reply = extractiveReply(message, passages, bot.language);
    if (reply.kind === "unknown") {
      // The bot's suggested questions came with its settings (limits.ts, bot.ts).
      const contact = await (input.powerUps?.offerContact() ?? null);
      reply = extractiveReply(message, passages, bot.language, { suggestedQuestions: bot.suggested_questions ?? [] });
      // The tool result makes the engine send the visitor the form now.
      if (contact) yield { type: "tool_result", call: contact.call, outcome: contact.outcome };
    }
    sources.push(...reply.sources.map(toSource));
    const text = input.imageCount ? `${imagesNeedVision(bot.language)}\n\n${reply.text}` : reply.text;
    yield* streamText(text, extractivePaceMs());
  }
  return { events: events(), sources };
}
