// Privacy-friendly page views (Plausible-style): one POST per page view to the `event`
// edge function, no cookies, no identifiers. Never throws: analytics must not break pages.
import { getConfig, type ParleyConfig } from "./config";

export const IGNORE_FLAG = "parley_ignore";

export interface AnalyticsEvent {
  name: string;
  url: string;
  domain: string;
  referrer: string | null;
  width: number;
  hash_mode: boolean;
  props: Record<string, string | number | boolean> | null;
  revenue: { amount: number; currency: string } | null;
}

export interface TrackEnv {
  location: Pick<Location, "hostname" | "protocol" | "href" | "host">;
  referrer: string;
  width: number;
  storage: Pick<Storage, "getItem"> | undefined;
  config: ParleyConfig;
  fetch: typeof fetch;
}

export function isLocalHost(hostname: string): boolean {
  return /^localhost$|^127(\.\d+){3}$|^\[::1\]$|^::1$|\.localhost$/.test(hostname);
}

/** Why an event is not sent, or null when it should be. */
export function skipReason(env: Pick<TrackEnv, "location" | "storage" | "config">): string | null {
  if (env.location.protocol === "file:") return "file";
  if (isLocalHost(env.location.hostname) && !env.config.analyticsOnLocalhost) return "localhost";
  try {
    if (env.storage?.getItem(IGNORE_FLAG)) return "ignored";
  } catch {
    /* storage blocked: not ignored */
  }
  if (!env.config.supabaseUrl || !env.config.supabaseAnonKey) return "unconfigured";
  return null;
}

export function buildEvent(name: string, env: TrackEnv, options: { props?: AnalyticsEvent["props"]; revenue?: AnalyticsEvent["revenue"]; hashMode?: boolean } = {}): AnalyticsEvent {
  return {
    name,
    url: env.location.href,
    domain: env.location.host,
    referrer: env.referrer || null,
    width: env.width,
    hash_mode: options.hashMode ?? false,
    props: options.props ?? null,
    revenue: options.revenue ?? null,
  };
}

export async function trackEvent(name: string, options: Parameters<typeof buildEvent>[2] = {}, envOverride?: Partial<TrackEnv>): Promise<boolean> {
  if (typeof window === "undefined" && !envOverride) return false;
  const env: TrackEnv = {
    location: window.location,
    referrer: document.referrer,
    width: window.innerWidth,
    storage: (() => {
      try {
        return window.localStorage;
      } catch {
        return undefined;
      }
    })(),
    config: getConfig(),
    fetch: (...args) => globalThis.fetch(...args),
    ...envOverride,
  };
  if (skipReason(env)) return false;
  try {
    const res = await env.fetch(`${env.config.supabaseUrl}/functions/v1/event`, {
      method: "POST",
      headers: { "content-type": "application/json", apikey: env.config.supabaseAnonKey, authorization: `Bearer ${env.config.supabaseAnonKey}` },
      body: JSON.stringify(buildEvent(name, env, options)),
      keepalive: true,
    });
    return res.ok;
  } catch {
    return false;
  }
}

export function trackPageView(): Promise<boolean> {
  return trackEvent("pageview");
}
