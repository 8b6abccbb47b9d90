import type { QueryClient } from "@tanstack/react-query";
import { botKeys } from "./keys";

/** After a bot changes: its own views (detail, gallery, public face) and its team's list. */
export function invalidateBot(qc: QueryClient, teamId: string): Promise<unknown> {
  return Promise.all([qc.invalidateQueries({ queryKey: botKeys.all }), qc.invalidateQueries({ queryKey: botKeys.team(teamId) })]);
}
