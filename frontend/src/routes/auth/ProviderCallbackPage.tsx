// /app/auth/providers/{google|notion}/callback: finish the PKCE exchange, then go where the
// user was heading. Shopify and Nylas callbacks are not available in Parley (yet).
// Notion also returns here from connecting a workspace to a data source: Notion itself
// redirects with ?code&state (GoTrue's PKCE redirect never carries a state).
import { useEffect } from "react";
import { FormattedMessage } from "react-intl";
import { useNavigate, useSearchParams } from "react-router";
import { buttonClassName, Loading } from "../../components/ui";
import { useRouteDef } from "../../app/handle";
import { LocalizedLink, useLocale, useLocalePath } from "../../components/LocalizedLink";
import { AuthCard, FailureText, FormAlert } from "../../features/auth/ui";
import { useLandingSession } from "../../features/auth/useLandingSession";
import { defaultAfterLogin, safeRedirect, takeHeading } from "../../lib/redirect";
import { PROVIDERS } from "../../features/auth/ProviderButtons";
import { NotionConnectCallback } from "./notion-connect";

function NotAvailable({ provider }: { provider: string }) {
  return (
    <AuthCard title="auth.provider.notAvailableTitle" titleValues={{ provider }}>
      <FormAlert tone="info" testId="provider-unavailable">
        <FormattedMessage id="auth.provider.notAvailable" values={{ provider }} />
      </FormAlert>
      <LocalizedLink to="/" className={buttonClassName({ block: true, theme: "secondary" })}>
        <FormattedMessage id="auth.provider.home" />
      </LocalizedLink>
    </AuthCard>
  );
}

function Callback() {
  const state = useLandingSession();
  const navigate = useNavigate();
  const locale = useLocale();
  const lp = useLocalePath();
  useEffect(() => {
    if (state.status !== "session") return;
    const target = safeRedirect(takeHeading(), defaultAfterLogin(locale));
    // An account with a second factor gives its code before it enters (the guards would ask too).
    navigate(state.secondFactor ? `${lp("/app/auth/mfa")}?redirect=${encodeURIComponent(target)}` : target, { replace: true });
  }, [state, navigate, locale, lp]);
  if (state.status === "error" || state.status === "none") {
    return (
      <AuthCard>
        <FormAlert testId="callback-error">
          <FailureText
            failure={state.status === "error" ? state.failure : { code: "session_not_found" }}
            headline="auth.login.failed"
          />
        </FormAlert>
        <LocalizedLink to="/app/auth/login" className={buttonClassName({ block: true, theme: "secondary" })}>
          <FormattedMessage id="auth.register.backToLogin" />
        </LocalizedLink>
      </AuthCard>
    );
  }
  return (
    <AuthCard>
      <Loading />
    </AuthCard>
  );
}

export default function ProviderCallbackPage() {
  const def = useRouteDef();
  const [params] = useSearchParams();
  const id = def?.meta?.provider ?? "";
  if (id === "notion" && params.has("state")) return <NotionConnectCallback />;
  if (!PROVIDERS.some((p) => p.id === id))
    return <NotAvailable provider={id ? id[0]!.toUpperCase() + id.slice(1) : ""} />;
  return <Callback />;
}
