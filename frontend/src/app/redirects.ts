// Route rules: redirects consulted before every navigation (the equivalent of server-side
// route rules). Paths are unprefixed; an internal target keeps the visitor's language, an
// external one (http/https) is left with a full page load.
import { localizePath, splitLocale } from "../i18n/locales";

export interface RedirectRule {
  from: string; // exact path, or a prefix ending in "/**"
  to: string;
}

export const redirectRules: readonly RedirectRule[] = [
  { from: "/app", to: "/app/bots" },
  { from: "/app/conversations", to: "/app/conversations/all" },
  { from: "/app/auth", to: "/app/auth/login" },
  { from: "/login", to: "/app/auth/login" },
  { from: "/register", to: "/app/auth/register" },
  { from: "/signup", to: "/app/auth/register" },
  { from: "/legal", to: "/legal/terms" },
  { from: "/use-cases", to: "/use-cases/author" },
  { from: "/docs/self-hosting/supabase", to: "https://supabase.com/docs/guides/self-hosting" },
];

export interface RedirectTarget {
  to: string;
  external: boolean;
}

export function isExternal(to: string): boolean {
  return /^https?:\/\//i.test(to);
}

/** The redirect for a full pathname ("/de/login" → "/de/app/auth/login"), or null. */
export function findRedirect(pathname: string, rules: readonly RedirectRule[] = redirectRules): RedirectTarget | null {
  const { locale, path } = splitLocale(pathname);
  const normalized = path.length > 1 ? path.replace(/\/+$/, "") : path;
  for (const rule of rules) {
    let target: string | null = null;
    if (rule.from.endsWith("/**")) {
      const base = rule.from.slice(0, -3);
      if (normalized === base || normalized.startsWith(base + "/")) {
        target = rule.to.endsWith("/**") ? rule.to.slice(0, -3) + normalized.slice(base.length) : rule.to;
      }
    } else if (normalized === rule.from) {
      target = rule.to;
    }
    if (target === null) continue;
    if (isExternal(target)) return { to: target, external: true };
    return { to: localizePath(target, locale), external: false };
  }
  return null;
}
