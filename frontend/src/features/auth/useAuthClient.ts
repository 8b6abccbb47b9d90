import { useCallback } from "react";
import { useLocale } from "../../components/LocalizedLink";
import { localizePath } from "../../i18n/locales";
import { useAuthDeps } from "./deps";

/** Absolute URL of an app page in the current language, for auth emails and OAuth. */
export function useSiteUrl(): (path: string) => string {
  const { siteUrl } = useAuthDeps();
  const locale = useLocale();
  return useCallback(
    (path: string) => `${siteUrl().replace(/\/+$/, "")}${localizePath(path, locale)}`,
    [siteUrl, locale],
  );
}
