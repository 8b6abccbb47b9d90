// /app/bots/:botId/power-ups/new: start from a template, then adjust it on the settings page.
import { FormattedMessage } from "react-intl";
import { useNavigate, useParams } from "react-router";
import { ErrorNote } from "../../../components/ErrorNote";
import { useLocalePath } from "../../../components/LocalizedLink";
import { usePowerUpSaveMutation } from "../../../data/powerUps/power-up-save-mutation";
import { template, TEMPLATE_IDS } from "../../../features/powerUps/templates";
import "../../../features/powerUps/powerUps.css";

export default function NewPowerUpPage() {
  const { botId = "" } = useParams();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const save = usePowerUpSaveMutation();
  return (
    <div className="pu-page">
      <header>
        <h1><FormattedMessage id="powerUps.new.title" /></h1>
        <p className="pu-muted"><FormattedMessage id="powerUps.new.lead" /></p>
      </header>
      <div className="pu-templates">
        {TEMPLATE_IDS.map((id) => (
          <button key={id} type="button" className="pu-template" data-template={id} disabled={save.isPending}
            onClick={() =>
              save.mutate({ botId, ...template(id) }, { onSuccess: (row) => navigate(localePath(`/app/bots/${botId}/power-ups/${row.id}/settings`)) })}>
            <strong><FormattedMessage id={`powerUps.template.${id}.title`} /></strong>
            <p className="pu-muted"><FormattedMessage id={`powerUps.template.${id}.text`} /></p>
          </button>
        ))}
      </div>
      {save.isError && <ErrorNote error={save.error} />}
    </div>
  );
}
