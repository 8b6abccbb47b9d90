// Live channel status: postgres_changes on channels for one bot (RLS on the realtime side
// decides what arrives). A receiver recording a delivery or a refusal updates the list and
// the settings screen without a reload.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { getSupabase } from "../../lib/supabase";
import { channelKeys } from "./keys";

export function useLiveChannels(botId: string): void {
  const qc = useQueryClient();
  useEffect(() => {
    const supabase = getSupabase();
    const refresh = () => void qc.invalidateQueries({ queryKey: channelKeys.all });
    const channel = supabase
      .channel(`channels:${botId}`)
      .on("postgres_changes", { event: "*", schema: "public", table: "channels", filter: `bot_id=eq.${botId}` }, refresh)
      .subscribe((status) => {
        if (status === "SUBSCRIBED") refresh();
      });
    return () => {
      void supabase.removeChannel(channel);
    };
  }, [botId, qc]);
}
