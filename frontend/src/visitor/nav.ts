// The visitor entry's navigation: the URL is the state. A move to another visitor screen in the
// same language is a history entry (the chat page names its chat after the first answer);
// anything else (a bot's login page, another language) loads that page.
import { localeFromPath } from "../i18n/locales";
import type { ChatNav } from "../features/chat/nav";
import { visitorScreen } from "./paths";

const listeners = new Set<() => void>();
let snapshot = { pathname: window.location.pathname, search: window.location.search };

function refresh() {
  const { pathname, search } = window.location;
  if (pathname !== snapshot.pathname || search !== snapshot.search) snapshot = { pathname, search };
  listeners.forEach((l) => l());
}
window.addEventListener("popstate", refresh);

export function subscribeLocation(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function locationSnapshot(): { pathname: string; search: string } {
  return snapshot;
}

export function navigate(to: string, options?: { replace?: boolean }): void {
  const url = new URL(to, window.location.href);
  const sameEntry = url.origin === window.location.origin && visitorScreen(url.pathname) && localeFromPath(url.pathname) === localeFromPath(window.location.pathname);
  if (!sameEntry) {
    if (options?.replace) window.location.replace(url.href);
    else window.location.assign(url.href);
    return;
  }
  const target = url.pathname + url.search + url.hash;
  if (options?.replace) window.history.replaceState(null, "", target);
  else window.history.pushState(null, "", target);
  refresh();
}

export function chatNav(location: { pathname: string; search: string }): ChatNav {
  return { pathname: location.pathname, search: location.search, navigate };
}
