import { forwardRef, useCallback } from "react";
import { Link, NavLink, useLocation, type LinkProps, type NavLinkProps } from "react-router";
import { localeFromPath, localizePath, type LocaleCode } from "../i18n/locales";

/** The current language, from the URL. */
export function useLocale(): LocaleCode {
  return localeFromPath(useLocation().pathname);
}

/** Localizes an unprefixed path for the current language. */
/** The path in the current language; the same function while the language stays (safe in effect dependencies). */
export function useLocalePath(): (path: string) => string {
  const locale = useLocale();
  return useCallback((path: string) => localizePath(path, locale), [locale]);
}

/** A <Link> whose `to` is an unprefixed path, kept in the current language. */
export const LocalizedLink = forwardRef<HTMLAnchorElement, LinkProps & { to: string }>(function LocalizedLink({ to, ...rest }, ref) {
  const lp = useLocalePath();
  return <Link ref={ref} to={lp(to)} {...rest} />;
});

export const LocalizedNavLink = forwardRef<HTMLAnchorElement, NavLinkProps & { to: string }>(function LocalizedNavLink({ to, ...rest }, ref) {
  const lp = useLocalePath();
  return <NavLink ref={ref} to={lp(to)} {...rest} />;
});
