// Prerender entry (Vite SSR build): renders one public URL to HTML with its head tags and
// the router's hydration data. Used only by scripts/prerender.mjs at build time.
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import { AppProviders } from "./app/App";
import { buildRoutes, routePath } from "./app/router";

export { routeManifest } from "./app/router";
import { routeTable } from "./app/routes";
import { formatTitle, renderHeadTags, type HeadStore } from "./app/head";
import { LOCALE_CODES, type LocaleCode } from "./i18n/locales";
import { setConfig } from "./lib/config";
import { createQueryClient } from "./lib/queryClient";

export interface RenderResult {
  status: number;
  html: string;
  headTags: string;
  lang: string;
  forcedColorMode?: string;
  redirect?: string;
  /** The router's loader data, for window.__staticRouterHydrationData. */
  hydrationData?: unknown;
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

export async function render(url: string, siteUrl: string): Promise<RenderResult> {
  setConfig({ siteUrl });
  const handler = createStaticHandler(buildRoutes());
  const context = await handler.query(new Request(new URL(url, siteUrl)));
  if (context instanceof Response) {
    return { status: context.status, html: "", headTags: "", lang: "en", redirect: context.headers.get("location") ?? undefined };
  }
  const router = createStaticRouter(handler.dataRoutes, context);
  const store: HeadStore = {};
  const queryClient = createQueryClient();
  const html = renderToString(
    <AppProviders queryClient={queryClient} headStore={store}>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </AppProviders>,
  );
  // Its 5-minute garbage-collection timers would otherwise keep the prerender process alive.
  queryClient.clear();
  const state = store.state ?? { title: "Parley", lang: "en", links: [] };
  const title = formatTitle(store.pageTitle ?? state.title);
  return {
    status: context.statusCode,
    html,
    headTags: renderHeadTags({ ...state, title }, escapeHtml),
    lang: state.lang,
    forcedColorMode: state.forcedColorMode,
    hydrationData: { loaderData: context.loaderData, actionData: context.actionData, errors: context.errors },
  };
}

/** Every URL to prerender: public routes marked `prerender`, in all ten languages. */
export async function prerenderUrls(): Promise<string[]> {
  const urls: string[] = [];
  for (const def of routeTable) {
    if (!def.prerender) continue;
    const paramSets = def.prerender === true ? [{}] : await def.prerender();
    for (const locale of LOCALE_CODES as LocaleCode[]) {
      for (const params of paramSets) {
        let path = routePath(def, locale);
        for (const [k, v] of Object.entries(params)) path = path.replace(k === "*" ? "*" : `:${k}`, v);
        path = path.replace("*", (params as Record<string, string>)["*"] ?? (params as Record<string, string>).slug ?? "");
        urls.push(path);
      }
    }
  }
  return urls;
}
