// How many of the team's chats wait for a person: handed to the team and the visitor's latest turn
// not yet answered by one (the app nav's badge). One SQL count, chats_waiting_for_human.
import { useQuery } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { chatKeys } from "./keys";

export async function fetchWaitingForHuman(teamId: string): Promise<number> {
  return unwrap(await (await loadSupabase()).rpc("chats_waiting_for_human", { team_id: teamId })) ?? 0;
}

export function useWaitingForHumanQuery(teamId: string | undefined) {
  return useQuery({ queryKey: chatKeys.waitingForHuman(teamId ?? "none"), queryFn: () => fetchWaitingForHuman(teamId!), enabled: !!teamId });
}
