// /app/bots/:botId/webhooks — the bot's endpoints, their secrets, test events and the delivery log.
import { useState } from "react";
import { FormattedMessage } from "react-intl";
import { useParams } from "react-router";
import { ErrorNote } from "../../../components/ErrorNote";
import { Loading } from "../../../components/ui";
import { useWebhookEndpointsQuery } from "../../../data/webhooks/webhook-endpoints-query";
import { DeliveryLog } from "../../../features/webhooks/DeliveryLog";
import { EndpointCard } from "../../../features/webhooks/EndpointCard";
import { EndpointForm } from "../../../features/webhooks/EndpointForm";
import "../../../features/webhooks/webhooks.css";

export default function WebhooksPage() {
  const { botId = "" } = useParams();
  const endpoints = useWebhookEndpointsQuery(botId);
  const [selected, setSelected] = useState<string | null>(null);
  return (
    <div className="wh-page">
      <header className="wh-head">
        <h1><FormattedMessage id="webhooks.title" /></h1>
        <p className="wh-muted"><FormattedMessage id="webhooks.lead" /></p>
      </header>
      {endpoints.isPending ? (
        <Loading />
      ) : endpoints.isError ? (
        <ErrorNote error={endpoints.error} />
      ) : endpoints.data.length === 0 ? (
        <p className="wh-muted"><FormattedMessage id="webhooks.empty" /></p>
      ) : (
        endpoints.data.map((e) => <EndpointCard key={e.id} endpoint={e} selected={selected === e.id} onSelect={() => setSelected(selected === e.id ? null : e.id)} />)
      )}
      <EndpointForm botId={botId} />
      <section>
        <h2><FormattedMessage id="webhooks.log.title" /></h2>
        <DeliveryLog botId={botId} endpointId={selected} />
      </section>
    </div>
  );
}
