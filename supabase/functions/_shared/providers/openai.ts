// OpenAI chat.completions streaming, also used for any OpenAI-compatible server
// (Ollama, llama.cpp, vLLM) through baseURL.
import OpenAI from "npm:openai@7.57.0";
import { toProviderError, withRetries } from "./retry.ts";
import { ToolCallCollector } from "./tools.ts";
import type { ConversationTurn, GenerateEvent, GenerateInput, Provider, ProviderConfig, ToolSpec } from "./types.ts";

type Part = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };

/** Turns in OpenAI's chat format; images become image_url parts with data: URLs; tool calls and results as tool_calls / role "tool". */
export function openAiMessages(system: string, turns: ConversationTurn[]) {
  const out: Array<Record<string, unknown>> = [];
  if (system) out.push({ role: "system", content: system });
  for (const t of turns) {
    if (t.role === "tool") {
      out.push({ role: "tool", tool_call_id: t.callId, content: t.content });
    } else if (t.role === "assistant" && t.toolCalls?.length) {
      out.push({
        role: "assistant",
        content: t.content || null,
        tool_calls: t.toolCalls.map((c) => ({
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
          ...t.images.map((i): Part => ({ type: "image_url", image_url: { url: `data:${i.mime};base64,${i.data}` } })),
        ],
      });
    } else out.push({ role: t.role, content: t.content });
  }
  return out;
}

/** Tools in OpenAI's format (also Groq's and compatible servers'). */
export function openAiTools(tools: ToolSpec[] | undefined) {
  return tools?.length
    ? tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } }))
    : undefined;
}

interface OpenAiToolDelta {
  index?: number;
  id?: string | null;
  function?: { name?: string | null; arguments?: string | null };
}

interface OpenAiStyleChunk {
  choices?: Array<{ delta?: { content?: string | null; tool_calls?: OpenAiToolDelta[] | null } }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  x_groq?: { usage?: { prompt_tokens?: number; completion_tokens?: number } };
}

/** Reads an OpenAI-style chunk stream (OpenAI, Groq, compatible servers). */
export async function* readOpenAiStyle(
  name: string,
  stream: AsyncIterable<OpenAiStyleChunk>,
  signal?: AbortSignal,
): AsyncGenerator<GenerateEvent> {
  const usage = { prompt_tokens: 0, completion_tokens: 0 };
  const tools = new ToolCallCollector();
  try {
    for await (const chunk of stream) {
      const text = chunk.choices?.[0]?.delta?.content;
      if (text) yield { type: "token", text };
      for (const d of chunk.choices?.[0]?.delta?.tool_calls ?? []) {
        tools.add(d.index ?? 0, { id: d.id, name: d.function?.name, args: d.function?.arguments });
      }
      const u = chunk.usage ?? chunk.x_groq?.usage;
      if (u) {
        usage.prompt_tokens = u.prompt_tokens ?? usage.prompt_tokens;
        usage.completion_tokens = u.completion_tokens ?? usage.completion_tokens;
      }
    }
  } catch (err) {
    throw toProviderError(name, err, signal);
  }
  for (const call of tools.calls()) yield { type: "tool_call", call };
  yield { type: "done", usage };
}

export function openAiProvider(config: ProviderConfig, defaultBaseUrl?: string): Provider {
  const name = config.provider;
  const client = new OpenAI({
    // Local OpenAI-compatible servers usually take any key.
    apiKey: config.apiKey || "not-needed",
    baseURL: config.baseUrl || defaultBaseUrl,
    timeout: config.timeoutMs ?? 60_000,
    maxRetries: 0,
    ...(config.fetch ? { fetch: config.fetch } : {}),
  });
  return {
    name,
    async *generate(input: GenerateInput) {
      const stream = await withRetries(
        name,
        () =>
          client.chat.completions.create(
            {
              model: input.model,
              messages: openAiMessages(input.system, input.messages) as never,
              temperature: input.temperature,
              tools: openAiTools(input.tools) as never,
              stream: true,
              stream_options: { include_usage: true },
            },
            { signal: input.signal },
          ),
        { maxRetries: config.maxRetries ?? 2, backoffMs: config.backoffMs ?? 500, signal: input.signal },
      );
      yield* readOpenAiStyle(name, stream as AsyncIterable<OpenAiStyleChunk>, input.signal);
    },
  };
}
