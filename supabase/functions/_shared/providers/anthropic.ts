// Anthropic Messages API streaming (message_start, content_block_delta, message_delta, message_stop).
// The SDK version pinned here no longer takes a temperature on messages.create, so none is sent.
import Anthropic from "npm:@anthropic-ai/sdk@1.10.0";
import { toProviderError, withRetries } from "./retry.ts";
import { ToolCallCollector } from "./tools.ts";
import type { ConversationTurn, GenerateEvent, GenerateInput, Provider, ProviderConfig, Turn } from "./types.ts";

/**
 * Turns in Anthropic's format: a step's tool calls are tool_use blocks of the assistant turn, and
 * their results tool_result blocks of the next user turn (consecutive results in one turn).
 */
export function anthropicMessages(turns: ConversationTurn[]) {
  const out: Array<{ role: "user" | "assistant"; content: unknown }> = [];
  for (const t of turns) {
    if (t.role === "tool") {
      const block = { type: "tool_result", tool_use_id: t.callId, content: t.content, ...(t.isError ? { is_error: true } : {}) };
      const last = out.at(-1);
      if (last?.role === "user" && Array.isArray(last.content)) last.content.push(block);
      else out.push({ role: "user", content: [block] });
    } else if (t.role === "assistant" && t.toolCalls?.length) {
      out.push({
        role: "assistant",
        content: [
          ...(t.content ? [{ type: "text", text: t.content }] : []),
          ...t.toolCalls.map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: c.arguments ?? {} })),
        ],
      });
    } else out.push(plainTurn(t));
  }
  return out;
}

function plainTurn(t: Turn) {
  return {
    role: t.role,
    content:
      t.role === "user" && t.images?.length
        ? [
            ...t.images.map((i) => ({
              type: "image" as const,
              source: { type: "base64" as const, media_type: i.mime, data: i.data },
            })),
            { type: "text" as const, text: t.content },
          ]
        : t.content,
  };
}

export function anthropicProvider(config: ProviderConfig): Provider {
  const client = new Anthropic({
    apiKey: config.apiKey || "missing",
    baseURL: config.baseUrl || undefined,
    timeout: config.timeoutMs ?? 60_000,
    maxRetries: 0,
    ...(config.fetch ? { fetch: config.fetch } : {}),
  });
  return {
    name: "anthropic",
    async *generate(input: GenerateInput): AsyncGenerator<GenerateEvent> {
      const stream = await withRetries(
        "anthropic",
        () =>
          client.messages.create(
            {
              model: input.model,
              max_tokens: 2048,
              system: input.system || undefined,
              messages: anthropicMessages(input.messages) as never,
              ...(input.tools?.length
                ? { tools: input.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters })) as never }
                : {}),
              stream: true,
            },
            { signal: input.signal },
          ),
        { maxRetries: config.maxRetries ?? 2, backoffMs: config.backoffMs ?? 500, signal: input.signal },
      );
      const usage = { prompt_tokens: 0, completion_tokens: 0 };
      const tools = new ToolCallCollector();
      try {
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- stream events read defensively, whatever the SDK version
        for await (const event of stream as AsyncIterable<Record<string, any>>) {
          if (event.type === "message_start") {
            usage.prompt_tokens = event.message?.usage?.input_tokens ?? 0;
            usage.completion_tokens = event.message?.usage?.output_tokens ?? 0;
          } else if (event.type === "content_block_start" && event.content_block?.type === "tool_use") {
            tools.add(event.index ?? 0, { id: event.content_block.id, name: event.content_block.name });
          } else if (event.type === "content_block_delta" && event.delta?.type === "input_json_delta") {
            tools.add(event.index ?? 0, { args: event.delta.partial_json ?? "" });
          } else if (event.type === "content_block_delta" && event.delta?.type === "text_delta" && event.delta.text) {
            yield { type: "token", text: event.delta.text };
          } else if (event.type === "message_delta" && event.usage) {
            usage.completion_tokens = event.usage.output_tokens ?? usage.completion_tokens;
          }
        }
      } catch (err) {
        throw toProviderError("anthropic", err, input.signal);
      }
      for (const call of tools.calls()) yield { type: "tool_call", call };
      yield { type: "done", usage };
    },
  };
}
