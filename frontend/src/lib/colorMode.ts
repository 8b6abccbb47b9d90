// Colour mode: a stored preference (system, light, dark); the applied value follows the
// operating system while the preference is "system"; a page may force light or dark
// (forcing "system" is ignored).
export type ColorPreference = "system" | "light" | "dark";
export type ColorValue = "light" | "dark";

export const COLOR_MODE_STORAGE_KEY = "parley-color-mode";

export interface ColorModeState {
  preference: ColorPreference;
  value: ColorValue;
  /** True until the client knows the system setting (during prerender). */
  unknown: boolean;
  /** The mode the current page forces, if any. */
  forced: ColorValue | undefined;
}

export function isPreference(v: unknown): v is ColorPreference {
  return v === "system" || v === "light" || v === "dark";
}

export function readPreference(storage: Pick<Storage, "getItem"> | undefined): ColorPreference {
  try {
    const v = storage?.getItem(COLOR_MODE_STORAGE_KEY);
    return isPreference(v) ? v : "system";
  } catch {
    return "system";
  }
}

export function writePreference(storage: Pick<Storage, "setItem"> | undefined, pref: ColorPreference): void {
  try {
    storage?.setItem(COLOR_MODE_STORAGE_KEY, pref);
  } catch {
    /* storage blocked: the choice lasts for this page only */
  }
}

export function normalizeForced(forced: string | undefined): ColorValue | undefined {
  return forced === "light" || forced === "dark" ? forced : undefined;
}

export function resolveColorMode(preference: ColorPreference, systemDark: boolean, forced?: string): ColorValue {
  const f = normalizeForced(forced);
  if (f) return f;
  if (preference === "system") return systemDark ? "dark" : "light";
  return preference;
}

export function applyColorMode(root: HTMLElement, value: ColorValue): void {
  root.classList.toggle("dark", value === "dark");
  root.classList.toggle("light", value === "light");
  root.style.colorScheme = value;
}
