import { useMutation, useQueryClient } from "@tanstack/react-query";
import { messageKeys } from "./keys";

export interface FeedbackInput {
  messageId: string;
  rating: "up" | "down";
  comment?: string;
}

/** One rating per visitor and answer: a second one replaces the first. */
export async function sendFeedback({ messageId, rating, comment }: FeedbackInput): Promise<void> {
  const { getSupabase } = await import("../../lib/supabase");
  const { error } = await getSupabase()
    .from("message_feedback")
    .upsert({ message_id: messageId, rating, comment: comment?.trim() || null }, { onConflict: "message_id,user_id" });
  if (error) throw Object.assign(new Error(error.message), { code: error.code ?? "feedback_failed" });
}

export function useMessageFeedbackMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: sendFeedback,
    onSuccess: (_d, v) => qc.invalidateQueries({ queryKey: messageKeys.feedback(v.messageId) }),
  });
}
