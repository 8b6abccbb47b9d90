// One endpoint: state, secret on demand, rotate, test event, redeliver failed, enable, edit the
// address and description, delete.
import { useState, type FormEvent } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { ErrorNote } from "../../components/ErrorNote";
import { Button, Input } from "../../components/ui";
import type { WebhookEndpoint } from "../../data/webhooks/types";
import { useWebhookActionMutation } from "../../data/webhooks/webhook-actions-mutation";
import { useDeleteWebhookEndpointMutation } from "../../data/webhooks/webhook-endpoint-delete-mutation";
import { useUpdateWebhookEndpointMutation } from "../../data/webhooks/webhook-endpoint-update-mutation";
import { useWebhookSecretMutation } from "../../data/webhooks/webhook-secret-mutation";
import { disabledReasonMessage } from "../../lib/errors";
import { EventChoices } from "./EndpointForm";

/** The address and description, edited in place. */
function EndpointEdit({ endpoint, onDone }: { endpoint: WebhookEndpoint; onDone: () => void }) {
  const update = useUpdateWebhookEndpointMutation();
  const [url, setUrl] = useState(endpoint.url);
  const [description, setDescription] = useState(endpoint.description ?? "");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    update.mutate({ id: endpoint.id, botId: endpoint.bot_id, patch: { url: url.trim(), description: description.trim() || null } }, { onSuccess: onDone });
  };
  return (
    <form className="wh-edit" onSubmit={submit}>
      <Input label={<FormattedMessage id="webhooks.form.url" />} type="url" required pattern="https?://.+" value={url} onChange={(e) => setUrl(e.target.value)} />
      <Input label={<FormattedMessage id="webhooks.form.description" />} maxLength={500} value={description} onChange={(e) => setDescription(e.target.value)} />
      {update.isError && <ErrorNote error={update.error} />}
      <div className="wh-row">
        <Button size="sm" type="submit" loading={update.isPending}><FormattedMessage id="webhooks.endpoint.save" /></Button>
        <Button size="sm" theme="secondary" onClick={onDone}><FormattedMessage id="webhooks.endpoint.cancel" /></Button>
      </div>
    </form>
  );
}

export function EndpointCard({ endpoint, selected, onSelect }: { endpoint: WebhookEndpoint; selected: boolean; onSelect: () => void }) {
  const intl = useIntl();
  const botId = endpoint.bot_id;
  const secret = useWebhookSecretMutation();
  const action = useWebhookActionMutation();
  const update = useUpdateWebhookEndpointMutation();
  const remove = useDeleteWebhookEndpointMutation();
  const [notice, setNotice] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const error = secret.error ?? action.error ?? update.error ?? remove.error;
  return (
    <article className="wh-card" data-endpoint-id={endpoint.id} aria-label={endpoint.url}>
      <div className="wh-row">
        <span className="wh-card__url">{endpoint.url}</span>
        {endpoint.enabled ? (
          <span className="wh-badge wh-badge--good"><FormattedMessage id="webhooks.endpoint.enabled" /></span>
        ) : (
          <span className="wh-badge wh-badge--bad"><FormattedMessage id="webhooks.endpoint.disabled" /></span>
        )}
        {endpoint.failure_count > 0 && (
          <span className="wh-badge"><FormattedMessage id="webhooks.endpoint.failures" values={{ count: endpoint.failure_count }} /></span>
        )}
      </div>
      {editing ? <EndpointEdit endpoint={endpoint} onDone={() => setEditing(false)} />
        : endpoint.description && <p className="wh-muted">{endpoint.description}</p>}
      {endpoint.disabled_reason && <DisabledReason text={endpoint.disabled_reason} />}
      <EventChoices value={endpoint.events} onChange={(events) => update.mutate({ id: endpoint.id, botId, patch: { events } })} />
      {secret.data && (
        <p>
          <FormattedMessage id="webhooks.endpoint.secret" />: <code className="wh-secret" data-testid="webhook-secret">{secret.data}</code>
        </p>
      )}
      {notice && <p role="status">{notice}</p>}
      {error && <ErrorNote error={error} />}
      <div className="wh-row">
        <Button size="sm" theme="secondary" onClick={() => secret.mutate({ id: endpoint.id, rotate: false })}><FormattedMessage id="webhooks.endpoint.showSecret" /></Button>
        <Button size="sm" theme="secondary" onClick={() => { if (confirm(intl.formatMessage({ id: "webhooks.endpoint.rotateConfirm" }))) secret.mutate({ id: endpoint.id, rotate: true }); }}>
          <FormattedMessage id="webhooks.endpoint.rotate" />
        </Button>
        <Button size="sm" theme="secondary" onClick={() => action.mutate({ kind: "test", endpointId: endpoint.id, botId }, { onSuccess: () => setNotice(intl.formatMessage({ id: "webhooks.endpoint.testQueued" })) })}>
          <FormattedMessage id="webhooks.endpoint.test" />
        </Button>
        <Button size="sm" theme="secondary" onClick={() => action.mutate({ kind: "redeliver-failed", endpointId: endpoint.id, botId }, { onSuccess: () => setNotice(intl.formatMessage({ id: "webhooks.endpoint.redeliverQueued" })) })}>
          <FormattedMessage id="webhooks.endpoint.redeliverFailed" />
        </Button>
        <Button size="sm" theme="secondary" onClick={() => update.mutate({ id: endpoint.id, botId, patch: { enabled: !endpoint.enabled } })}>
          <FormattedMessage id={endpoint.enabled ? "webhooks.endpoint.disable" : "webhooks.endpoint.enable"} />
        </Button>
        {!editing && <Button size="sm" theme="secondary" onClick={() => setEditing(true)}><FormattedMessage id="webhooks.endpoint.edit" /></Button>}
        <Button size="sm" theme={selected ? "primary" : "secondary"} aria-pressed={selected} onClick={onSelect}><FormattedMessage id="webhooks.endpoint.showLog" /></Button>
        <Button size="sm" theme="delete" onClick={() => { if (confirm(intl.formatMessage({ id: "webhooks.endpoint.deleteConfirm" }))) remove.mutate({ id: endpoint.id, botId }); }}>
          <FormattedMessage id="webhooks.endpoint.delete" />
        </Button>
      </div>
    </article>
  );
}

/** Why the worker disabled the endpoint, in the user's language (the stored reason is English). */
function DisabledReason({ text }: { text: string }) {
  const intl = useIntl();
  const { id, attempts, last, code } = disabledReasonMessage(text);
  return (
    <p role="status" title={code || undefined} data-error-code={code || undefined}>
      <FormattedMessage id={id} values={{ attempts, last: intl.formatMessage({ id: last.id }, last.values) }} />
    </p>
  );
}
