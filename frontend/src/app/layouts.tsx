// The nine named layouts. A route picks one in the route table.
import { useMemo, type ComponentType } from "react";
import { FormattedMessage } from "react-intl";
import { Outlet } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { adminAccess } from "../data/auth/mfa";
import { HeaderActions, SiteHeader, Logo } from "./SiteHeader";
import { SiteFooter } from "./SiteFooter";
import { LanguageSwitcher } from "../features/site/LanguageSwitcher";
import { ColorModeSwitcher } from "../features/site/ColorModeSwitcher";
import { LocalizedLink } from "../components/LocalizedLink";
import { ResponsiveNav, type NavEntry } from "../features/site/ResponsiveNav";
import { DocsNav } from "../features/content/DocsNav";
import { useSession } from "../lib/session";
import { useAuthDeps } from "../features/auth/deps";
import { WaitingForHumanBadge } from "../features/conversations/WaitingForHumanBadge";
import { useCurrentTeam } from "../features/teams/currentTeam";
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

const APP_NAV: readonly NavEntry[] = [
  { to: "/app/bots", id: "appNav.bots" },
  { to: "/app/conversations/all", id: "appNav.conversations" },
  { to: "/app/my-chats", id: "appNav.myChats" },
  { to: "/app/billing", id: "appNav.billing" },
  { to: "/app/account", id: "appNav.account" },
];
const ADMIN_NAV: NavEntry = { to: "/app/admin", id: "appNav.admin" };

/**
 * Is the signed-in user a platform administrator? One request per user and session (cached
 * for good under the user's id); false while it runs and on any error, so the entry only
 * appears once the answer is yes. An administrator whose session has no second factor yet
 * (admin_access 'aal2_required') sees the entry too: the admin guard leads them to set one up.
 */
function useIsPlatformAdmin(): boolean {
  const { user } = useSession();
  const { client } = useAuthDeps();
  const userId = user && !user.is_anonymous ? user.id : null;
  const { data } = useQuery({
    queryKey: ["is_platform_admin", userId],
    enabled: userId !== null,
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
    queryFn: async () => (await adminAccess(await client())) !== "none",
  });
  return data === true;
}

/** APP_NAV with the count of the current team's chats waiting for a person on "Conversations". */
function useAppNav(): readonly NavEntry[] {
  const { team } = useCurrentTeam();
  return useMemo(
    () => APP_NAV.map((e) => (e.id === "appNav.conversations" ? { ...e, badge: <WaitingForHumanBadge teamId={team?.id} /> } : e)),
    [team?.id],
  );
}

function AppHeader() {
  const isAdmin = useIsPlatformAdmin();
  const nav = useAppNav();
  return (
    <header className="app-header">
      <div className="app-header__inner">
        <Logo />
        <ResponsiveNav variant="app" links={isAdmin ? [...nav, ADMIN_NAV] : nav} />
        <HeaderActions />
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
