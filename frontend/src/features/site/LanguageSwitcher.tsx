import { useIntl } from "react-intl";
import { useLocation, useNavigate } from "react-router";
import { Menu } from "../../components/ui";
import { LOCALES, switchLocalePath } from "../../i18n/locales";
import { rememberLocale } from "../../lib/locale-cookie";
import { useLocale } from "../../components/LocalizedLink";

/** Switches language and stays on the same page (query and hash kept). */
export function LanguageSwitcher() {
  const intl = useIntl();
  const locale = useLocale();
  const location = useLocation();
  const navigate = useNavigate();
  const current = LOCALES.find((l) => l.code === locale)!;
  return (
    <Menu
      className="language-switcher"
      buttonLabel={intl.formatMessage({ id: "nav.language" }, { language: current.name })}
      label={
        <>
          <svg aria-hidden="true" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
            <circle cx="12" cy="12" r="10" />
            <path d="M2 12h20M12 2a15 15 0 0 1 0 20M12 2a15 15 0 0 0 0 20" />
          </svg>
          {/* The full name on wide screens, the short code on phones (global.css). */}
          <span className="language-switcher__name" lang={current.lang}>{current.name}</span>
          <span className="language-switcher__code" aria-hidden="true">{current.code.toUpperCase()}</span>
        </>
      }
      items={LOCALES.map((l) => ({
        key: l.code,
        active: l.code === locale,
        label: <span lang={l.lang}>{l.name}</span>,
        onSelect: () => {
          rememberLocale(l.code);
          navigate(switchLocalePath(location.pathname, location.search, location.hash, l.code));
        },
      }))}
    />
  );
}
