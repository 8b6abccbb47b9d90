import type { QueryClient } from "@tanstack/react-query";
import { teamKeys } from "../teams/keys";
import { botKeys } from "./keys";

/**
 * After a bot changes: its own views (detail, gallery, public face) and its team's list
 * (['teams', teamId, 'bots']; every team's when the team is not known).
 */
export function invalidateBot(qc: QueryClient, teamId?: string): Promise<unknown> {
  const lists = teamId
    ? qc.invalidateQueries({ queryKey: botKeys.team(teamId) })
    : qc.invalidateQueries({ queryKey: teamKeys.all, predicate: (q) => q.queryKey[2] === "bots" });
  return Promise.all([qc.invalidateQueries({ queryKey: botKeys.all }), lists]);
}
