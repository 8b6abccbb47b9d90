// /app/auth/providers/{google|notion}: starts the OAuth sign-in (PKCE) and remembers where
// the user was heading; the callback page finishes it. With ?connect=1 (Notion only) it
// instead connects a Notion workspace to a data source, without touching the session.
import { useEffect, useState } from "react";
import { FormattedMessage } from "react-intl";
import { useSearchParams } from "react-router";
import type { Provider } from "@supabase/supabase-js";
import { buttonClassName, Loading } from "../../components/ui";
import { useRouteDef } from "../../app/handle";
import { LocalizedLink, useLocale } from "../../components/LocalizedLink";
import { AuthCard, FailureText, FormAlert } from "../../features/auth/ui";
import { useAuthDeps } from "../../features/auth/deps";
import { useSiteUrl } from "../../features/auth/useAuthClient";
import { defaultAfterLogin, rememberHeading, safeRedirect } from "../../lib/redirect";
import { toFailure, type AuthFailure } from "../../features/auth/errors";
import { PROVIDERS } from "../../features/auth/ProviderButtons";
import { NotionConnectStart } from "./notion-connect";

export default function ProviderStartPage() {
  const def = useRouteDef();
  const [params] = useSearchParams();
  if (def?.meta?.provider === "notion" && params.get("connect") === "1") return <NotionConnectStart redirect={params.get("redirect")} />;
  return <SignInStart />;
}

function SignInStart() {
  const def = useRouteDef();
  const provider = PROVIDERS.find((p) => p.id === def?.meta?.provider);
  const [params] = useSearchParams();
  const locale = useLocale();
  const siteUrl = useSiteUrl();
  const { client, settings } = useAuthDeps();
  const [failure, setFailure] = useState<AuthFailure | null>(null);
  const redirect = params.get("redirect");

  useEffect(() => {
    if (!provider) return;
    let cancelled = false;
    (async () => {
      const s = await settings().catch(() => null);
      if (s && s.external?.[provider.id] !== true) throw { code: "provider_disabled" };
      rememberHeading(safeRedirect(redirect, defaultAfterLogin(locale)));
      const supabase = await client();
      const { error } = await supabase.auth.signInWithOAuth({
        provider: provider.id as Provider,
        options: { redirectTo: siteUrl(`/app/auth/providers/${provider.id}/callback`) },
      });
      if (error) throw error;
    })().catch((err) => !cancelled && setFailure(toFailure(err)));
    return () => {
      cancelled = true;
    };
  }, [provider, redirect, locale, siteUrl, client, settings]);

  return (
    <AuthCard titleValues={{ provider: provider?.label ?? "" }}>
      {failure || !provider ? (
        <>
          <FormAlert testId="provider-error">
            <FailureText failure={failure ?? { code: "provider_disabled" }} />
          </FormAlert>
          <LocalizedLink to="/app/auth/login" className={buttonClassName({ block: true, theme: "secondary" })}>
            <FormattedMessage id="auth.register.backToLogin" />
          </LocalizedLink>
        </>
      ) : (
        <>
          <p className="auth-card__lead">
            <FormattedMessage id="auth.provider.redirecting" values={{ provider: provider.label }} />
          </p>
          <Loading />
        </>
      )}
    </AuthCard>
  );
}
