// The test settings of a bot (on its tests page): when runs start on their own, the rules a case
// passes by, and whether the team's owners get an e-mail about regressions.
import { useState, type FormEvent } from "react";
import { FormattedDate, FormattedMessage, useIntl } from "react-intl";
import { ErrorNote } from "../../components/ErrorNote";
import { Button, Input, Loading, Select } from "../../components/ui";
import { ENUM_VALUES } from "../../lib/database";
import { useSaveTestSettingsMutation } from "../../data/tests/test-settings-mutation";
import { useTestSettingsQuery, type TestSettings, type TestSettingsRow } from "../../data/tests/test-settings-query";
import "./tests.css";

/** Message ids of the settings' columns. */
const LABEL_ID = {
  run_after_sync: "tests.settings.runAfterSync",
  run_after_settings: "tests.settings.runAfterSettings",
  require_answer: "tests.settings.requireAnswer",
  require_source: "tests.settings.requireSource",
  notify_regressions: "tests.settings.notifyRegressions",
} as const;

/** 0..1 in the database, whole percent in the form. */
const toPercent = (v: number) => Math.round(v * 100);
const fromPercent = (v: number) => Math.min(100, Math.max(0, Math.round(v))) / 100;

export function TestSettingsSection({ botId }: { botId: string }) {
  const settings = useTestSettingsQuery(botId);
  return (
    <section className="tr-settings" aria-labelledby="tr-settings-title">
      <h2 id="tr-settings-title"><FormattedMessage id="tests.settings.title" /></h2>
      {settings.isPending ? <Loading /> : settings.isError ? <ErrorNote error={settings.error} /> : (
        <TestSettingsForm key={botId} botId={botId} saved={settings.data} />
      )}
    </section>
  );
}

function TestSettingsForm({ botId, saved }: { botId: string; saved: TestSettingsRow }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const save = useSaveTestSettingsMutation(botId);
  const [v, setV] = useState<TestSettings>(() => {
    const { next_run_at: _ignored, ...rest } = saved;
    return rest;
  });
  const [done, setDone] = useState(false);
  const set = (patch: Partial<TestSettings>) => {
    setDone(false);
    setV((old) => ({ ...old, ...patch }));
  };
  const check = (key: keyof typeof LABEL_ID) => (
    <label>
      <input type="checkbox" name={key} checked={v[key]} onChange={(e) => set({ [key]: e.target.checked })} />{" "}
      <FormattedMessage id={LABEL_ID[key]} />
    </label>
  );
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(v, { onSuccess: () => setDone(true) });
  };

  return (
    <form className="tr-form" onSubmit={onSubmit}>
      <fieldset className="tr-fieldset">
        <legend><FormattedMessage id="tests.settings.when" /></legend>
        {check("run_after_sync")}
        {check("run_after_settings")}
        <Select
          label={t("tests.settings.schedule")}
          name="schedule"
          value={v.schedule}
          onChange={(e) => set({ schedule: e.target.value as TestSettings["schedule"] })}
          options={ENUM_VALUES.sync_schedule.map((s) => ({ value: s, label: t(`tests.settings.schedule.${s}`) }))}
          hint={saved.schedule !== "never" && saved.next_run_at
            ? <FormattedMessage id="tests.settings.nextRun" values={{ date: <FormattedDate value={saved.next_run_at} dateStyle="medium" timeStyle="short" /> }} />
            : undefined}
        />
      </fieldset>
      <fieldset className="tr-fieldset">
        <legend><FormattedMessage id="tests.settings.rules" /></legend>
        {check("require_answer")}
        {check("require_source")}
        <Input label={t("tests.settings.topK")} hint={t("tests.settings.topK.hint")} name="top_k" type="number" min={1} max={20} required
          value={v.top_k} onChange={(e) => set({ top_k: Math.min(20, Math.max(1, Math.round(Number(e.target.value) || 1))) })} />
        <Input label={t("tests.settings.minSimilarity")} hint={t("tests.settings.minSimilarity.hint")} name="min_similarity" type="number" min={0} max={100} required
          value={toPercent(v.min_similarity)} onChange={(e) => set({ min_similarity: fromPercent(Number(e.target.value) || 0) })} />
        <Input label={t("tests.settings.minJudgeScore")} hint={t("tests.settings.minJudgeScore.hint")} name="min_judge_score" type="number" min={0} max={100} required
          value={toPercent(v.min_judge_score)} onChange={(e) => set({ min_judge_score: fromPercent(Number(e.target.value) || 0) })} />
      </fieldset>
      <fieldset className="tr-fieldset">
        <legend><FormattedMessage id="tests.settings.notify" /></legend>
        {check("notify_regressions")}
      </fieldset>
      {save.error && <ErrorNote error={save.error} />}
      <div className="tr-actions">
        <Button type="submit" loading={save.isPending}><FormattedMessage id="tests.settings.save" /></Button>
        {done && <span role="status" className="tr-muted"><FormattedMessage id="tests.settings.saved" /></span>}
      </div>
    </form>
  );
}
