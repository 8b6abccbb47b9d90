// Tool calling pieces every adapter shares: parsing a model's argument text, and collecting
// streamed tool-call fragments (OpenAI-style deltas by index, Anthropic's input_json_delta).
import type { ToolCall } from "./types.ts";

/** The arguments as an object, or null when the text is not a JSON object. */
export function parseToolArguments(text: string): Record<string, unknown> | null {
  if (!text.trim()) return {};
  try {
    const v = JSON.parse(text);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Collects tool-call fragments keyed by their stream index until the step ends. */
export class ToolCallCollector {
  #calls = new Map<number, { id: string; name: string; args: string }>();

  add(index: number, part: { id?: string | null; name?: string | null; args?: string | null }) {
    const c = this.#calls.get(index) ?? { id: "", name: "", args: "" };
    if (part.id) c.id = part.id;
    if (part.name && !c.name) c.name = part.name;
    if (part.args) c.args += part.args;
    this.#calls.set(index, c);
  }

  /** The finished calls in stream order (ids made up where the vendor sends none). */
  calls(): ToolCall[] {
    return [...this.#calls.entries()]
      .sort(([a], [b]) => a - b)
      .filter(([, c]) => c.name)
      .map(([i, c]) => ({
        id: c.id || `call_${i}_${crypto.randomUUID().slice(0, 8)}`,
        name: c.name,
        arguments: parseToolArguments(c.args),
        rawArguments: c.args,
      }));
  }
}
