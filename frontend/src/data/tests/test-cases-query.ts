import { useQuery } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { testKeys } from "./keys";
import { CASE_COLUMNS, readHistory, type TestCase } from "./types";

/** Every case of a bot, active and suggested, oldest first. */
export async function fetchTestCases(botId: string): Promise<TestCase[]> {
  const rows = unwrap(await (await loadSupabase()).from("test_cases").select(CASE_COLUMNS).eq("bot_id", botId).order("created_at").limit(2000));
  return (rows ?? []).map((r) => ({ ...r, history: readHistory(r.history) }));
}

export function useTestCasesQuery(botId: string) {
  return useQuery({ queryKey: testKeys.cases(botId), queryFn: () => fetchTestCases(botId) });
}
