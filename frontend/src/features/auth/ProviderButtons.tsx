// "Sign in with Google / Notion", shown only for providers /auth/v1/settings reports enabled.
import { FormattedMessage } from "react-intl";
import { buttonClassName } from "../../components/ui";
import { LocalizedLink } from "../../components/LocalizedLink";
import { useAuthSettingsQuery } from "../../data/auth/auth-settings-query";
import { useAuthDeps } from "./deps";

export const PROVIDERS = [
  { id: "google", label: "Google" },
  { id: "notion", label: "Notion" },
] as const;

export function ProviderButtons({ redirect }: { redirect: string }) {
  const { settings } = useAuthDeps();
  const { data } = useAuthSettingsQuery(settings);
  const enabled = PROVIDERS.filter((p) => data?.external?.[p.id] === true);
  if (enabled.length === 0) return null;
  return (
    <>
      <div className="auth-divider">
        <FormattedMessage id="auth.login.or" />
      </div>
      <div className="auth-providers">
        {enabled.map((p) => (
          <LocalizedLink
            key={p.id}
            to={`/app/auth/providers/${p.id}?redirect=${encodeURIComponent(redirect)}`}
            className={buttonClassName({ theme: "white", block: true })}
          >
            <FormattedMessage id="auth.provider.signInWith" values={{ provider: p.label }} />
          </LocalizedLink>
        ))}
      </div>
    </>
  );
}
