import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { TablesInsert } from "../../lib/database";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { messageKeys } from "./keys";

export interface FeedbackInput {
  messageId: string;
  botId: string;
  rating: "up" | "down";
  comment?: string;
}

/** One rating per visitor and answer: a second one replaces the first. */
export async function sendFeedback({ messageId, botId, rating, comment }: FeedbackInput): Promise<void> {
  // user_id is auth.uid(); bot_id is required by the generated Insert type, and the database
  // copies it from the message anyway (a trigger), so a wrong one cannot mislabel a rating.
  const row: TablesInsert<"message_feedback"> = { message_id: messageId, bot_id: botId, rating, comment: comment?.trim() || null };
  unwrap(await (await loadSupabase()).from("message_feedback").upsert(row, { onConflict: "message_id,user_id" }));
}

export function useMessageFeedbackMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: sendFeedback,
    onSuccess: (_d, v) => qc.invalidateQueries({ queryKey: messageKeys.feedback(v.messageId) }),
  });
}
