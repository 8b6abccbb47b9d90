// Auth pages (basic layout) until the auth issue fills them with their forms.
import { FormattedMessage, useIntl } from "react-intl";
import { useRouteDef } from "../../app/handle";

export default function AuthPlaceholderPage() {
  const intl = useIntl();
  const def = useRouteDef();
  const provider = def?.meta?.provider;
  return (
    <div className="auth-card" data-route-id={def?.id}>
      <h1 className="auth-card__title">{intl.formatMessage({ id: def?.title ?? "page.auth.login.title" }, { provider: provider ? provider[0]!.toUpperCase() + provider.slice(1) : "" })}</h1>
      <p className="muted">
        <FormattedMessage id="placeholder.text" values={{ params: "—" }} />
      </p>
    </div>
  );
}
