// Mistral chat streaming (OpenAI-style SSE at /v1/chat/completions) through Mistral's SDK.
import { HTTPClient, Mistral } from "npm:@mistralai/mistralai@2.6.2";
import { toProviderError, withRetries } from "./retry.ts";
import { ToolCallCollector } from "./tools.ts";
import type { ConversationTurn, GenerateEvent, GenerateInput, Provider, ProviderConfig } from "./types.ts";

/** Turns in the SDK's (camelCase) shape; it sends them as Mistral's tool_calls / role "tool". */
export function mistralMessages(system: string, turns: ConversationTurn[]) {
  const out: Array<Record<string, unknown>> = [];
  if (system) out.push({ role: "system", content: system });
  for (const t of turns) {
    if (t.role === "tool") {
      out.push({ role: "tool", toolCallId: t.callId, name: t.name, content: t.content });
    } else if (t.role === "assistant" && t.toolCalls?.length) {
      out.push({
        role: "assistant",
        content: t.content || "",
        toolCalls: t.toolCalls.map((c) => ({
          id: c.id,
          type: "function",
          function: { name: c.name, arguments: c.rawArguments || JSON.stringify(c.arguments ?? {}) },
        })),
      });
    } else if (t.role === "user" && t.images?.length) {
      out.push({
        role: "user",
        content: [
          { type: "text", text: t.content },
          ...t.images.map((i) => ({ type: "image_url", imageUrl: `data:${i.mime};base64,${i.data}` })),
        ],
      });
    } else out.push({ role: t.role, content: t.content });
  }
  return out;
}

export function mistralProvider(config: ProviderConfig): Provider {
  const client = new Mistral({
    apiKey: config.apiKey || "missing",
    ...(config.baseUrl ? { serverURL: config.baseUrl } : {}),
    timeoutMs: config.timeoutMs ?? 60_000,
    retryConfig: { strategy: "none" },
    // A team's base URL: every request checked, pinned, redirects refused (guard.ts).
    ...(config.fetch ? { httpClient: new HTTPClient({ fetcher: config.fetch }) } : {}),
  });
  return {
    name: "mistral",
    async *generate(input: GenerateInput): AsyncGenerator<GenerateEvent> {
      const stream = await withRetries(
        "mistral",
        () =>
          client.chat.stream(
            {
              model: input.model,
              messages: mistralMessages(input.system, input.messages) as never,
              temperature: input.temperature,
              ...(input.tools?.length
                ? {
                  tools: input.tools.map((t) => ({
                    type: "function" as const,
                    function: { name: t.name, description: t.description, parameters: t.parameters },
                  })),
                }
                : {}),
            },
            { fetchOptions: { signal: input.signal } },
          ),
        { maxRetries: config.maxRetries ?? 2, backoffMs: config.backoffMs ?? 500, signal: input.signal },
      );
      const usage = { prompt_tokens: 0, completion_tokens: 0 };
      const tools = new ToolCallCollector();
      try {
        for await (const event of stream) {
          for (const [i, c] of (event.data.choices?.[0]?.delta?.toolCalls ?? []).entries()) {
            const args = c.function?.arguments;
            tools.add(c.index ?? i, {
              id: c.id,
              name: c.function?.name,
              args: typeof args === "string" ? args : args ? JSON.stringify(args) : "",
            });
          }
          const content = event.data.choices?.[0]?.delta?.content;
          const text =
            typeof content === "string"
              ? content
              : Array.isArray(content)
                ? content.map((c) => ("text" in c && typeof c.text === "string" ? c.text : "")).join("")
                : "";
          if (text) yield { type: "token", text };
          if (event.data.usage) {
            usage.prompt_tokens = event.data.usage.promptTokens ?? usage.prompt_tokens;
            usage.completion_tokens = event.data.usage.completionTokens ?? usage.completion_tokens;
          }
        }
      } catch (err) {
        throw toProviderError("mistral", err, input.signal);
      }
      for (const call of tools.calls()) yield { type: "tool_call", call };
      yield { type: "done", usage };
    },
  };
}
