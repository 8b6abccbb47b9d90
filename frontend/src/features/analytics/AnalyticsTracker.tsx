// Page views after each route change, only with the visitor's consent: privacy-friendly
// page views ("analytics") and, when a key is configured, PostHog ("product-analytics"),
// which also follows sign-in and sign-out.
import { useEffect, useState } from "react";
import { useLocation } from "react-router";
import { hasConsent, onConsentChange, readConsent, type ConsentChoice } from "../../lib/consent";
import { trackPageView } from "../../lib/analytics";
import { getConfig } from "../../lib/config";
import { posthogPageView, posthogSignedIn, posthogSignedOut } from "../../lib/posthog";
import { loadSupabase } from "../../lib/supabase-ready";

export function AnalyticsTracker() {
  const location = useLocation();
  const [consent, setConsent] = useState<ConsentChoice | null>(null);

  useEffect(() => {
    setConsent(readConsent());
    return onConsentChange(setConsent);
  }, []);

  const pageViews = hasConsent(consent, "analytics");
  const product = hasConsent(consent, "product-analytics") && !!getConfig().posthogKey;

  useEffect(() => {
    if (pageViews) void trackPageView();
    if (product) void posthogPageView();
  }, [location.pathname, location.search, pageViews, product]);

  useEffect(() => {
    if (!product) return;
    let unsubscribe: (() => void) | undefined;
    let cancelled = false;
    loadSupabase()
      .then((client) => {
        if (cancelled) return;
        const { data } = client.auth.onAuthStateChange((event, session) => {
          if ((event === "SIGNED_IN" || event === "INITIAL_SESSION") && session?.user && !session.user.is_anonymous) {
            void posthogSignedIn({ id: session.user.id, email: session.user.email });
          } else if (event === "SIGNED_OUT") void posthogSignedOut();
        });
        unsubscribe = () => data.subscription.unsubscribe();
      })
      .catch(() => {
        /* analytics never breaks the app */
      });
    return () => {
      cancelled = true;
      unsubscribe?.();
    };
  }, [product]);

  return null;
}
