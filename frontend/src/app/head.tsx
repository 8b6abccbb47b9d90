// Document head: title, <html lang>, canonical and hreflang links, and the page's forced
// colour mode. During the prerender the values are collected in a store the build script
// writes into the HTML; in the browser they are applied to the live document.
import { createContext, useContext, useEffect } from "react";
import { LOCALES, localizePath, splitLocale } from "../i18n/locales";
import type { ColorValue } from "../lib/colorMode";

export interface HeadLink {
  rel: "canonical" | "alternate";
  href: string;
  hreflang?: string;
}

export interface HeadState {
  title: string;
  lang: string;
  links: HeadLink[];
  forcedColorMode?: ColorValue;
}

export interface HeadStore {
  state?: HeadState;
  pageTitle?: string;
}

export const HeadContext = createContext<HeadStore | null>(null);

export const BRAND = "Parley";

export function formatTitle(title: string): string {
  return !title || title === BRAND ? BRAND : `${title} | ${BRAND}`;
}

/** Canonical = site URL + current full path; one alternate per language plus x-default. */
export function headLinks(siteUrl: string, pathname: string, search: string, hash = ""): HeadLink[] {
  const base = siteUrl.replace(/\/+$/, "");
  const { path } = splitLocale(pathname);
  const links: HeadLink[] = [{ rel: "canonical", href: base + pathname + search + hash }];
  for (const l of LOCALES) links.push({ rel: "alternate", hreflang: l.lang, href: base + localizePath(path, l.code) });
  links.push({ rel: "alternate", hreflang: "x-default", href: base + path });
  return links;
}

export function renderHeadTags(state: HeadState, escape: (s: string) => string): string {
  const links = state.links
    .map((l) => `<link rel="${l.rel}"${l.hreflang ? ` hreflang="${escape(l.hreflang)}"` : ""} href="${escape(l.href)}" data-parley-head>`)
    .join("\n    ");
  return `<title>${escape(state.title)}</title>\n    ${links}`;
}

let clientPageTitle: string | undefined;

function applyHead(state: HeadState): void {
  document.title = formatTitle(clientPageTitle ?? state.title);
  document.documentElement.lang = state.lang;
  document.head.querySelectorAll("link[data-parley-head]").forEach((el) => el.remove());
  for (const l of state.links) {
    const el = document.createElement("link");
    el.rel = l.rel;
    el.href = l.href;
    if (l.hreflang) el.hreflang = l.hreflang;
    el.setAttribute("data-parley-head", "");
    document.head.appendChild(el);
  }
}

export function DocumentHead(props: HeadState) {
  const store = useContext(HeadContext);
  if (store) store.state = props;
  const key = JSON.stringify(props);
  useEffect(() => {
    applyHead(JSON.parse(key) as HeadState);
  }, [key]);
  return null;
}

/** A page whose title is data (a blog post) sets it here; it wins over the route's title. */
export function usePageTitle(title: string | undefined): void {
  const store = useContext(HeadContext);
  if (store && title) store.pageTitle = title;
  useEffect(() => {
    if (!title) return;
    clientPageTitle = title;
    document.title = formatTitle(title);
    return () => {
      clientPageTitle = undefined;
    };
  }, [title]);
}
