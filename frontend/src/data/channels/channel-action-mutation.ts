// The `channels-connect` edge function: connect, send a test message, disconnect.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { callFunction } from "../../lib/functions";
import { channelKeys } from "./keys";
import type { Channel } from "./types";

export type ChannelAction = "connect" | "test" | "disconnect" | "install";

export interface ChannelActionAnswer {
  channel: Pick<Channel, "id" | "status" | "last_error" | "settings" | "last_event_at">;
  webhook_url: string | null;
  show_once?: Record<string, string>;
  /** install (Slack OAuth): where to send the browser. */
  authorize_url?: string;
}

export function runChannelAction({ id, action }: { id: string; botId: string; action: ChannelAction }): Promise<ChannelActionAnswer> {
  // Errors arrive as AppError with the function's code and message (lib/errors.ts).
  return callFunction<ChannelActionAnswer>("channels-connect", { channel_id: id, action });
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
