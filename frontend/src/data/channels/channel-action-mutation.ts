// The `channels-connect` edge function: connect, send a test message, disconnect, install.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ChannelConnectAnswer, ChannelConnectRequest } from "@shared/contracts/channels.ts";
import { callFunction } from "../../lib/functions";
import { channelKeys } from "./keys";

export type ChannelAction = ChannelConnectRequest["action"];

export function runChannelAction({ id, action }: { id: string; botId: string; action: ChannelAction }): Promise<ChannelConnectAnswer> {
  // Errors arrive as AppError with the function's code and message (lib/errors.ts).
  const body: ChannelConnectRequest = { channel_id: id, action };
  return callFunction<ChannelConnectAnswer>("channels-connect", body);
}

export function useChannelActionMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: runChannelAction,
    onSettled: (_r, _e, v) => Promise.all([
      qc.invalidateQueries({ queryKey: channelKeys.detail(v.id) }),
      qc.invalidateQueries({ queryKey: channelKeys.list(v.botId) }),
    ]),
  });
}
