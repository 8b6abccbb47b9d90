// Cookie consent. Necessary cookies are always set; optional ones (and the analytics they
// enable) only after the visitor agreed. The choice is kept in a first-party cookie.
import { readCookie, writeCookie } from "./cookies";

export interface CookieInfo {
  id: string;
  /** Message id of the cookie's name and purpose. */
  label: string;
}

export const necessaryCookies: readonly CookieInfo[] = [
  { id: "session", label: "consent.cookie.session" },
  { id: "locale", label: "consent.cookie.locale" },
  { id: "consent", label: "consent.cookie.consent" },
  { id: "color-mode", label: "consent.cookie.colorMode" },
];

export const optionalCookies: readonly CookieInfo[] = [
  { id: "analytics", label: "consent.cookie.analytics" },
  { id: "product-analytics", label: "consent.cookie.productAnalytics" },
];

export const CONSENT_COOKIE = "parley_consent";
export const CONSENT_VERSION = 1;
export const CONSENT_MAX_AGE = 365 * 24 * 60 * 60;

export interface ConsentChoice {
  /** Ids of the optional cookies the visitor accepted. */
  accepted: string[];
  version: number;
}

/** Parses the stored cookie; null when there is no (valid, current) choice yet. */
export function parseConsent(raw: string | undefined): ConsentChoice | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<ConsentChoice>;
    if (v.version !== CONSENT_VERSION || !Array.isArray(v.accepted)) return null;
    const known = new Set(optionalCookies.map((c) => c.id));
    return { version: CONSENT_VERSION, accepted: v.accepted.filter((id): id is string => typeof id === "string" && known.has(id)) };
  } catch {
    return null;
  }
}

export function serializeConsent(accepted: readonly string[]): string {
  const known = new Set(optionalCookies.map((c) => c.id));
  return JSON.stringify({ version: CONSENT_VERSION, accepted: [...new Set(accepted)].filter((id) => known.has(id)) });
}

export function hasConsent(choice: ConsentChoice | null, id: string): boolean {
  if (necessaryCookies.some((c) => c.id === id)) return true;
  return !!choice && choice.accepted.includes(id);
}

export function readConsent(): ConsentChoice | null {
  return parseConsent(readCookie(CONSENT_COOKIE));
}

export function writeConsent(accepted: readonly string[]): ConsentChoice {
  const value = serializeConsent(accepted);
  writeCookie(CONSENT_COOKIE, value, { maxAge: CONSENT_MAX_AGE, sameSite: "Lax" });
  const choice = parseConsent(value)!;
  consentListeners.forEach((fn) => fn(choice));
  return choice;
}

type Listener = (choice: ConsentChoice) => void;
const consentListeners = new Set<Listener>();

export function onConsentChange(fn: Listener): () => void {
  consentListeners.add(fn);
  return () => consentListeners.delete(fn);
}
