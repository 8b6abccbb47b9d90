// The test settings of a bot (on its tests page): when runs start on their own, the rules a case
// passes by, and who gets an e-mail about regressions: the team's owners, its admins, chosen
// members, extra addresses (each in their language; the database checks members and addresses).
import { useState, type FormEvent } from "react";
import { FormattedDate, FormattedMessage, useIntl } from "react-intl";
import { ErrorNote } from "../../components/ErrorNote";
import { Button, Input, Loading, Select, Textarea } from "../../components/ui";
import { ENUM_VALUES } from "../../lib/database";
import { useBotQuery } from "../../data/bots/bot-query";
import { useTeamMembersQuery } from "../../data/teams/members-query";
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
  notify_owners: "tests.settings.notifyOwners",
  notify_admins: "tests.settings.notifyAdmins",
} as const;

/** Extra addresses: one per line (or separated by commas); the database trims, lower-cases and checks them. */
const addressesOf = (text: string) => text.split(/[\n,;]+/).map((a) => a.trim()).filter(Boolean);

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
  const [emails, setEmails] = useState(() => saved.notify_emails.join("\n"));
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
    save.mutate({ ...v, notify_emails: addressesOf(emails) }, {
      onSuccess: (row) => {
        setEmails(row.notify_emails.join("\n"));
        setDone(true);
      },
    });
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
            ? <FormattedMessage id="tests.settings.nextRun" values={{ date: <FormattedDate key="date" value={saved.next_run_at} dateStyle="medium" timeStyle="short" /> }} />
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
        <fieldset className="tr-fieldset" disabled={!v.notify_regressions}>
          <legend><FormattedMessage id="tests.settings.recipients" /></legend>
          {check("notify_owners")}
          {check("notify_admins")}
          <ChosenMembers botId={botId} chosen={v.notify_member_ids} onChange={(ids) => set({ notify_member_ids: ids })} />
          <Textarea label={t("tests.settings.notifyEmails")} hint={t("tests.settings.notifyEmails.hint")} name="notify_emails" rows={3}
            value={emails} onChange={(e) => {
              setDone(false);
              setEmails(e.target.value);
            }} />
        </fieldset>
      </fieldset>
      {save.error && <ErrorNote error={save.error} />}
      <div className="tr-actions">
        <Button type="submit" loading={save.isPending}><FormattedMessage id="tests.settings.save" /></Button>
        {done && <span role="status" className="tr-muted"><FormattedMessage id="tests.settings.saved" /></span>}
      </div>
    </form>
  );
}

/** Members of the bot's team the owner names one by one (whatever their role). */
function ChosenMembers({ botId, ...props }: { botId: string; chosen: string[]; onChange: (ids: string[]) => void }) {
  const bot = useBotQuery(botId);
  return bot.data ? <TeamMemberChoice teamId={bot.data.team_id} {...props} /> : null;
}

function TeamMemberChoice({ teamId, chosen, onChange }: { teamId: string; chosen: string[]; onChange: (ids: string[]) => void }) {
  const members = useTeamMembersQuery(teamId);
  if (members.isPending) return null;
  if (members.isError) return <ErrorNote error={members.error} />;
  return (
    <fieldset className="tr-fieldset">
      <legend><FormattedMessage id="tests.settings.notifyMembers" /></legend>
      {members.data.map((m) => (
        <label key={m.user_id}>
          <input type="checkbox" name="notify_member_ids" value={m.user_id} checked={chosen.includes(m.user_id)}
            onChange={(e) => onChange(e.target.checked ? [...chosen, m.user_id] : chosen.filter((id) => id !== m.user_id))} />{" "}
          {m.display_name || m.email}{m.display_name && m.email ? ` (${m.email})` : ""}
        </label>
      ))}
    </fieldset>
  );
}
