// A person of the team in a visitor's chat (the power-ups function, authorised in SQL by
// reply_as_human / hand_back_chat): a reply (role human; the chat stays with people) and the
// hand-back that lets the bot answer again.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { HandoffAnswer, HandoffBackRequest, HandoffReplyRequest } from "@shared/contracts/power-ups.ts";
import { callFunction } from "../../lib/functions";
import { teamKeys } from "../teams/keys";
import { chatKeys } from "./keys";

export function replyAsHuman(body: HandoffReplyRequest): Promise<HandoffAnswer> {
  return callFunction<HandoffAnswer>("power-ups/reply", body);
}

export function handBackChat(body: HandoffBackRequest): Promise<HandoffAnswer> {
  return callFunction<HandoffAnswer>("power-ups/hand-back", body);
}

function useHandoffMutation<T extends { chat_id: string }>(mutationFn: (body: T) => Promise<HandoffAnswer>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (_a, body) => {
      void qc.invalidateQueries({ queryKey: chatKeys.conversation(body.chat_id) });
      // The lists and the waiting count hang off the team: ['teams', <id>, 'conversations', ...].
      void qc.invalidateQueries({ queryKey: teamKeys.all, predicate: (q) => q.queryKey[2] === "conversations" });
    },
  });
}

export const useHumanReplyMutation = () => useHandoffMutation(replyAsHuman);
export const useHandBackMutation = () => useHandoffMutation(handBackChat);
