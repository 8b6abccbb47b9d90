// The HTTP API channel: the endpoint, the bot's keys (shown once when created), revoking.
import { useState, type FormEvent } from "react";
import { FormattedDate, FormattedMessage, useIntl } from "react-intl";
import { Button, Input } from "../../components/ui";
import { useApiKeysQuery, useCreateApiKeyMutation, useRevokeApiKeyMutation } from "../../data/channels/api-keys";
import { CopyField } from "./CopyField";

export function ApiKeys({ botId, apiBaseUrl }: { botId: string; apiBaseUrl: string }) {
  const intl = useIntl();
  const keys = useApiKeysQuery(botId);
  const create = useCreateApiKeyMutation();
  const revoke = useRevokeApiKeyMutation();
  const [name, setName] = useState("");
  const [rate, setRate] = useState("60");
  const [fresh, setFresh] = useState<string | null>(null);
  const endpoint = `${apiBaseUrl.replace(/\/+$/, "")}/api/v1/chat`;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ botId, name, ratePerMinute: Math.max(1, Math.min(10000, Number(rate) || 60)) }, {
      onSuccess: (k) => { setFresh(k.key); setName(""); },
    });
  };

  return (
    <section className="ch-section" aria-labelledby="ch-keys-title">
      <h2 id="ch-keys-title"><FormattedMessage id="channels.api.title" /></h2>
      <CopyField label={intl.formatMessage({ id: "channels.api.endpoint" })} value={endpoint} testId="api-endpoint" />
      <p className="ch-muted">
        <FormattedMessage id="channels.api.openapi" values={{ url: <a key="url" href={`${apiBaseUrl.replace(/\/+$/, "")}/api/v1/openapi.json`}>openapi.json</a> }} />
      </p>
      {fresh && (
        <div role="status">
          <CopyField label={intl.formatMessage({ id: "channels.api.fresh" })} value={fresh} testId="api-key-fresh" />
        </div>
      )}
      <form className="ch-form" onSubmit={submit}>
        <Input label={intl.formatMessage({ id: "channels.api.keyName" })} value={name} required maxLength={100} onChange={(e) => setName(e.target.value)} />
        <Input label={intl.formatMessage({ id: "channels.api.rate" })} type="number" min={1} max={10000} value={rate} onChange={(e) => setRate(e.target.value)} />
        {create.isError && <p className="ch-error" role="alert"><FormattedMessage id="channels.error.save" /></p>}
        <div className="ch-actions">
          <Button type="submit" loading={create.isPending}><FormattedMessage id="channels.api.create" /></Button>
        </div>
      </form>
      {keys.data && keys.data.length > 0 ? (
        <table className="ch-keys">
          <caption className="sr-only"><FormattedMessage id="channels.api.keys" /></caption>
          <thead>
            <tr>
              <th scope="col"><FormattedMessage id="channels.api.keyName" /></th>
              <th scope="col"><FormattedMessage id="channels.api.prefix" /></th>
              <th scope="col"><FormattedMessage id="channels.api.rate" /></th>
              <th scope="col"><FormattedMessage id="channels.api.lastUsed" /></th>
              <th scope="col"><span className="sr-only"><FormattedMessage id="channels.api.actions" /></span></th>
            </tr>
          </thead>
          <tbody>
            {keys.data.map((k) => (
              <tr key={k.id} data-key-id={k.id}>
                <td>{k.name}</td>
                <td><code>{k.prefix}…</code></td>
                <td>{k.rate_limit_per_minute}</td>
                <td>{k.last_used_at ? <FormattedDate value={k.last_used_at} dateStyle="medium" timeStyle="short" /> : <FormattedMessage id="channels.never" />}</td>
                <td>
                  {k.revoked_at ? (
                    <span className="ch-badge"><FormattedMessage id="channels.api.revoked" /></span>
                  ) : (
                    <Button size="xs" theme="delete" loading={revoke.isPending && revoke.variables?.id === k.id}
                      aria-label={intl.formatMessage({ id: "channels.api.revokeNamed" }, { name: k.name })}
                      onClick={() => revoke.mutate({ id: k.id, botId })}>
                      <FormattedMessage id="channels.api.revoke" />
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="ch-muted"><FormattedMessage id="channels.api.none" /></p>
      )}
    </section>
  );
}
