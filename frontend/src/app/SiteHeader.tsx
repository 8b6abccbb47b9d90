import { FormattedMessage } from "react-intl";
import { buttonClassName } from "../components/ui";
import { LocalizedLink } from "../components/LocalizedLink";
import { ResponsiveNav } from "../features/site/ResponsiveNav";
import { LanguageSwitcher } from "../features/site/LanguageSwitcher";
import { ColorModeSwitcher } from "../features/site/ColorModeSwitcher";
import { AccountArea } from "../features/auth/AccountArea";
import { useSession } from "../lib/session";

const NAV = [
  { to: "/features", id: "nav.features" },
  { to: "/channels", id: "nav.channels" },
  { to: "/data-sources", id: "nav.dataSources" },
  { to: "/models", id: "nav.models" },
  { to: "/gallery", id: "nav.gallery" },
  { to: "/docs", id: "nav.docs" },
  { to: "/blog", id: "nav.blog" },
] as const;

export function Logo() {
  return (
    <LocalizedLink to="/" className="logo" aria-label="Parley">
      <span className="logo__mark" aria-hidden="true">P</span>
      <span className="logo__text">Parley</span>
    </LocalizedLink>
  );
}

export function SiteHeader() {
  const { status, user } = useSession();
  const visitor = status === "ready" && (!user || user.is_anonymous);
  return (
    <header className="site-header">
      <a href="#main" className="skip-link">
        <FormattedMessage id="nav.skipToContent" />
      </a>
      <div className="container site-header__inner">
        <Logo />
        <ResponsiveNav
          variant="site"
          links={NAV}
          extra={
            // On a phone the header keeps "Log in" only; "Get started" moves into the menu.
            visitor && (
              <LocalizedLink to="/app/auth/register" className={buttonClassName({ theme: "primary", size: "sm", block: true })}>
                <FormattedMessage id="nav.getStarted" />
              </LocalizedLink>
            )
          }
        />
        <HeaderActions />
      </div>
    </header>
  );
}

/** Language, colour mode and the account menu: the right end of the site's and the app's header. */
export function HeaderActions() {
  return (
    <div className="site-header__actions">
      <LanguageSwitcher />
      <ColorModeSwitcher />
      <AccountArea />
    </div>
  );
}
