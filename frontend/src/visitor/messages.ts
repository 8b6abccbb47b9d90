// The visitor's messages, compiled at build time like the app's (vite.config.ts): the shared
// file (consent, toasts, page titles) and the chat's areas, one chunk each per language.
import type { LocaleCode } from "../i18n/locales";
import type { Messages } from "../i18n/messages";

// Of the shared file only what the chat page shows (vite.config.ts VISITOR_SHARED_MESSAGES).
const base = import.meta.glob<Messages>("../i18n/messages/*.json", { import: "default", query: "?visitor" });
const chat = import.meta.glob<Messages>(["../i18n/messages/chat/*.json", "../i18n/messages/chatVisitor/*.json"], { import: "default" });

export async function loadVisitorMessages(locale: LocaleCode): Promise<Messages> {
  const shared = Object.entries(base).find(([k]) => k.startsWith(`../i18n/messages/${locale}.json`))?.[1];
  const files = [shared, ...Object.entries(chat).filter(([k]) => k.endsWith(`/${locale}.json`)).map(([, load]) => load)];
  const parts = await Promise.all(files.map((load) => (load ? load() : Promise.reject(new Error(`No messages for locale ${locale}`)))));
  return Object.assign({}, ...parts) as Messages;
}
