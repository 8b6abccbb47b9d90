// The judge: with a model provider, the bot's own model grades an answer against the expected
// one and says why. Called through the same adapters and guards as the engine's generate stage
// (a team's own base URL is fetched SSRF-safe).
import type { ProviderChoice } from "../_shared/engine/provider.ts";
import { checkedBaseUrl, guardedFetch } from "../_shared/providers/guard.ts";
import { createProvider } from "../_shared/providers/index.ts";
import { limitFromEnv } from "../_shared/rate-limit.ts";

/** The judge's prompt starts with this sentence (tests route on it). */
export const JUDGE_MARKER = "You grade a chatbot's answer against the expected answer.";

const SYSTEM = `${JUDGE_MARKER}
Decide whether the answer gives the same facts as the expected answer (wording may differ; extra
correct detail is fine; a missing or contradicting fact lowers the grade).
Reply with JSON only, no code fence: {"score": <number from 0 to 1>, "reasoning": "<one or two sentences>"}`;

export type Grade = { score: number; reasoning: string } | { error: string };

/** Reads {"score", "reasoning"} from a model's reply, tolerating text or a code fence around it. */
export function parseGrade(reply: string): Grade {
  const match = reply.match(/\{[\s\S]*\}/);
  if (!match) return { error: "the judge did not reply with JSON" };
  try {
    const parsed = JSON.parse(match[0]) as { score?: unknown; reasoning?: unknown };
    const score = typeof parsed.score === "number" ? parsed.score : Number(parsed.score);
    if (!Number.isFinite(score)) return { error: "the judge gave no score" };
    return { score: Math.max(0, Math.min(1, score > 1 && score <= 10 ? score / 10 : score)), reasoning: String(parsed.reasoning ?? "").slice(0, 2000) };
  } catch {
    return { error: "the judge's JSON could not be read" };
  }
}

/** One reply of the bot's model to a system prompt and a user message, as text (throws on failure). */
export async function complete(
  choice: Extract<ProviderChoice, { kind: "model" }>,
  system: string,
  user: string,
  signal?: AbortSignal,
): Promise<string> {
  const run = () =>
    createProvider({
      provider: choice.provider,
      apiKey: choice.apiKey ?? undefined,
      baseUrl: choice.teamBaseUrl,
      fetch: choice.teamBaseUrl ? guardedFetch : undefined,
      timeoutMs: limitFromEnv("PARLEY_PROVIDER_TIMEOUT_MS", 60_000),
      backoffMs: limitFromEnv("PARLEY_PROVIDER_BACKOFF_MS", 500),
    }).generate({ system, messages: [{ role: "user", content: user }], temperature: 0, model: choice.model, signal });
  let reply = "";
  const events = choice.teamBaseUrl ? checkedBaseUrl(choice.teamBaseUrl, choice.provider, run) : run();
  for await (const ev of events) if (ev.type === "token") reply += ev.text;
  return reply;
}

export async function judge(
  choice: Extract<ProviderChoice, { kind: "model" }>,
  input: { question: string; expected: string; answer: string },
  signal?: AbortSignal,
): Promise<Grade> {
  try {
    const reply = await complete(
      choice,
      SYSTEM,
      `Question:\n${input.question}\n\nExpected answer:\n${input.expected}\n\nChatbot's answer:\n${input.answer}`,
      signal,
    );
    return parseGrade(reply);
  } catch (e) {
    return { error: e instanceof Error ? e.message.slice(0, 300) : "the judge failed" };
  }
}
