// /app/bots/:botId/power-ups/new: start from a template (its texts in the interface language),
// then adjust it on the settings page. A template's name gets a number when the bot has it already.
import { FormattedMessage, useIntl } from "react-intl";
import { useNavigate, useParams } from "react-router";
import { ErrorNote } from "../../../components/ErrorNote";
import { useLocalePath } from "../../../components/LocalizedLink";
import { usePowerUpSaveMutation } from "../../../data/powerUps/power-up-save-mutation";
import { usePowerUpsQuery } from "../../../data/powerUps/power-ups-query";
import { freeName, template, TEMPLATE_IDS } from "../../../features/powerUps/templates";
import "../../../features/powerUps/powerUps.css";

export default function NewPowerUpPage() {
  const { botId = "" } = useParams();
  const intl = useIntl();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const save = usePowerUpSaveMutation();
  const existing = usePowerUpsQuery(botId);
  return (
    <div className="pu-page">
      <header>
        <h1><FormattedMessage id="powerUps.new.title" /></h1>
        <p className="pu-muted"><FormattedMessage id="powerUps.new.lead" /></p>
      </header>
      <div className="pu-templates">
        {TEMPLATE_IDS.map((id) => (
          <button key={id} type="button" className="pu-template" data-template={id} disabled={save.isPending || existing.isPending}
            onClick={() => {
              const start = template(id, (message) => intl.formatMessage({ id: message }));
              const name = freeName(start.name, (existing.data ?? []).map((p) => p.name));
              save.mutate({ botId, ...start, name }, { onSuccess: (row) => navigate(localePath(`/app/bots/${botId}/power-ups/${row.id}/settings`)) });
            }}>
            <strong><FormattedMessage id={`powerUps.template.${id}.title`} /></strong>
            <p className="pu-muted"><FormattedMessage id={`powerUps.template.${id}.text`} /></p>
          </button>
        ))}
      </div>
      {existing.isError && <ErrorNote error={existing.error} />}
      {save.isError && <ErrorNote error={save.error} />}
    </div>
  );
}
