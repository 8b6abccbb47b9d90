// Stage 5: store the answer as the chat's assistant turn (service role: a client can never
// put words in the bot's mouth). A trigger counts it in the team's monthly usage when it
// succeeded. Ephemeral answers (test runner, tasks) are not stored.
import type { Db } from "../clients.ts";
import type { ChatAction, ChatSource, ChatUsage } from "../contracts/chat.ts";
import type { Json } from "../database.types.ts";
import { must } from "../db.ts";

export interface StoredAnswer {
  id: string;
  chatId: string;
  botId: string;
  content: string;
  sources: ChatSource[];
  usage: ChatUsage;
  latencyMs: number;
  firstTokenMs: number | null;
  model: string | null;
  provider: string;
  /** `<code>: <detail>` when the model failed. */
  error: string | null;
  /** What power-ups showed the visitor (tool lines, lead form, link, handoff). */
  actions?: ChatAction[];
}

export async function storeAnswer(service: Db, answer: StoredAnswer): Promise<void> {
  must(
    await service.from("messages").insert({
      id: answer.id,
      chat_id: answer.chatId,
      bot_id: answer.botId,
      role: "assistant",
      content: answer.content,
      sources: answer.sources as unknown as Json[],
      prompt_tokens: answer.usage.prompt_tokens,
      completion_tokens: answer.usage.completion_tokens,
      latency_ms: answer.latencyMs,
      first_token_ms: answer.firstTokenMs,
      model: answer.model,
      provider: answer.provider,
      error: answer.error?.slice(0, 2000) ?? null,
      actions: (answer.actions ?? []) as unknown as Json[],
    }),
    "answer insert",
  );
}
