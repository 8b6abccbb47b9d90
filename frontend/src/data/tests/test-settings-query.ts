// A bot's test settings: when runs start on their own, the pass rules, who is told of
// regressions (owners, admins, chosen members, extra addresses; validated in SQL). No row yet means the defaults the table declares (the runner reads it so too).
import { useQuery } from "@tanstack/react-query";
import type { Tables } from "../../lib/database";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { testKeys } from "./keys";

export type TestSettings = Pick<
  Tables<"bot_test_settings">,
  "run_after_sync" | "run_after_settings" | "schedule" | "top_k" | "require_answer" | "require_source" | "min_similarity" | "min_judge_score" | "notify_regressions"
  | "notify_owners" | "notify_admins" | "notify_member_ids" | "notify_emails"
>;
export type TestSettingsRow = TestSettings & Pick<Tables<"bot_test_settings">, "next_run_at">;

export const SETTINGS_COLUMNS =
  "run_after_sync, run_after_settings, schedule, next_run_at, top_k, require_answer, require_source, min_similarity, min_judge_score, notify_regressions, notify_owners, notify_admins, notify_member_ids, notify_emails";

/** The column defaults of public.bot_test_settings. */
export const DEFAULT_TEST_SETTINGS: TestSettingsRow = {
  run_after_sync: false,
  run_after_settings: false,
  schedule: "never",
  next_run_at: null,
  top_k: 5,
  require_answer: true,
  require_source: true,
  min_similarity: 0.3,
  min_judge_score: 0.6,
  notify_regressions: true,
  notify_owners: true,
  notify_admins: false,
  notify_member_ids: [],
  notify_emails: [],
};

/** numeric columns may arrive as strings from some PostgREST configurations. */
export function toTestSettings(row: TestSettingsRow | null): TestSettingsRow {
  if (!row) return DEFAULT_TEST_SETTINGS;
  return {
    ...DEFAULT_TEST_SETTINGS,
    ...row,
    min_similarity: Number(row.min_similarity),
    min_judge_score: Number(row.min_judge_score),
  };
}

export async function fetchTestSettings(botId: string): Promise<TestSettingsRow> {
  const row = unwrap(await (await loadSupabase()).from("bot_test_settings").select(SETTINGS_COLUMNS).eq("bot_id", botId).maybeSingle());
  return toTestSettings(row);
}

export function useTestSettingsQuery(botId: string) {
  return useQuery({ queryKey: testKeys.settings(botId), queryFn: () => fetchTestSettings(botId) });
}
