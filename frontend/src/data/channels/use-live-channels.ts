// Live channel status: postgres_changes on channels for one bot (RLS on the realtime side
// decides what arrives). A receiver recording a delivery or a refusal updates the list and
// the settings screen without a reload.
import { useQueryClient } from "@tanstack/react-query";
import { tableChanges, useRealtimeChannel } from "../../lib/realtime";
import { channelKeys } from "./keys";

export function useLiveChannels(botId: string): void {
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: channelKeys.all });
  useRealtimeChannel(`channels:${botId}`, {
    listeners: [tableChanges("channels", `bot_id=eq.${botId}`, refresh)],
    onSubscribed: refresh,
  });
}
