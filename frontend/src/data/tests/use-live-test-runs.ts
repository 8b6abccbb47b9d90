// Live run progress: postgres_changes on test_runs of one bot (RLS on the realtime side decides
// what arrives); each change refreshes the runs list, the run and, when it finishes, its results.
import { useQueryClient } from "@tanstack/react-query";
import { tableChanges, useRealtimeChannel } from "../../lib/realtime";
import { testKeys } from "./keys";

export function useLiveTestRuns(botId: string): void {
  const qc = useQueryClient();
  useRealtimeChannel(`test-runs:${botId}`, {
    listeners: [
      tableChanges("test_runs", `bot_id=eq.${botId}`, (payload) => {
        void qc.invalidateQueries({ queryKey: testKeys.runs(botId) });
        const id = payload.eventType === "DELETE" ? payload.old.id : payload.new.id;
        if (id) {
          void qc.invalidateQueries({ queryKey: testKeys.run(id) });
          void qc.invalidateQueries({ queryKey: testKeys.results(id) });
        }
      }),
    ],
    onSubscribed: () => void qc.invalidateQueries({ queryKey: testKeys.all }),
  });
}
