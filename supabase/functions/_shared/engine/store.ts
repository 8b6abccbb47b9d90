// Stage 5: store the answer as the chat's assistant turn (service role: a client can never
// put words in the bot's mouth). A trigger counts it in the team's monthly usage when it
// succeeded. Ephemeral answers (test runner, tasks) are not stored. A failed answer keeps its
// code in `messages.error` (the visitor may read it) and the provider's words in
// `message_error_details`, which only the bot's team reads.
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
  /** When the model failed: its code (stored on the message) and the provider's words (the team's only). */
  error: { code: string; detail: string } | null;
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
      error: answer.error?.code ?? null,
      actions: (answer.actions ?? []) as unknown as Json[],
    }),
    "answer insert",
  );
  if (answer.error) {
    must(
      await service.from("message_error_details").insert({
        message_id: answer.id,
        bot_id: answer.botId,
        detail: answer.error.detail.slice(0, 2000),
      }),
      "answer error detail insert",
    );
  }
}
