// /app/bots/:botId/power-ups: the bot's power-ups with enable/disable and call counts, and its leads.
import { FormattedMessage, FormattedNumber, useIntl } from "react-intl";
import { useParams } from "react-router";
import { ErrorNote } from "../../../components/ErrorNote";
import { LocalizedLink } from "../../../components/LocalizedLink";
import { buttonClassName, EmptyState, Loading } from "../../../components/ui";
import { usePowerUpSaveMutation } from "../../../data/powerUps/power-up-save-mutation";
import { usePowerUpsQuery } from "../../../data/powerUps/power-ups-query";
import { LeadsList } from "../../../features/powerUps/LeadsList";
import "../../../features/powerUps/powerUps.css";

export default function PowerUpsPage() {
  const { botId = "" } = useParams();
  const intl = useIntl();
  const list = usePowerUpsQuery(botId);
  const save = usePowerUpSaveMutation();
  const add = (
    <LocalizedLink className={buttonClassName({ size: "sm" })} to={`/app/bots/${botId}/power-ups/new`}>
      <FormattedMessage id="powerUps.list.add" />
    </LocalizedLink>
  );
  return (
    <div className="pu-page">
      <header className="pu-head">
        <div>
          <h1><FormattedMessage id="powerUps.list.title" /></h1>
          <p className="pu-muted"><FormattedMessage id="powerUps.list.lead" /></p>
        </div>
        {add}
      </header>
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <ErrorNote error={list.error} />
      ) : list.data.length === 0 ? (
        <EmptyState title={<FormattedMessage id="powerUps.list.empty" />} action={add} />
      ) : (
        <div className="table-scroll">
          <table className="pu-table">
            <caption className="sr-only">{intl.formatMessage({ id: "powerUps.list.title" })}</caption>
            <thead>
              <tr>
                <th scope="col"><FormattedMessage id="powerUps.col.name" /></th>
                <th scope="col"><FormattedMessage id="powerUps.col.type" /></th>
                <th scope="col"><FormattedMessage id="powerUps.col.calls" /></th>
                <th scope="col"><FormattedMessage id="powerUps.col.enabled" /></th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((p) => (
                <tr key={p.id} data-power-up={p.name}>
                  <td><LocalizedLink to={`/app/bots/${botId}/power-ups/${p.id}/settings`}>{p.label || p.name}</LocalizedLink></td>
                  <td><FormattedMessage id={`powerUps.type.${p.type}`} /></td>
                  <td><FormattedNumber value={p.call_count} /></td>
                  <td>
                    <label>
                      <input type="checkbox" checked={p.enabled} disabled={save.isPending}
                        aria-label={intl.formatMessage({ id: "powerUps.col.enabled" })}
                        onChange={(e) => save.mutate({ botId, id: p.id, enabled: e.target.checked })} />
                    </label>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {save.isError && <ErrorNote error={save.error} />}
      <LeadsList botId={botId} />
    </div>
  );
}
