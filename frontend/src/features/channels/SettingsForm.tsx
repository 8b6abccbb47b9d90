// The channel's name and non-secret settings (welcome text, phone number id, test recipient).
import { useState, type FormEvent } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { Button, Input, Textarea } from "../../components/ui";
import { useUpdateChannelMutation } from "../../data/channels/channel-mutations";
import type { Channel } from "../../data/channels/types";
import { PLATFORMS } from "./platforms";

export function SettingsForm({ channel }: { channel: Channel }) {
  const intl = useIntl();
  const update = useUpdateChannelMutation();
  const [name, setName] = useState(channel.name);
  const [settings, setSettings] = useState<Record<string, string>>(channel.settings ?? {});
  const [saved, setSaved] = useState(false);
  const fields = PLATFORMS[channel.type].settings;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const clean = Object.fromEntries(Object.entries(settings).map(([k, v]) => [k, typeof v === "string" ? v.trim() : v]));
    update.mutate({ id: channel.id, botId: channel.bot_id, name, settings: { ...channel.settings, ...clean } }, { onSuccess: () => setSaved(true) });
  };

  return (
    <form className="ch-form" onSubmit={submit} aria-labelledby="ch-settings-title">
      <h2 id="ch-settings-title"><FormattedMessage id="channels.settings.title" /></h2>
      <Input label={intl.formatMessage({ id: "channels.field.name" })} value={name} required maxLength={100} onChange={(e) => setName(e.target.value)} />
      {fields.map((f) =>
        f === "welcome_message" ? (
          <Textarea key={f} label={intl.formatMessage({ id: `channels.setting.${f.replace(/_/g, "-")}` })} hint={intl.formatMessage({ id: `channels.setting.${f.replace(/_/g, "-")}.hint` })}
            value={settings[f] ?? ""} maxLength={1000} onChange={(e) => setSettings((s) => ({ ...s, [f]: e.target.value }))} />
        ) : (
          <Input key={f} name={f} label={intl.formatMessage({ id: `channels.setting.${f.replace(/_/g, "-")}` })} hint={intl.formatMessage({ id: `channels.setting.${f.replace(/_/g, "-")}.hint` })}
            value={settings[f] ?? ""} maxLength={200} onChange={(e) => setSettings((s) => ({ ...s, [f]: e.target.value }))} />
        ),
      )}
      {update.isError && <p className="ch-error" role="alert"><FormattedMessage id="channels.error.save" /></p>}
      {saved && <p role="status"><FormattedMessage id="channels.settings.saved" /></p>}
      <div className="ch-actions">
        <Button type="submit" loading={update.isPending}><FormattedMessage id="channels.settings.save" /></Button>
      </div>
    </form>
  );
}
