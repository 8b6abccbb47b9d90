import { useIntl } from "react-intl";
import { Outlet, useLocation, useMatches } from "react-router";
import { langOf, localeFromPath } from "../i18n/locales";
import { getConfig } from "../lib/config";
import { normalizeForced } from "../lib/colorMode";
import { BRAND, DocumentHead, headLinks } from "./head";
import { handleOf } from "./handle";

/** Wraps every page: sets the document head from the matched route table entry. */
export function Shell() {
  const intl = useIntl();
  const location = useLocation();
  const matches = useMatches();
  const leaf = [...matches].reverse().map((m) => handleOf(m.handle)).find(Boolean);
  const title = leaf ? intl.formatMessage({ id: leaf.def.title }) : BRAND;
  return (
    <>
      <DocumentHead
        title={title}
        lang={langOf(localeFromPath(location.pathname))}
        links={headLinks(getConfig().siteUrl, location.pathname, location.search)}
        forcedColorMode={normalizeForced(leaf?.def.colorMode)}
      />
      <Outlet />
    </>
  );
}
