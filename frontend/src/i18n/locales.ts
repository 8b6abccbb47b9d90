// The ten interface languages. `code` is the URL prefix and the message file name;
// `lang` is the BCP 47 tag for <html lang>, hreflang and Intl formatting.
export const LOCALES = [
  { code: "en", lang: "en", name: "English" },
  { code: "de", lang: "de", name: "Deutsch" },
  { code: "es", lang: "es", name: "Español" },
  { code: "fr", lang: "fr", name: "Français" },
  { code: "it", lang: "it", name: "Italiano" },
  { code: "jp", lang: "ja", name: "日本語" },
  { code: "cn", lang: "zh", name: "中文" },
  { code: "el", lang: "el", name: "Ελληνικά" },
  { code: "pl", lang: "pl", name: "Polski" },
  { code: "nl", lang: "nl", name: "Nederlands" },
] as const;

export type LocaleCode = (typeof LOCALES)[number]["code"];
export const DEFAULT_LOCALE: LocaleCode = "en";
export const LOCALE_CODES: readonly LocaleCode[] = LOCALES.map((l) => l.code);
/** Prefixed locales: every locale but the default, which has no prefix. */
export const PREFIXED_LOCALES = LOCALE_CODES.filter((c) => c !== DEFAULT_LOCALE);

export function isLocaleCode(value: unknown): value is LocaleCode {
  return typeof value === "string" && (LOCALE_CODES as readonly string[]).includes(value);
}

/** A language's own name ("Deutsch" for de), the code itself for one not among the ten. */
export function languageName(code: string): string {
  return LOCALES.find((l) => l.code === code)?.name ?? code;
}

export function langOf(code: LocaleCode): string {
  return LOCALES.find((l) => l.code === code)!.lang;
}

/** The URL prefix of a locale: "" for English, "/de" for German. */
export function prefixOf(code: LocaleCode): string {
  return code === DEFAULT_LOCALE ? "" : `/${code}`;
}

/** Splits a pathname into its locale and the unprefixed rest ("/de/faq" → de, "/faq"). */
export function splitLocale(pathname: string): { locale: LocaleCode; path: string } {
  const match = /^\/([a-z]{2})(?=\/|$)(.*)$/.exec(pathname);
  if (match && isLocaleCode(match[1]) && match[1] !== DEFAULT_LOCALE) {
    return { locale: match[1], path: match[2] || "/" };
  }
  return { locale: DEFAULT_LOCALE, path: pathname || "/" };
}

export function localeFromPath(pathname: string): LocaleCode {
  return splitLocale(pathname).locale;
}

/** An unprefixed path in a locale ("/faq", de → "/de/faq"; "/", de → "/de"). */
export function localizePath(path: string, code: LocaleCode): string {
  const prefix = prefixOf(code);
  if (!prefix) return path || "/";
  return path === "/" || path === "" ? prefix : `${prefix}${path}`;
}

/** The same page in another locale, keeping query and hash. */
export function switchLocalePath(pathname: string, search: string, hash: string, code: LocaleCode): string {
  return localizePath(splitLocale(pathname).path, code) + search + hash;
}

export const LOCALE_COOKIE = "parley_locale";
export const LOCALE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

/**
 * The locale a visitor arriving at the site root should see: the remembered choice first,
 * then the browser's languages, then English. Only used on "/" (every other URL names its locale).
 */
export function detectLocale(cookieValue: string | undefined, browserLanguages: readonly string[]): LocaleCode {
  if (isLocaleCode(cookieValue)) return cookieValue;
  for (const tag of browserLanguages) {
    const base = tag.toLowerCase().split("-")[0];
    const found = LOCALES.find((l) => l.lang === base || l.code === base);
    if (found) return found.code;
  }
  return DEFAULT_LOCALE;
}
