import { useEffect } from "react";
import { IntlProvider } from "react-intl";
import { Outlet, useLoaderData, useMatches } from "react-router";
import { langOf, type LocaleCode } from "../i18n/locales";
import type { Messages } from "../i18n/messages";
import { ColorModeProvider } from "../lib/ColorModeProvider";
import { handleOf } from "./handle";
import { ConsentBanner } from "../features/consent/ConsentBanner";
import { AnalyticsTracker } from "../features/analytics/AnalyticsTracker";
import { ToastProvider } from "../components/ui/Toast";

export interface RootData {
  locale: LocaleCode;
  messages: Messages;
}

function ignoreMissing(err: { code?: string }) {
  // Missing ids fall back to English ids' defaults; the locale test keeps files complete.
  if (err.code !== "MISSING_TRANSLATION" && import.meta.env.DEV) console.warn(err);
}

export function Root() {
  const { locale, messages } = useLoaderData() as RootData;
  const matches = useMatches();
  const leaf = [...matches].reverse().map((m) => handleOf(m.handle)).find(Boolean);
  // Embeds live in iframes on customers' sites: no cookie banner over their page (and
  // without consent there, no analytics either).
  const embedded = leaf?.def.id === "bots.embed" || leaf?.def.id === "bots.embed-center";
  useEffect(() => {
    // Marks the page interactive (hydrated or client-rendered); browser tests wait for it.
    document.documentElement.dataset.hydrated = "";
  }, []);
  return (
    <IntlProvider locale={langOf(locale)} messages={messages} defaultLocale="en" onError={ignoreMissing}>
      <ColorModeProvider forced={leaf?.def.colorMode}>
        <ToastProvider>
          <Outlet />
          {!embedded && <ConsentBanner />}
          <AnalyticsTracker />
        </ToastProvider>
      </ColorModeProvider>
    </IntlProvider>
  );
}
