// Saves a bot's test settings as the signed-in user (RLS: the team's owners and admins may
// insert and update the one row per bot; nobody deletes it). The schedule's next run is set by
// a trigger.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { testKeys } from "./keys";
import { SETTINGS_COLUMNS, toTestSettings, type TestSettings, type TestSettingsRow } from "./test-settings-query";

export async function saveTestSettings(botId: string, settings: TestSettings): Promise<TestSettingsRow> {
  const db = await loadSupabase();
  const row = unwrap(
    await db.from("bot_test_settings").upsert({ ...settings, bot_id: botId }, { onConflict: "bot_id" }).select(SETTINGS_COLUMNS).single(),
  );
  return toTestSettings(row);
}

export function useSaveTestSettingsMutation(botId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (settings: TestSettings) => saveTestSettings(botId, settings),
    onSuccess: (row) => qc.setQueryData(testKeys.settings(botId), row),
    onSettled: () => qc.invalidateQueries({ queryKey: testKeys.settings(botId) }),
  });
}
