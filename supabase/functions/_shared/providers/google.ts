// Google Gemini: models.generateContentStream (streamGenerateContent?alt=sse).
import { GoogleGenAI } from "npm:@google/genai@3.1.0";
import { toProviderError, withRetries } from "./retry.ts";
import { parseToolArguments } from "./tools.ts";
import type { ConversationTurn, GenerateEvent, GenerateInput, Provider, ProviderConfig, ToolCall } from "./types.ts";

/** Turns as Gemini contents: tool calls are functionCall parts, their results functionResponse parts of a user turn. */
export function geminiContents(turns: ConversationTurn[]) {
  const out: Array<{ role: string; parts: Array<Record<string, unknown>> }> = [];
  for (const t of turns) {
    if (t.role === "tool") {
      const part = {
        functionResponse: { id: t.callId, name: t.name, response: t.isError ? { error: t.content } : { output: t.content } },
      };
      const last = out.at(-1);
      if (last?.role === "user" && last.parts.every((p) => "functionResponse" in p)) last.parts.push(part);
      else out.push({ role: "user", parts: [part] });
      continue;
    }
    out.push({
      role: t.role === "assistant" ? "model" : "user",
      parts: [
        ...(t.role === "user" ? (t.images ?? []).map((i) => ({ inlineData: { mimeType: i.mime, data: i.data } })) : []),
        ...(t.content || !t.toolCalls?.length ? [{ text: t.content }] : []),
        ...(t.toolCalls ?? []).map((c) => ({ functionCall: { id: c.id, name: c.name, args: c.arguments ?? {} } })),
      ],
    });
  }
  return out;
}

export function googleProvider(config: ProviderConfig): Provider {
  const client = new GoogleGenAI({
    apiKey: config.apiKey || "missing",
    httpOptions: {
      ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
      timeout: config.timeoutMs ?? 60_000,
      retryOptions: { attempts: 1 },
      // A team's base URL: every request checked, pinned, redirects refused (guard.ts).
      ...(config.fetch ? { fetch: config.fetch } : {}),
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
              ...(input.tools?.length
                ? {
                  tools: [{
                    functionDeclarations: input.tools.map((t) => ({
                      name: t.name,
                      description: t.description,
                      parametersJsonSchema: t.parameters,
                    })),
                  }],
                }
                : {}),
            },
          }),
        { maxRetries: config.maxRetries ?? 2, backoffMs: config.backoffMs ?? 500, signal: input.signal },
      );
      const usage = { prompt_tokens: 0, completion_tokens: 0 };
      const calls: ToolCall[] = [];
      try {
        for await (const chunk of stream) {
          // Gemini sends each function call whole, in one part.
          for (const p of chunk.candidates?.[0]?.content?.parts ?? []) {
            if (!p.functionCall?.name) continue;
            const raw = JSON.stringify(p.functionCall.args ?? {});
            calls.push({
              id: p.functionCall.id || `call_${calls.length}_${crypto.randomUUID().slice(0, 8)}`,
              name: p.functionCall.name,
              arguments: parseToolArguments(raw),
              rawArguments: raw,
            });
          }
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
      for (const call of calls) yield { type: "tool_call", call };
      yield { type: "done", usage };
    },
  };
}
