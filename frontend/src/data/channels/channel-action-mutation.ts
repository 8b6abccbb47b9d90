// The `channels-connect` edge function: connect, send a test message, disconnect.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { http, HttpError } from "../../lib/http";
import { getSupabase } from "../../lib/supabase";
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

export async function runChannelAction({ id, action }: { id: string; botId: string; action: ChannelAction }): Promise<ChannelActionAnswer> {
  const { data } = await getSupabase().auth.getSession();
  try {
    return await http<ChannelActionAnswer>("channels-connect", {
      method: "POST",
      headers: { authorization: `Bearer ${data.session?.access_token ?? ""}` },
      body: { channel_id: id, action },
    });
  } catch (e) {
    // Functions answer {"error": {code, message, details}}: keep Parley's code and message.
    const error = e instanceof HttpError ? (e.body as { error?: { code?: string; message?: string; details?: unknown } } | undefined)?.error : undefined;
    if (e instanceof HttpError && error?.code) throw new HttpError(e.status, error.code, error.message ?? e.message, error.details);
    throw e;
  }
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
