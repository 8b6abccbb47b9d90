import { useIntl } from "react-intl";
import { useColorMode } from "../../app/ColorModeProvider";
import type { ColorPreference } from "../../app/colorMode";

const ORDER: ColorPreference[] = ["system", "light", "dark"];
const ICON: Record<ColorPreference, string> = { system: "◐", light: "☀", dark: "☾" };

/** Cycles system → light → dark. On a page that forces a mode the choice applies elsewhere. */
export function ColorModeSwitcher() {
  const intl = useIntl();
  const { preference, setPreference, unknown } = useColorMode();
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
