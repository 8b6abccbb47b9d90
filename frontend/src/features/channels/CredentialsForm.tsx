// The channel's secrets: one password field per secret, showing only whether it is set.
// Empty fields keep what is stored; "Remove" clears one.
import { useState, type FormEvent } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { Button, Input } from "../../components/ui";
import { useSetChannelCredentialsMutation } from "../../data/channels/channel-mutations";
import { useCredentialStatusQuery } from "../../data/channels/credential-status-query";
import type { Channel } from "../../data/channels/types";
import { PLATFORMS } from "./platforms";

export function CredentialsForm({ channel }: { channel: Channel }) {
  const intl = useIntl();
  const status = useCredentialStatusQuery(channel.id);
  const save = useSetChannelCredentialsMutation();
  const [values, setValues] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const names = PLATFORMS[channel.type].secrets;
  if (!names.length) return null;
  const isSet = (name: string) => status.data?.find((s) => s.name === name)?.is_set ?? false;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const credentials = Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim()));
    if (!Object.keys(credentials).length) return;
    setSaved(false);
    save.mutate({ id: channel.id, credentials }, { onSuccess: () => { setValues({}); setSaved(true); } });
  };

  return (
    <form className="ch-form" onSubmit={submit} aria-labelledby="ch-credentials-title">
      <h2 id="ch-credentials-title"><FormattedMessage id="channels.credentials.title" /></h2>
      <p className="ch-muted"><FormattedMessage id="channels.credentials.lead" /></p>
      {names.map((name) => (
        <div key={name}>
          <Input
            type="password"
            autoComplete="off"
            name={name}
            label={intl.formatMessage({ id: `channels.secret.${name.replace(/_/g, "-")}` })}
            hint={intl.formatMessage({ id: isSet(name) ? "channels.credentials.set" : "channels.credentials.notSet" })}
            placeholder={isSet(name) ? "••••••••" : ""}
            value={values[name] ?? ""}
            onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
            data-secret-set={isSet(name) ? "true" : "false"}
          />
          {isSet(name) && (
            <Button size="xxs" theme="transparent" onClick={() => save.mutate({ id: channel.id, credentials: { [name]: null } })}>
              <FormattedMessage id="channels.credentials.remove" />
            </Button>
          )}
        </div>
      ))}
      {save.isError && <p className="ch-error" role="alert"><FormattedMessage id="channels.error.save" /></p>}
      {saved && <p role="status"><FormattedMessage id="channels.credentials.saved" /></p>}
      <div className="ch-actions">
        <Button type="submit" loading={save.isPending}><FormattedMessage id="channels.credentials.save" /></Button>
      </div>
    </form>
  );
}
