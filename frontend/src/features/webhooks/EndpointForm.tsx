// Adding an endpoint: address, description, events.
import { useState, type FormEvent } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { ErrorNote } from "../../components/ErrorNote";
import { Button, Input } from "../../components/ui";
import { useCreateWebhookEndpointMutation } from "../../data/webhooks/webhook-endpoint-create-mutation";
import { WEBHOOK_EVENT_TYPES } from "../../data/webhooks/types";

export function EventChoices({ value, onChange }: { value: string[]; onChange: (v: string[]) => void }) {
  return (
    <fieldset className="wh-events">
      <legend className="sr-only"><FormattedMessage id="webhooks.form.events" /></legend>
      {WEBHOOK_EVENT_TYPES.map((t) => (
        <label key={t}>
          <input type="checkbox" checked={value.includes(t)} onChange={(e) => onChange(e.target.checked ? [...value, t] : value.filter((x) => x !== t))} />{" "}
          <code>{t}</code>
        </label>
      ))}
    </fieldset>
  );
}

export function EndpointForm({ botId }: { botId: string }) {
  const intl = useIntl();
  const create = useCreateWebhookEndpointMutation();
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<string[]>(["message.created"]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ botId, url: url.trim(), events, description: description.trim() || null }, { onSuccess: () => { setUrl(""); setDescription(""); } });
  };
  return (
    <form className="wh-card" onSubmit={submit} aria-label={intl.formatMessage({ id: "webhooks.form.title" })}>
      <h2><FormattedMessage id="webhooks.form.title" /></h2>
      <Input label={<FormattedMessage id="webhooks.form.url" />} type="url" required pattern="https?://.+" placeholder="https://example.com/parley" value={url} onChange={(e) => setUrl(e.target.value)} />
      <Input label={<FormattedMessage id="webhooks.form.description" />} maxLength={500} value={description} onChange={(e) => setDescription(e.target.value)} />
      <div>
        <p><FormattedMessage id="webhooks.form.events" /></p>
        <EventChoices value={events} onChange={setEvents} />
      </div>
      {create.isError && <ErrorNote error={create.error} />}
      <div><Button type="submit" loading={create.isPending}><FormattedMessage id="webhooks.form.add" /></Button></div>
    </form>
  );
}
