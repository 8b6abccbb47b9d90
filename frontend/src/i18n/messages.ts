import type { LocaleCode } from "./locales";

export type Messages = Record<string, string>;

// One chunk per language, fetched only when that language is shown.
const files = import.meta.glob<Messages>("./messages/*.json", { import: "default" });
const cache = new Map<LocaleCode, Promise<Messages>>();

export function loadMessages(locale: LocaleCode): Promise<Messages> {
  let p = cache.get(locale);
  if (!p) {
    const file = files[`./messages/${locale}.json`];
    if (!file) return Promise.reject(new Error(`No messages for locale ${locale}`));
    p = file();
    p.catch(() => cache.delete(locale));
    cache.set(locale, p);
  }
  return p;
}
