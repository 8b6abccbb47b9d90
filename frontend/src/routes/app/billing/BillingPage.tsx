// /app/billing — the team's plan, usage, plan changes and invoices (owners).
import { FormattedMessage } from "react-intl";
import { ErrorNote } from "../../../components/ErrorNote";
import { useLocale } from "../../../components/LocalizedLink";
import { Loading } from "../../../components/ui";
import { BillingOverview } from "../../../features/billing/BillingOverview";
import { useBillingTeam } from "./teamParam";

export default function BillingPage() {
  const locale = useLocale();
  const { pending, team, error } = useBillingTeam();
  return (
    <div>
      <h1><FormattedMessage id="billing.title" /></h1>
      {team && <p className="billing-muted"><FormattedMessage id="billing.team" values={{ team: team.name }} /></p>}
      {pending ? <Loading /> : error ? <ErrorNote error={error} /> : team ? (
        team.role === "owner"
          ? <BillingOverview teamId={team.id} locale={locale} />
          : <p className="billing-note"><FormattedMessage id="billing.ownersOnly" /></p>
      ) : null}
    </div>
  );
}
