// The task form: name, schedule (cron in a time zone, or every N hours), what the type needs,
// where the output goes (team members by e-mail, a webhook endpoint, for an ask task also a
// connected messaging channel).
import { useState, type FormEvent } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { ErrorNote } from "../../components/ErrorNote";
import { Button, Input, Select, Textarea } from "../../components/ui";
import { useBotQuery } from "../../data/bots/bot-query";
import { useChannelsQuery } from "../../data/channels/channels-query";
import { MESSAGING_TYPES } from "../../data/channels/types";
import { useDataSourcesQuery } from "../../data/dataSources/data-sources-query";
import type { TaskInput, TaskType } from "../../data/tasks/types";
import { useTeamMembersQuery } from "../../data/teams/members-query";
import { useWebhookEndpointsQuery } from "../../data/webhooks/webhook-endpoints-query";

export function emptyTaskInput(): TaskInput {
  return {
    name: "", cron: "0 9 * * 1-5", timezone: Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC", every_hours: null,
    settings: {}, recipient_ids: [], webhook_endpoint_id: null, enabled: true,
  };
}

function toggle(list: string[], id: string, on: boolean) {
  return on ? [...new Set([...list, id])] : list.filter((x) => x !== id);
}

export function TaskForm({ botId, type, initial, saving, error, onSave }: {
  botId: string;
  type: TaskType;
  initial: TaskInput;
  saving: boolean;
  error: unknown;
  onSave: (input: TaskInput) => void;
}) {
  const intl = useIntl();
  const [v, setV] = useState<TaskInput>(initial);
  const bot = useBotQuery(botId);
  const sources = useDataSourcesQuery(botId);
  const endpoints = useWebhookEndpointsQuery(botId);
  const set = (patch: Partial<TaskInput>) => setV((old) => ({ ...old, ...patch }));
  const interval = v.every_hours !== null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSave(v);
  };
  return (
    <form className="tk-form" onSubmit={submit}>
      <Input label={<FormattedMessage id="tasks.form.name" />} required maxLength={200} value={v.name} onChange={(e) => set({ name: e.target.value })} />
      <Select
        label={<FormattedMessage id="tasks.form.scheduleKind" />}
        value={interval ? "interval" : "cron"}
        onChange={(e) => set(e.target.value === "interval" ? { every_hours: 24, cron: null } : { every_hours: null, cron: "0 9 * * 1-5" })}
        options={[
          { value: "cron", label: intl.formatMessage({ id: "tasks.form.kind.cron" }) },
          { value: "interval", label: intl.formatMessage({ id: "tasks.form.kind.interval" }) },
        ]}
      />
      {interval ? (
        <Input label={<FormattedMessage id="tasks.form.everyHours" />} type="number" min={1} max={720} required value={v.every_hours ?? 24}
          onChange={(e) => set({ every_hours: Number(e.target.value) })} />
      ) : (
        <>
          <Input label={<FormattedMessage id="tasks.form.cron" />} hint={<FormattedMessage id="tasks.form.cronHint" />} required value={v.cron ?? ""}
            onChange={(e) => set({ cron: e.target.value })} />
          <Input label={<FormattedMessage id="tasks.form.timezone" />} required value={v.timezone} onChange={(e) => set({ timezone: e.target.value })} />
        </>
      )}
      {type === "ask" && (
        <Textarea label={<FormattedMessage id="tasks.form.prompt" />} required maxLength={4000} value={v.settings.prompt ?? ""}
          onChange={(e) => set({ settings: { ...v.settings, prompt: e.target.value } })} />
      )}
      {type === "ask" && <ChannelChoice botId={botId} value={v.settings} onChange={(s) => set({ settings: { ...v.settings, ...s } })} />}
      {type === "digest" && (
        <Input label={<FormattedMessage id="tasks.form.periodHours" />} type="number" min={1} max={744} value={v.settings.period_hours ?? ""}
          onChange={(e) => set({ settings: { ...v.settings, period_hours: e.target.value ? Number(e.target.value) : undefined } })} />
      )}
      {type === "sync" && (
        <fieldset className="tk-choices">
          <legend><FormattedMessage id="tasks.form.sources" /></legend>
          {(sources.data ?? []).map((s) => (
            <label key={s.id}>
              <input type="checkbox" checked={(v.settings.data_source_ids ?? []).includes(s.id)}
                onChange={(e) => set({ settings: { ...v.settings, data_source_ids: toggle(v.settings.data_source_ids ?? [], s.id, e.target.checked) } })} /> {s.name}
            </label>
          ))}
          {sources.data?.length === 0 && <span className="tk-muted"><FormattedMessage id="tasks.form.noSources" /></span>}
        </fieldset>
      )}
      {(type === "digest" || type === "ask") && bot.data && (
        <Recipients teamId={bot.data.team_id} value={v.recipient_ids} onChange={(recipient_ids) => set({ recipient_ids })} />
      )}
      <Select
        label={<FormattedMessage id="tasks.form.webhook" />}
        value={v.webhook_endpoint_id ?? ""}
        onChange={(e) => set({ webhook_endpoint_id: e.target.value || null })}
        options={[{ value: "", label: intl.formatMessage({ id: "tasks.form.noWebhook" }) }, ...(endpoints.data ?? []).map((e) => ({ value: e.id, label: e.url }))]}
      />
      <label>
        <input type="checkbox" checked={v.enabled} onChange={(e) => set({ enabled: e.target.checked })} /> <FormattedMessage id="tasks.form.enabled" />
      </label>
      {error != null && <ErrorNote error={error} />}
      <div><Button type="submit" loading={saving}><FormattedMessage id="tasks.form.save" /></Button></div>
    </form>
  );
}

/** A connected messaging channel of the bot to post an ask task's answer to, and to whom there. */
function ChannelChoice({ botId, value, onChange }: {
  botId: string;
  value: TaskInput["settings"];
  onChange: (s: Pick<TaskInput["settings"], "channel_id" | "channel_recipient">) => void;
}) {
  const intl = useIntl();
  const channels = useChannelsQuery(botId);
  const messaging = (channels.data ?? []).filter((c) => MESSAGING_TYPES.includes(c.type));
  return (
    <>
      <Select
        label={<FormattedMessage id="tasks.form.channel" />}
        value={value.channel_id ?? ""}
        onChange={(e) => onChange(e.target.value ? { channel_id: e.target.value } : { channel_id: undefined, channel_recipient: undefined })}
        options={[{ value: "", label: intl.formatMessage({ id: "tasks.form.noChannel" }) }, ...messaging.map((c) => ({ value: c.id, label: `${c.name} (${c.type})` }))]}
      />
      {value.channel_id && (
        <Input label={<FormattedMessage id="tasks.form.channelRecipient" />} hint={<FormattedMessage id="tasks.form.channelRecipientHint" />} maxLength={200}
          value={value.channel_recipient ?? ""} onChange={(e) => onChange({ channel_recipient: e.target.value.trim() || undefined })} />
      )}
    </>
  );
}

/** Team members to e-mail (asked for only once the bot's team is known). */
function Recipients({ teamId, value, onChange }: { teamId: string; value: string[]; onChange: (v: string[]) => void }) {
  const members = useTeamMembersQuery(teamId);
  return (
    <fieldset className="tk-choices">
      <legend><FormattedMessage id="tasks.form.recipients" /></legend>
      {(members.data ?? []).map((m) => (
        <label key={m.user_id}>
          <input type="checkbox" checked={value.includes(m.user_id)} onChange={(e) => onChange(toggle(value, m.user_id, e.target.checked))} />{" "}
          {m.display_name ?? m.email}
        </label>
      ))}
    </fieldset>
  );
}
