// Turns the route table into react-router route objects: ten variants per entry (English
// without prefix, the others under /de, /es...), grouped under their layout, each with one
// loader that runs, in order: the redirect table, the validation rule, the guard, then the
// screen's own loader. The lazily loaded screen is reloaded once after a deploy.
import { redirect, redirectDocument, type LoaderFunctionArgs, type RouteObject } from "react-router";
import { LOCALE_CODES, localeFromPath, localizePath, type LocaleCode } from "../i18n/locales";
import { loadMessages } from "../i18n/messages";
import { importWithReload } from "./chunkReload";
import { createGuards, resolveGuard, type Guard } from "./guards";
import { layoutComponents } from "./layouts";
import { findRedirect, redirectRules } from "./redirects";
import { routeTable, type LayoutName, type RouteDef, type RouteModule } from "./routes";
import { validateParams, VALIDATION_PATTERNS, type ParamRules } from "./validation";
import { Root } from "./Root";
import { Shell } from "./Shell";
import { ErrorPage } from "./ErrorPage";
import { invalidParams, notFound } from "./errors";
import type { RouteHandle } from "./handle";

export interface RouterOptions {
  table?: readonly RouteDef[];
  guards?: Record<string, Guard>;
}


/** Follows the redirect table; throws the redirect response when a rule matches. */
function applyRedirects(url: URL): void {
  const target = findRedirect(url.pathname);
  if (!target) return;
  throw target.external ? redirectDocument(target.to) : redirect(target.to + url.search);
}

export function routePath(def: RouteDef, locale: LocaleCode): string {
  return localizePath(def.path, locale);
}

function moduleLoader(def: RouteDef): () => Promise<RouteModule> {
  return () => importWithReload(def.component);
}

function pageRoute(def: RouteDef, locale: LocaleCode, guards: Record<string, Guard>): RouteObject {
  const load = moduleLoader(def);
  return {
    id: `${locale}:${def.id}`,
    path: routePath(def, locale),
    handle: { def, locale } satisfies RouteHandle,
    loader: async (args: LoaderFunctionArgs) => {
      const url = new URL(args.request.url);
      applyRedirects(url);
      if (!validateParams(def.validate, args.params)) invalidParams(url.pathname);
      if (def.guard !== undefined) await resolveGuard(guards, def.guard)({ request: args.request, params: args.params, locale });
      const mod = await load();
      return mod.loader ? await mod.loader({ ...args, def, locale }) : null;
    },
    lazy: async () => ({ Component: (await load()).default }),
  };
}

/** Shown while the first client-rendered page loads its language and data. */
function RootFallback() {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
    </div>
  );
}

function Empty() {
  return null;
}

export function buildRoutes(options: RouterOptions = {}): RouteObject[] {
  const table = options.table ?? routeTable;
  const guards = options.guards ?? createGuards();
  const byLayout = new Map<LayoutName, RouteObject[]>();
  for (const def of table) {
    const list = byLayout.get(def.layout) ?? [];
    for (const locale of LOCALE_CODES) list.push(pageRoute(def, locale, guards));
    byLayout.set(def.layout, list);
  }
  const layoutRoutes: RouteObject[] = [...byLayout].map(([layout, children]) => ({
    id: `layout:${layout}`,
    Component: layoutComponents[layout],
    children,
  }));
  return [
    {
      id: "root",
      path: "/",
      Component: Root,
      ErrorBoundary: ErrorPage,
      HydrateFallback: RootFallback,
      loader: async ({ request }) => {
        const locale = localeFromPath(new URL(request.url).pathname);
        return { locale, messages: await loadMessages(locale) };
      },
      // Messages only change with the language.
      shouldRevalidate: ({ currentUrl, nextUrl }) => localeFromPath(currentUrl.pathname) !== localeFromPath(nextUrl.pathname),
      children: [
        {
          id: "shell",
          Component: Shell,
          ErrorBoundary: ErrorPage,
          children: [
            ...layoutRoutes,
            {
              id: "not-found",
              path: "*",
              Component: Empty,
              loader: ({ request }) => {
                const url = new URL(request.url);
                applyRedirects(url);
                return notFound(url.pathname);
              },
            },
          ],
        },
      ],
    },
  ];
}

/** One page route of the manifest: a full react-router path ("/de/blog/:slug") and its rules. */
export interface ManifestRoute {
  id: string;
  path: string;
  validate?: ParamRules;
}

/**
 * What the app server needs to answer unknown URLs with a 404 (stack/src/app.ts): every page
 * route in all languages in react-router's own order (the depth-first order of the route tree,
 * which breaks ties between equally ranked paths), the validation rules as regular
 * expressions, and the sources of the redirect table (those pages redirect in the browser).
 */
export interface RouteManifest {
  version: 1;
  rules: Record<string, string>;
  routes: ManifestRoute[];
  redirects: { from: string; prefix: boolean }[];
}

export function routeManifest(options: RouterOptions = {}): RouteManifest {
  const routes: ManifestRoute[] = [];
  const walk = (list: RouteObject[]) => {
    for (const route of list) {
      if (route.children) walk(route.children);
      const def = (route.handle as RouteHandle | undefined)?.def;
      if (def && route.path !== undefined) routes.push({ id: route.id!, path: route.path, ...(def.validate ? { validate: def.validate } : {}) });
    }
  };
  walk(buildRoutes({ guards: {}, ...options }));
  const redirects = redirectRules.flatMap((rule) => {
    const prefix = rule.from.endsWith("/**");
    const from = prefix ? rule.from.slice(0, -3) : rule.from;
    return LOCALE_CODES.map((locale) => ({ from: localizePath(from, locale), prefix }));
  });
  return { version: 1, rules: { ...VALIDATION_PATTERNS }, routes, redirects };
}
