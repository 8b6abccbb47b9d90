import { useIntl } from "react-intl";
import { useColorMode } from "../../lib/ColorModeProvider";
import type { ColorPreference } from "../../lib/colorMode";

const ORDER: ColorPreference[] = ["system", "light", "dark"];
const ICON: Record<ColorPreference, string> = { system: "◐", light: "☀", dark: "☾" };

/**
 * Cycles system → light → dark. On a page that forces a mode (the home page is always dark)
 * a choice would change nothing visible, so the button is disabled there (aria-disabled, no
 * action) and its label and tooltip say why; it shows the forced mode.
 */
export function ColorModeSwitcher() {
  const intl = useIntl();
  const { preference, setPreference, unknown, forced } = useColorMode();
  if (forced) {
    const label = intl.formatMessage({ id: forced === "dark" ? "colorMode.forcedDark" : "colorMode.forcedLight" });
    return (
      // aria-disabled rather than disabled: it stays focusable, so keyboard and screen reader
      // users learn why it does nothing here.
      <button type="button" className="icon-button color-mode-switcher" aria-label={label} title={label} data-forced={forced} aria-disabled="true">
        <span aria-hidden="true">{ICON[forced]}</span>
      </button>
    );
  }
  const next = ORDER[(ORDER.indexOf(preference) + 1) % ORDER.length]!;
  const label = intl.formatMessage({ id: "colorMode.label" }, { mode: intl.formatMessage({ id: `colorMode.${preference}` }) });
  return (
    <button
      type="button"
      className="icon-button color-mode-switcher"
      aria-label={label}
      title={label}
      data-preference={unknown ? undefined : preference}
      onClick={() => setPreference(next)}
    >
      <span aria-hidden="true">{ICON[preference]}</span>
    </button>
  );
}
