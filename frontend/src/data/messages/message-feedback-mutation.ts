import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { TablesInsert } from "../../lib/database";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { messageKeys } from "./keys";

export interface FeedbackInput {
  messageId: string;
  rating: "up" | "down";
  comment?: string;
}

/** One rating per visitor and answer: a second one replaces the first. */
export async function sendFeedback({ messageId, rating, comment }: FeedbackInput): Promise<void> {
  // bot_id and user_id are filled by the database (a trigger and auth.uid()); the generated
  // Insert type cannot know, so the row says only what the visitor chose.
  const row: Omit<TablesInsert<"message_feedback">, "bot_id"> = { message_id: messageId, rating, comment: comment?.trim() || null };
  unwrap(await (await loadSupabase()).from("message_feedback").upsert(row as TablesInsert<"message_feedback">, { onConflict: "message_id,user_id" }));
}

export function useMessageFeedbackMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: sendFeedback,
    onSuccess: (_d, v) => qc.invalidateQueries({ queryKey: messageKeys.feedback(v.messageId) }),
  });
}
