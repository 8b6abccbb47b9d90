// Where to go after signing in. Only same-origin relative paths are accepted: anything that
// could leave the site ("//evil.test", "https://…", "/\\evil.test", "javascript:…") falls
// back to the default, so ?redirect= can never be an open redirect.
import { localizePath, type LocaleCode } from "../i18n/locales";

const BASE = "http://parley.invalid";

export function defaultAfterLogin(locale: LocaleCode): string {
  return localizePath("/app/bots", locale);
}

export function safeRedirect(raw: string | null | undefined, fallback: string): string {
  if (!raw || raw.length > 2048) return fallback;
  // Browsers treat backslashes as slashes and ignore tabs/newlines inside URLs.
  if (!raw.startsWith("/") || raw.startsWith("//") || /[\\\u0000-\u001f\u007f]/.test(raw)) return fallback;
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  // Never bounce back into the sign-in pages themselves.
  if (/^(\/[a-z]{2})?\/app\/auth\/(login|register)(\/|$)/.test(url.pathname)) return fallback;
  return url.pathname + url.search + url.hash;
}

const HEADING_KEY = "parley.auth.heading";

/** Remembers where the user was heading across an OAuth round trip (same tab). */
export function rememberHeading(path: string): void {
  try {
    sessionStorage.setItem(HEADING_KEY, path);
  } catch {
    // Storage may be disabled: the user then lands on the default page.
  }
}

export function takeHeading(): string | null {
  try {
    const v = sessionStorage.getItem(HEADING_KEY);
    sessionStorage.removeItem(HEADING_KEY);
    return v;
  } catch {
    return null;
  }
}
