// Google Gemini: models.generateContentStream (streamGenerateContent?alt=sse).
import { GoogleGenAI } from "npm:@google/genai@3.1.0";
import { toProviderError, withRetries } from "./retry.ts";
import type { GenerateEvent, GenerateInput, Provider, ProviderConfig, Turn } from "./types.ts";

export function geminiContents(turns: Turn[]) {
  return turns.map((t) => ({
    role: t.role === "assistant" ? "model" : "user",
    parts: [
      ...(t.role === "user" ? (t.images ?? []).map((i) => ({ inlineData: { mimeType: i.mime, data: i.data } })) : []),
      { text: t.content },
    ],
  }));
}

export function googleProvider(config: ProviderConfig): Provider {
  const client = new GoogleGenAI({
    apiKey: config.apiKey || "missing",
    httpOptions: {
      ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
      timeout: config.timeoutMs ?? 60_000,
      retryOptions: { attempts: 1 },
    },
  });
  return {
    name: "google",
    async *generate(input: GenerateInput): AsyncGenerator<GenerateEvent> {
      const stream = await withRetries(
        "google",
        () =>
          client.models.generateContentStream({
            model: input.model,
            contents: geminiContents(input.messages),
            config: {
              systemInstruction: input.system || undefined,
              temperature: input.temperature,
              abortSignal: input.signal,
            },
          }),
        { maxRetries: config.maxRetries ?? 2, backoffMs: config.backoffMs ?? 500, signal: input.signal },
      );
      const usage = { prompt_tokens: 0, completion_tokens: 0 };
      try {
        for await (const chunk of stream) {
          const text = chunk.candidates?.[0]?.content?.parts?.map((p) => p.text ?? "").join("") ?? "";
          if (text) yield { type: "token", text };
          if (chunk.usageMetadata) {
            usage.prompt_tokens = chunk.usageMetadata.promptTokenCount ?? usage.prompt_tokens;
            usage.completion_tokens = chunk.usageMetadata.candidatesTokenCount ?? usage.completion_tokens;
          }
        }
      } catch (err) {
        throw toProviderError("google", err, input.signal);
      }
      yield { type: "done", usage };
    },
  };
}
