import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE, type LocaleCode } from "../i18n/locales";
import { writeCookie } from "./cookies";

/** Remembers the chosen language for the next visit (the server reads it for `/`). */
export function rememberLocale(code: LocaleCode): void {
  writeCookie(LOCALE_COOKIE, code, { maxAge: LOCALE_COOKIE_MAX_AGE, sameSite: "Lax" });
}
