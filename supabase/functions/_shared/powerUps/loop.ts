// The tool loop: the model answers; when it calls tools, each call runs and its result goes back
// as the next step's input; at most `maxSteps` model steps and `budgetMs` in all. Past either,
// the model gets one last step without tools, so the visitor always gets an answer.
import type { ConversationTurn, GenerateEvent, GenerateInput, Provider, ToolCall, Usage } from "../providers/types.ts";

export interface ToolOutcome {
  /** What the model reads. */
  output: string;
  isError: boolean;
}

export type LoopEvent = GenerateEvent | { type: "tool_result"; call: ToolCall; outcome: ToolOutcome };

export interface LoopOptions {
  maxSteps: number;
  budgetMs: number;
  execute: (call: ToolCall, signal: AbortSignal) => Promise<ToolOutcome>;
}

export async function* toolLoop(provider: Provider, input: GenerateInput, options: LoopOptions): AsyncGenerator<LoopEvent> {
  const started = performance.now();
  const messages: ConversationTurn[] = [...input.messages];
  const usage: Usage = { prompt_tokens: 0, completion_tokens: 0 };
  for (let step = 1; ; step++) {
    const last = step >= options.maxSteps || performance.now() - started >= options.budgetMs;
    const tools = last ? undefined : input.tools;
    let text = "";
    const calls: ToolCall[] = [];
    for await (const ev of provider.generate({ ...input, messages, tools })) {
      if (ev.type === "token") {
        text += ev.text;
        yield ev;
      } else if (ev.type === "tool_call") calls.push(ev.call);
      else {
        usage.prompt_tokens += ev.usage.prompt_tokens;
        usage.completion_tokens += ev.usage.completion_tokens;
      }
    }
    if (!calls.length || !tools) break;
    messages.push({ role: "assistant", content: text, toolCalls: calls });
    for (const call of calls) {
      const left = Math.max(0, options.budgetMs - (performance.now() - started));
      const known = tools.some((t) => t.name === call.name);
      const outcome: ToolOutcome = !known
        ? { output: `Error: there is no tool named "${call.name}".`, isError: true }
        : left <= 0
        ? { output: "Error: no time left for this tool.", isError: true }
        : await options.execute(call, AbortSignal.any([AbortSignal.timeout(left), ...(input.signal ? [input.signal] : [])]));
      yield { type: "tool_result", call, outcome };
      messages.push({ role: "tool", callId: call.id, name: call.name, content: outcome.output, isError: outcome.isError });
    }
  }
  yield { type: "done", usage };
}

/** The engine's limits: PARLEY_TOOL_MAX_STEPS model steps (default 4), PARLEY_TOOL_BUDGET_MS in all (default 30 s). */
export function engineLoopLimits(): { maxSteps: number; budgetMs: number } {
  const num = (name: string, fallback: number) => {
    const v = Number(Deno.env.get(name));
    return Number.isFinite(v) && v > 0 ? v : fallback;
  };
  return { maxSteps: num("PARLEY_TOOL_MAX_STEPS", 4), budgetMs: num("PARLEY_TOOL_BUDGET_MS", 30_000) };
}
