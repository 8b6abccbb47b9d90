import { FormattedMessage, useIntl } from "react-intl";
import { LocalizedLink, LocalizedNavLink } from "./LocalizedLink";
import { LanguageSwitcher } from "./LanguageSwitcher";
import { ColorModeSwitcher } from "./ColorModeSwitcher";
import { AccountArea } from "../auth/AccountArea";

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
  const intl = useIntl();
  return (
    <header className="site-header">
      <a href="#main" className="skip-link">
        <FormattedMessage id="nav.skipToContent" />
      </a>
      <div className="container site-header__inner">
        <Logo />
        <nav className="site-nav" aria-label={intl.formatMessage({ id: "nav.main" })}>
          {NAV.map((item) => (
            <LocalizedNavLink key={item.to} to={item.to} className="site-nav__link">
              <FormattedMessage id={item.id} />
            </LocalizedNavLink>
          ))}
        </nav>
        <div className="site-header__actions">
          <LanguageSwitcher />
          <ColorModeSwitcher />
          <AccountArea />
        </div>
      </div>
    </header>
  );
}
