// Where the visitor's session lives when the chat runs in a frame on another site (the widget's
// iframe on a customer's page). The session cookies (session-cookie.ts: SameSite=Lax, written by
// document.cookie) do not stick there: Chromium and Firefox drop a SameSite=Lax cookie written in
// a cross-site frame, Safari keeps no third-party cookie at all. auth-js reads the session only
// from its storage, so the visitor would sign in anonymously and have no session a moment later.
// There the session is kept, under the same key, where the frame may keep it, all partitioned by
// the top-level site (one visitor per customer site, kept across reloads): the frame's
// localStorage; else, where the browser blocks storage in third-party frames (Chromium with
// third-party cookies blocked, as in incognito windows), partitioned cookies (CHIPS: SameSite=None;
// Secure; Partitioned); else sessionStorage; else memory (the chat then lasts as long as the
// frame). Everywhere else (not framed, or framed where the cookies stick, such as the app's own
// preview of the embed) nothing changes: the cookies shared with the app.
import { SESSION_COOKIE_OPTIONS } from "./session-cookie";

/** What auth-js needs of a storage, plus the keys (hasStoredSession looks for a session). */
export interface FrameStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  keys(): string[];
}

/** Is this window inside a frame (a cross-origin parent counts, reading it may throw)? */
export function isFramed(win: Window = window): boolean {
  try {
    return win.top !== win.self;
  } catch {
    return true;
  }
}

const PROBE = "parley-cookie-probe";

/** The session cookies' options in a frame on another site whose browser keeps partitioned cookies. */
export const PARTITIONED_COOKIE_OPTIONS = {
  ...SESSION_COOKIE_OPTIONS,
  sameSite: "none",
  secure: true,
  partitioned: true,
} as const;

/** Does a cookie written by script with these attributes (after `Path=/`) stick here? */
export function cookieSticks(attributes: string, doc: Document = document): boolean {
  try {
    const value = Math.random().toString(36).slice(2);
    doc.cookie = `${PROBE}=${value}; Path=/; ${attributes}; Max-Age=60`;
    const stuck = doc.cookie.split(/;\s*/).includes(`${PROBE}=${value}`);
    doc.cookie = `${PROBE}=; Path=/; ${attributes}; Max-Age=0`;
    return stuck;
  } catch {
    // A sandboxed frame without allow-same-origin throws on document.cookie.
    return false;
  }
}

function webStore(get: () => Storage): FrameStore | null {
  try {
    const s = get();
    s.setItem(`${PROBE}-storage`, "1");
    s.removeItem(`${PROBE}-storage`);
    return {
      getItem: (k) => s.getItem(k),
      setItem: (k, v) => s.setItem(k, v),
      removeItem: (k) => s.removeItem(k),
      keys: () => Array.from({ length: s.length }, (_, i) => s.key(i)).filter((k): k is string => k !== null),
    };
  } catch {
    // Blocked (third-party storage off, a sandbox): the next one.
    return null;
  }
}

export function memoryStore(): FrameStore {
  const items = new Map<string, string>();
  return {
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, String(v)),
    removeItem: (k) => void items.delete(k),
    keys: () => [...items.keys()],
  };
}

/**
 * Where this page keeps its session: in cookies with these options (@supabase/ssr's cookie storage,
 * which hasStoredSession reads), or in a store.
 */
export type SessionKeeping =
  | { cookies: typeof SESSION_COOKIE_OPTIONS | typeof PARTITIONED_COOKIE_OPTIONS; store?: undefined }
  | { store: FrameStore; cookies?: undefined };

/** The choice described at the top of this file, for this window. */
export function chooseSessionKeeping(win: Window = window): SessionKeeping {
  if (!isFramed(win) || cookieSticks("SameSite=Lax", win.document)) return { cookies: SESSION_COOKIE_OPTIONS };
  const local = webStore(() => win.localStorage);
  if (local) return { store: local };
  if (cookieSticks("SameSite=None; Secure; Partitioned", win.document)) return { cookies: PARTITIONED_COOKIE_OPTIONS };
  return { store: webStore(() => win.sessionStorage) ?? memoryStore() };
}

let chosen: SessionKeeping | undefined;

/** Where this page keeps the visitor's session (decided once per page). */
export function sessionKeeping(): SessionKeeping {
  if (typeof window === "undefined" || typeof document === "undefined") return { cookies: SESSION_COOKIE_OPTIONS };
  chosen ??= chooseSessionKeeping();
  return chosen;
}
