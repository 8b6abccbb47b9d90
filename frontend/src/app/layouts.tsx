// The nine named layouts. A route picks one in the route table.
import type { ComponentType } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { Outlet } from "react-router";
import { SiteHeader, Logo } from "../features/site/SiteHeader";
import { SiteFooter } from "../features/site/SiteFooter";
import { LanguageSwitcher } from "../features/site/LanguageSwitcher";
import { ColorModeSwitcher } from "../features/site/ColorModeSwitcher";
import { LocalizedLink, LocalizedNavLink } from "../features/site/LocalizedLink";
import { DocsNav } from "../features/content/DocsNav";
import { AccountArea } from "../features/auth/AccountArea";
import type { LayoutName } from "./routes";

function DefaultLayout() {
  return (
    <div className="layout layout--default">
      <SiteHeader />
      <main id="main" className="layout__main">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}

function GalleryLayout() {
  return (
    <div className="layout layout--gallery">
      <SiteHeader />
      <main id="main" className="layout__main container container--wide">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}

function DocsLayout() {
  return (
    <div className="layout layout--docs">
      <SiteHeader />
      <div className="container docs-grid">
        <DocsNav />
        <main id="main" className="docs-main">
          <Outlet />
        </main>
      </div>
      <SiteFooter />
    </div>
  );
}

function BasicLayout() {
  return (
    <div className="layout layout--basic">
      <header className="basic-header">
        <Logo />
        <div className="site-header__actions">
          <LanguageSwitcher />
          <ColorModeSwitcher />
        </div>
      </header>
      <main id="main" className="basic-main">
        <Outlet />
      </main>
    </div>
  );
}

const APP_NAV = [
  { to: "/app/bots", id: "appNav.bots" },
  { to: "/app/my-chats", id: "appNav.myChats" },
  { to: "/app/billing", id: "appNav.billing" },
  { to: "/app/account", id: "appNav.account" },
] as const;

function AppHeader() {
  const intl = useIntl();
  return (
    <header className="app-header">
      <div className="app-header__inner">
        <Logo />
        <nav className="app-nav" aria-label={intl.formatMessage({ id: "nav.main" })}>
          {APP_NAV.map((item) => (
            <LocalizedNavLink key={item.to} to={item.to} className="app-nav__link">
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

function appLayout(variant: "app" | "app-wide" | "app-full" | "app-full-flex-col"): ComponentType {
  function AppLayout() {
    if (variant === "app-full" || variant === "app-full-flex-col") {
      return (
        <div className={`layout layout--${variant}`}>
          {variant === "app-full" && (
            <header className="app-header app-header--slim">
              <div className="app-header__inner">
                <Logo />
                <LocalizedLink to="/app/bots" className="muted">
                  <FormattedMessage id="appNav.backToBots" />
                </LocalizedLink>
              </div>
            </header>
          )}
          <main id="main" className="layout__main layout__main--fill">
            <Outlet />
          </main>
        </div>
      );
    }
    return (
      <div className={`layout layout--${variant}`}>
        <AppHeader />
        <main id="main" className={`layout__main container${variant === "app-wide" ? " container--wide" : ""}`}>
          <Outlet />
        </main>
      </div>
    );
  }
  AppLayout.displayName = `Layout(${variant})`;
  return AppLayout;
}

function NoLayout() {
  return <Outlet />;
}

export const layoutComponents: Record<LayoutName, ComponentType> = {
  app: appLayout("app"),
  "app-full": appLayout("app-full"),
  "app-full-flex-col": appLayout("app-full-flex-col"),
  "app-wide": appLayout("app-wide"),
  basic: BasicLayout,
  default: DefaultLayout,
  docs: DocsLayout,
  gallery: GalleryLayout,
  none: NoLayout,
};
