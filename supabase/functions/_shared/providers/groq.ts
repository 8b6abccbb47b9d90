// Groq: OpenAI-style streaming through Groq's own SDK (usage arrives in x_groq).
import Groq from "npm:groq-sdk@1.6.0";
import { openAiMessages, openAiTools, readOpenAiStyle } from "./openai.ts";
import { withRetries } from "./retry.ts";
import type { GenerateInput, Provider, ProviderConfig } from "./types.ts";

export function groqProvider(config: ProviderConfig): Provider {
  const client = new Groq({
    apiKey: config.apiKey || "missing",
    baseURL: config.baseUrl || undefined,
    timeout: config.timeoutMs ?? 60_000,
    maxRetries: 0,
    ...(config.fetch ? { fetch: config.fetch } : {}),
  });
  return {
    name: "groq",
    async *generate(input: GenerateInput) {
      const stream = await withRetries(
        "groq",
        () =>
          client.chat.completions.create(
            {
              model: input.model,
              messages: openAiMessages(input.system, input.messages) as never,
              temperature: input.temperature,
              tools: openAiTools(input.tools) as never,
              stream: true,
            },
            { signal: input.signal },
          ),
        { maxRetries: config.maxRetries ?? 2, backoffMs: config.backoffMs ?? 500, signal: input.signal },
      );
      yield* readOpenAiStyle("groq", stream as never, input.signal);
    },
  };
}
