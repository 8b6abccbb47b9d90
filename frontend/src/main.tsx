import { StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { createBrowserRouter, matchRoutes, RouterProvider, type RouteObject } from "react-router";
import { AppProviders } from "./app/App";
import { buildRoutes } from "./app/router";
import { detectLocale, LOCALE_COOKIE, localizePath } from "./i18n/locales";
import { readCookie } from "./lib/cookies";
import { createQueryClient } from "./lib/queryClient";
import "./styles/global.css";

declare global {
  interface Window {
    __staticRouterHydrationData?: unknown;
  }
}

/** Lazy screens matched by the prerendered HTML must be loaded before hydrating it. */
async function resolveLazyMatches(routes: RouteObject[], pathname: string) {
  for (const m of matchRoutes(routes, pathname) ?? []) {
    const route = m.route;
    if (typeof route.lazy === "function") {
      Object.assign(route, await route.lazy());
      route.lazy = undefined;
    }
  }
}

async function start() {
  // A visitor landing on "/" gets the language they chose before, or their browser's.
  if (window.location.pathname === "/") {
    const locale = detectLocale(readCookie(LOCALE_COOKIE), navigator.languages ?? [navigator.language]);
    if (locale !== "en") {
      window.location.replace(localizePath("/", locale) + window.location.search + window.location.hash);
      return;
    }
  }
  const container = document.getElementById("root")!;
  const routes = buildRoutes();
  // The English home page is also the SPA fallback for every other path: only hydrate
  // prerendered markup when it was rendered for this very path.
  const prerendered = container.dataset.prerendered;
  const canHydrate = !!prerendered && prerendered === window.location.pathname && !!window.__staticRouterHydrationData;
  if (canHydrate) await resolveLazyMatches(routes, window.location.pathname);
  else {
    container.textContent = "";
    // createBrowserRouter reads window.__staticRouterHydrationData by itself when no
    // hydrationData is given: the fallback's English root data would then be reused on /de/app/...
    delete window.__staticRouterHydrationData;
  }
  const router = createBrowserRouter(routes, canHydrate ? { hydrationData: window.__staticRouterHydrationData as never } : {});
  const app = (
    <StrictMode>
      <AppProviders queryClient={createQueryClient()}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>
  );
  document.documentElement.classList.remove("shell-only");
  if (canHydrate) hydrateRoot(container, app);
  else createRoot(container).render(app);
}

void start();
