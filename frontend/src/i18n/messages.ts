import type { LocaleCode } from "./locales";

export type Messages = Record<string, string>;

// One chunk per language and area, fetched only when that language is shown. Shared
// messages live in messages/<locale>.json; each area of the app keeps its own in
// messages/<area>/<locale>.json, so screens add messages without touching each other's files.
const base = import.meta.glob<Messages>("./messages/*.json", { import: "default" });
const areas = import.meta.glob<Messages>("./messages/*/*.json", { import: "default" });
const cache = new Map<LocaleCode, Promise<Messages>>();

export function loadMessages(locale: LocaleCode): Promise<Messages> {
  let p = cache.get(locale);
  if (!p) {
    const file = base[`./messages/${locale}.json`];
    if (!file) return Promise.reject(new Error(`No messages for locale ${locale}`));
    const parts = [file(), ...Object.entries(areas).filter(([k]) => k.endsWith(`/${locale}.json`)).map(([, load]) => load())];
    p = Promise.all(parts).then((all) => Object.assign({}, ...all) as Messages);
    p.catch(() => cache.delete(locale));
    cache.set(locale, p);
  }
  return p;
}
