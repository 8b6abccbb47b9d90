// Stage 4: generate. The chosen provider streams the answer to the bot's prompt (instructions,
// rules, the numbered passages) and the conversation; the extractive default answers with the
// passages themselves.
import type { ChatSource } from "../contracts/chat.ts";
import type { Passage } from "../providers/extractive.ts";
import { checkedBaseUrl, guardedFetch } from "../providers/guard.ts";
import { createProvider, type GenerateEvent, type ImagePart, type Turn } from "../providers/index.ts";
import { limitFromEnv } from "../rate-limit.ts";
import type { EngineBot } from "./bot.ts";
import { generateExtractive } from "./extractive.ts";
import { systemPrompt, toSource } from "./prompt.ts";
import type { ProviderChoice } from "./provider.ts";
import { engineLoopLimits, type LoopEvent, toolLoop } from "../powerUps/loop.ts";
import type { PowerUpSession } from "../powerUps/session.ts";

export interface Generation {
  /** Tokens, the model's tool calls and their results (power-ups), then done. */
  events: AsyncIterable<GenerateEvent | LoopEvent>;
  /** The passages the answer may cite, as sources. */
  sources: ChatSource[];
  provider: string;
  model: string | null;
}

export function generate(input: {
  bot: EngineBot;
  choice: ProviderChoice;
  passages: Passage[];
  history: { role: "user" | "assistant"; content: string }[];
  message: string;
  images: ImagePart[];
  signal: AbortSignal;
  /** The bot's power-ups: offered to the model as tools (the tool loop); without a model, the contact offer. */
  powerUps?: PowerUpSession;
}): Generation {
  const { bot, choice, passages, message } = input;
  if (choice.kind === "extractive") {
    return {
      ...generateExtractive({ bot, passages, message, imageCount: input.images.length, powerUps: input.powerUps }),
      provider: "extractive",
      model: null,
    };
  }
  const turns: Turn[] = [...input.history, { role: "user", content: message, images: input.images }];
  const run = () => {
    const provider = createProvider({
      provider: choice.provider,
      apiKey: choice.apiKey ?? undefined,
      baseUrl: choice.teamBaseUrl,
      fetch: choice.teamBaseUrl ? guardedFetch : undefined,
      timeoutMs: limitFromEnv("PARLEY_PROVIDER_TIMEOUT_MS", 60_000),
      backoffMs: limitFromEnv("PARLEY_PROVIDER_BACKOFF_MS", 500),
    });
    const request = {
      system: systemPrompt(bot.instructions, bot.language, passages),
      messages: turns,
      temperature: Number(bot.temperature),
      model: choice.model,
      signal: input.signal,
    };
    const session = input.powerUps;
    if (!session?.powerUps.length) return provider.generate(request);
    return toolLoop(provider, { ...request, tools: session.tools() }, {
      ...engineLoopLimits(),
      execute: (call, signal) => session.execute(call, signal),
    });
  };
  return {
    events: choice.teamBaseUrl ? checkedBaseUrl(choice.teamBaseUrl, choice.provider, run) : run(),
    sources: passages.map(toSource),
    provider: choice.provider,
    model: choice.model,
  };
}
