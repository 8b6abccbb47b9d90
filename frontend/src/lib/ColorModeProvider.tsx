import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { applyColorMode, normalizeForced, readPreference, resolveColorMode, writePreference, type ColorModeState, type ColorPreference } from "./colorMode";

interface ColorModeContextValue extends ColorModeState {
  setPreference: (pref: ColorPreference) => void;
}

const ColorModeContext = createContext<ColorModeContextValue | null>(null);

function safeLocalStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

export function ColorModeProvider({ forced, children }: { forced?: string; children: ReactNode }) {
  // Unknown until mounted: the prerendered HTML cannot know the visitor's setting.
  const [preference, setPref] = useState<ColorPreference>("system");
  const [systemDark, setSystemDark] = useState(false);
  const [unknown, setUnknown] = useState(true);

  useEffect(() => {
    setPref(readPreference(safeLocalStorage()));
    const mq = window.matchMedia?.("(prefers-color-scheme: dark)");
    setSystemDark(!!mq?.matches);
    setUnknown(false);
    if (!mq) return;
    const onChange = (e: MediaQueryListEvent) => setSystemDark(e.matches);
    mq.addEventListener("change", onChange);
    return () => mq.removeEventListener("change", onChange);
  }, []);

  const forcedValue = normalizeForced(forced);
  const value = resolveColorMode(preference, systemDark, forcedValue);

  useEffect(() => {
    if (!unknown) applyColorMode(document.documentElement, value);
  }, [unknown, value]);

  const setPreference = useCallback((pref: ColorPreference) => {
    writePreference(safeLocalStorage(), pref);
    setPref(pref);
  }, []);

  const ctx = useMemo(() => ({ preference, value, unknown, forced: forcedValue, setPreference }), [preference, value, unknown, forcedValue, setPreference]);
  return <ColorModeContext.Provider value={ctx}>{children}</ColorModeContext.Provider>;
}

export function useColorMode(): ColorModeContextValue {
  const ctx = useContext(ColorModeContext);
  if (!ctx) throw new Error("useColorMode outside ColorModeProvider");
  return ctx;
}
