// Product analytics with posthog-js, loaded only when a key is configured and the visitor
// accepted product analytics. Every failure is swallowed: analytics never breaks the app.
import type { PostHog } from "posthog-js";
import { getConfig } from "./config";

let instance: Promise<PostHog | null> | null = null;

export function loadPosthog(): Promise<PostHog | null> {
  if (instance) return instance;
  const { posthogKey, posthogHost } = getConfig();
  if (!posthogKey || typeof window === "undefined") return Promise.resolve(null);
  instance = import("posthog-js")
    .then(({ default: posthog }) => {
      posthog.init(posthogKey, {
        api_host: posthogHost,
        capture_pageview: false, // sent per route change by the router instead
        disable_session_recording: true, // starts on sign-in
        persistence: "localStorage+cookie",
      });
      return posthog;
    })
    .catch(() => null);
  return instance;
}

export async function posthogPageView(): Promise<void> {
  try {
    (await loadPosthog())?.capture("$pageview");
  } catch {
    /* ignored */
  }
}

export async function posthogSignedIn(user: { id: string; email?: string | null }): Promise<void> {
  try {
    const ph = await loadPosthog();
    ph?.identify(user.id, { email: user.email ?? undefined });
    ph?.startSessionRecording();
  } catch {
    /* ignored */
  }
}

export async function posthogSignedOut(): Promise<void> {
  try {
    if (!instance) return;
    const ph = await instance;
    ph?.stopSessionRecording();
    ph?.reset();
  } catch {
    /* ignored */
  }
}
