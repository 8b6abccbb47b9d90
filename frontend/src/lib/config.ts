// Runtime configuration: /config.js (served by the stack or the host) sets
// window.__PARLEY_CONFIG__, so one build runs against any Supabase project. In `npm run dev`
// the stack passes the local project through VITE_ env variables instead.
export interface ParleyConfig {
  supabaseUrl: string;
  supabaseAnonKey: string;
  siteUrl: string;
  posthogKey: string;
  posthogHost: string;
  analyticsOnLocalhost: boolean;
  apiBaseUrl: string;
  /** Files larger than this many bytes are uploaded resumably (TUS); see RESUMABLE_UPLOAD_THRESHOLD_BYTES. */
  resumableUploadThreshold: number;
}

/**
 * Above this size a file goes to Storage through resumable (TUS) uploads, in parts that
 * survive a dropped connection; at or below it, in one request. Supabase recommends
 * resumable uploads above 6 MB. `resumableUploadThreshold` in /config.js overrides it.
 */
export const RESUMABLE_UPLOAD_THRESHOLD_BYTES = 6 * 1024 * 1024;

declare global {
  interface Window {
    __PARLEY_CONFIG__?: Partial<ParleyConfig>;
  }
}

const EU_POSTHOG_HOST = "https://eu.i.posthog.com";

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

/** A whole number of bytes >= 0, or the default. */
function byteCount(...candidates: unknown[]): number {
  for (const c of candidates) {
    if (c === undefined || c === null || c === "") continue;
    const n = Number(c);
    if (Number.isSafeInteger(n) && n >= 0) return n;
  }
  return RESUMABLE_UPLOAD_THRESHOLD_BYTES;
}

export function resolveConfig(raw: Partial<ParleyConfig> | undefined, env: Record<string, string | undefined>, origin: string): ParleyConfig {
  const supabaseUrl = trimSlash(String(raw?.supabaseUrl || env.VITE_SUPABASE_URL || ""));
  return {
    supabaseUrl,
    supabaseAnonKey: String(raw?.supabaseAnonKey || env.VITE_SUPABASE_ANON_KEY || ""),
    siteUrl: trimSlash(String(raw?.siteUrl || env.VITE_SITE_URL || origin)),
    posthogKey: String(raw?.posthogKey || env.VITE_POSTHOG_KEY || ""),
    posthogHost: trimSlash(String(raw?.posthogHost || env.VITE_POSTHOG_HOST || EU_POSTHOG_HOST)),
    analyticsOnLocalhost: raw?.analyticsOnLocalhost === true || env.VITE_ANALYTICS_LOCALHOST === "1",
    apiBaseUrl: trimSlash(String(raw?.apiBaseUrl || (supabaseUrl ? `${supabaseUrl}/functions/v1` : ""))),
    resumableUploadThreshold: byteCount(raw?.resumableUploadThreshold, env.VITE_RESUMABLE_UPLOAD_THRESHOLD),
  };
}

let cached: ParleyConfig | undefined;

export function getConfig(): ParleyConfig {
  if (cached) return cached;
  const isBrowser = typeof window !== "undefined";
  cached = resolveConfig(
    isBrowser ? window.__PARLEY_CONFIG__ : undefined,
    import.meta.env as unknown as Record<string, string | undefined>,
    isBrowser ? window.location.origin : "",
  );
  return cached;
}

/** Test hook: forget the cached configuration. */
export function resetConfigForTests(): void {
  cached = undefined;
}

/** The prerender (Node) has no /config.js: the build script passes the site URL here. */
export function setConfig(raw: Partial<ParleyConfig>): void {
  cached = resolveConfig(raw, {}, "");
}
