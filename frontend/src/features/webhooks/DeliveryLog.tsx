// The delivery log: event, status, attempts, response, next retry; payload on demand; redeliver.
import { FormattedDate, FormattedMessage, useIntl } from "react-intl";
import { ErrorNote } from "../../components/ErrorNote";
import { StoredError } from "../../components/StoredError";
import { Button, Loading } from "../../components/ui";
import { useWebhookActionMutation } from "../../data/webhooks/webhook-actions-mutation";
import { useWebhookDeliveriesQuery } from "../../data/webhooks/webhook-deliveries-query";
import { deliveryErrorMessage } from "../../lib/errors";

const when = (iso: string) => <FormattedDate value={iso} dateStyle="medium" timeStyle="medium" />;

export function DeliveryLog({ botId, endpointId }: { botId: string; endpointId: string | null }) {
  const intl = useIntl();
  const deliveries = useWebhookDeliveriesQuery(botId, endpointId);
  const action = useWebhookActionMutation();
  if (deliveries.isPending) return <Loading />;
  if (deliveries.isError) return <ErrorNote error={deliveries.error} />;
  if (deliveries.data.length === 0) return <p className="wh-muted"><FormattedMessage id="webhooks.log.empty" /></p>;
  return (
    <div role="region" tabIndex={0} aria-label={intl.formatMessage({ id: "webhooks.log.title" })} style={{ overflowX: "auto" }}>
      {action.isError && <ErrorNote error={action.error} />}
      <table className="wh-table">
        <thead>
          <tr>
            <th scope="col"><FormattedMessage id="webhooks.log.event" /></th>
            <th scope="col"><FormattedMessage id="webhooks.log.status" /></th>
            <th scope="col"><FormattedMessage id="webhooks.log.attempts" /></th>
            <th scope="col"><FormattedMessage id="webhooks.log.response" /></th>
            <th scope="col"><FormattedMessage id="webhooks.log.nextRetry" /></th>
            <th scope="col"><span className="sr-only"><FormattedMessage id="webhooks.log.actions" /></span></th>
          </tr>
        </thead>
        <tbody>
          {deliveries.data.map((d) => (
            <tr key={d.id} data-delivery-status={d.status}>
              <td>
                <code>{d.webhook_events?.type}</code>
                <div className="wh-muted">{when(d.created_at)}</div>
                <details>
                  <summary><FormattedMessage id="webhooks.log.payload" /></summary>
                  <pre className="wh-pre">{JSON.stringify({ id: d.event_id, type: d.webhook_events?.type, version: d.webhook_events?.version, data: d.webhook_events?.data }, null, 2)}</pre>
                </details>
              </td>
              <td><FormattedMessage id={`webhooks.status.${d.status}`} /></td>
              <td>{d.attempt}</td>
              <td>
                {d.response_status ?? "—"}
                {d.error && <StoredError className="wh-muted" text={d.error} message={deliveryErrorMessage} />}
                {d.response_excerpt && <pre className="wh-pre">{d.response_excerpt}</pre>}
              </td>
              <td>{d.status === "pending" ? when(d.next_attempt_at) : "—"}</td>
              <td>
                {d.status !== "pending" && (
                  <Button size="sm" theme="secondary" onClick={() => action.mutate({ kind: "redeliver", deliveryId: d.id, botId })}>
                    <FormattedMessage id="webhooks.log.redeliver" />
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
