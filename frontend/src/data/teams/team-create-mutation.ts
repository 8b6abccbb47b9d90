import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Tables } from "../../lib/database";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { teamKeys } from "./keys";

export type Team = Pick<Tables<"teams">, "id" | "name" | "slug" | "personal">;

export async function createTeam(name: string): Promise<Team> {
  return unwrap(await (await loadSupabase()).rpc("create_team", { name }));
}

export function useCreateTeamMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: createTeam, onSuccess: () => qc.invalidateQueries({ queryKey: teamKeys.mine() }) });
}
