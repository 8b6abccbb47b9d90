// The visitor's entry (visitor.html): the hosted chat page and the embeds, without the app's
// router, layouts and screens. It loads React, react-intl with this language's compiled chat
// messages, react-query, the chat screen and supabase-js' PostgREST part; auth, storage and
// realtime come when needed (lib/lean-supabase.ts), the cookie banner and analytics after the chat shows.
// visitor.html's head (vite.config.ts visitorHead) preloads this language's message chunks and
// asks for the bot while this file downloads (early-bot.ts), so the composer waits for no
// round trip after the entry has run.
// The same screens also run inside the app (routes/bots) when it navigates to them.
import { lazy, StrictMode, Suspense, useEffect, useMemo, useState, useSyncExternalStore } from "react";
import { createRoot } from "react-dom/client";
import { IntlProvider, useIntl } from "react-intl";
import { QueryClientProvider } from "@tanstack/react-query";
import { langOf, localeFromPath, type LocaleCode } from "../i18n/locales";
import type { Messages } from "../i18n/messages";
import { createQueryClient } from "../lib/queryClient";
import { SessionProvider } from "../lib/session";
import { announceSupabaseClient, setSupabaseLoader } from "../lib/supabase-ready";
import { hasConsent, onConsentChange, readConsent, type ConsentChoice } from "../lib/consent";
import { getConfig } from "../lib/config";
import { ToastProvider } from "../components/ui/Toast";
import { ChatView } from "../features/chat/ChatView";
import { EmbedChat } from "../features/chat/EmbedChat";
import { ChatNavContext } from "../features/chat/nav";
import { botKeys } from "../data/bots/keys";
import { importWithReload } from "../app/chunkReload";
import { BRAND, formatTitle } from "../app/head";
import { createLeanClient } from "../lib/lean-supabase";
import { publicBotEarly } from "./early-bot";
import { loadVisitorMessages } from "./messages";
import { chatNav, locationSnapshot, navigate, subscribeLocation } from "./nav";
import { visitorScreen, type VisitorScreen } from "./paths";
import "../styles/global.css";
import "../features/site/site-nav.css";

const ConsentBanner = lazy(() =>
  importWithReload(() => import("../features/consent/ConsentBanner")).then((m) => ({ default: m.ConsentBanner })),
);

function BackToApp({ botId, search }: { botId: string; search: string }) {
  const intl = useIntl();
  const locale = localeFromPath(window.location.pathname);
  // Shown when the app linked here (`?from=app`, features/site/BackToApp in the app).
  if (new URLSearchParams(search).get("from") !== "app") return null;
  return (
    <nav className="back-to-app" aria-label={BRAND}>
      <a href={`${locale === "en" ? "" : `/${locale}`}/app/bots/${botId}`}>
        <span aria-hidden="true">← </span>
        {intl.formatMessage({ id: "nav.backToBot" })}
      </a>
    </nav>
  );
}

/** Page views with the visitor's consent, as the app's AnalyticsTracker counts them. */
function useAnalytics(pathname: string, search: string) {
  const [consent, setConsent] = useState<ConsentChoice | null>(null);
  useEffect(() => {
    setConsent(readConsent());
    return onConsentChange(setConsent);
  }, []);
  const pageViews = hasConsent(consent, "analytics");
  const product = hasConsent(consent, "product-analytics") && !!getConfig().posthogKey;
  useEffect(() => {
    if (pageViews) void import("../lib/analytics").then((m) => m.trackPageView());
    if (product) void import("../lib/posthog").then((m) => m.posthogPageView());
  }, [pathname, search, pageViews, product]);
}

function Screen({ screen, search }: { screen: VisitorScreen; search: string }) {
  const intl = useIntl();
  const embedded = screen.kind !== "page";
  useEffect(() => {
    document.title = formatTitle(
      intl.formatMessage({ id: embedded ? "page.bots.embed.title" : "page.bots.chat.title" }),
    );
  }, [intl, embedded]);
  if (screen.kind !== "page") return <EmbedChat botId={screen.botId} variant={screen.kind} />;
  return (
    <div className="layout layout--app-full-flex-col">
      <main id="main" className="layout__main layout__main--fill">
        <BackToApp botId={screen.botId} search={search} />
        <ChatView botId={screen.botId} chatId={screen.chatId} variant="page" />
      </main>
    </div>
  );
}

function VisitorApp() {
  const location = useSyncExternalStore(subscribeLocation, locationSnapshot);
  const nav = useMemo(() => chatNav(location), [location]);
  const screen = visitorScreen(location.pathname);
  useAnalytics(location.pathname, location.search);
  useEffect(() => {
    // Marks the page interactive, as the app's Root does; browser tests wait for it.
    document.documentElement.dataset.hydrated = "";
  }, []);
  if (!screen) return null;
  return (
    <ChatNavContext.Provider value={nav}>
      <Screen screen={screen} search={location.search} />
      {/* Embeds live in iframes on customers' sites: no cookie banner over their page. */}
      {screen.kind === "page" && (
        <Suspense fallback={null}>
          <ConsentBanner />
        </Suspense>
      )}
    </ChatNavContext.Provider>
  );
}

function ignoreMissing(err: { code?: string }) {
  if (err.code !== "MISSING_TRANSLATION" && import.meta.env.DEV) console.warn(err);
}

type SessionLoader = NonNullable<Parameters<typeof SessionProvider>[0]["load"]>;

function render(
  locale: LocaleCode,
  messages: Messages,
  queryClient: ReturnType<typeof createQueryClient>,
  load: SessionLoader,
  whenCreated: (cb: () => void) => () => void,
) {
  document.documentElement.lang = langOf(locale);
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <SessionProvider load={load} whenCreated={whenCreated} readyWithoutSession>
          <IntlProvider locale={langOf(locale)} messages={messages} defaultLocale="en" onError={ignoreMissing}>
            <ToastProvider>
              <VisitorApp />
            </ToastProvider>
          </IntlProvider>
        </SessionProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
}

function start() {
  const screen = visitorScreen(window.location.pathname);
  if (!screen) {
    // Not a visitor's page (a server that gives every path this file): the app's own page.
    navigate(window.location.href, { replace: true });
    return;
  }
  const locale = localeFromPath(window.location.pathname);
  // The messages and the bot are fetched at once, side by side, before React renders.
  const messages = loadVisitorMessages(locale);
  const queryClient = createQueryClient();
  // The session state follows the lean client, never the app's (lib/supabase.ts, all of supabase-js).
  let load: SessionLoader = () => Promise.reject(new Error("Supabase is not configured"));
  try {
    const { client } = createLeanClient();
    setSupabaseLoader(async () => client);
    announceSupabaseClient(client);
    load = async () => ({ getSupabase: () => client });
    void queryClient.prefetchQuery({
      queryKey: botKeys.public(screen.botId),
      queryFn: () => publicBotEarly(screen.botId),
      staleTime: 60_000,
    });
  } catch {
    // Not configured: the chat shows its error when it reads the bot.
  }
  // The session follows the lean client from the start: its auth part tells it once loaded.
  const whenCreated = (cb: () => void) => {
    cb();
    return () => undefined;
  };
  void messages.then((m) => render(locale, m, queryClient, load, whenCreated));
}

start();
