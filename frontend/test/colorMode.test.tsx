import { describe, expect, it } from "vitest";
import { act, render, screen } from "@testing-library/react";
import { COLOR_MODE_STORAGE_KEY, readPreference, resolveColorMode, normalizeForced } from "../src/lib/colorMode";
import { ColorModeProvider, useColorMode } from "../src/lib/ColorModeProvider";

function mockSystem(dark: boolean) {
  window.matchMedia = ((q: string) => ({ matches: dark && q.includes("dark"), media: q, addEventListener() {}, removeEventListener() {} })) as never;
}

function Probe() {
  const c = useColorMode();
  return (
    <div>
      <span data-testid="pref">{c.preference}</span>
      <span data-testid="value">{c.value}</span>
      <span data-testid="forced">{c.forced ?? "none"}</span>
      <button onClick={() => c.setPreference("dark")}>dark</button>
      <button onClick={() => c.setPreference("system")}>system</button>
    </div>
  );
}

describe("colour mode logic", () => {
  it("follows the system when the preference is system", () => {
    expect(resolveColorMode("system", true)).toBe("dark");
    expect(resolveColorMode("system", false)).toBe("light");
    expect(resolveColorMode("light", true)).toBe("light");
    expect(resolveColorMode("dark", false)).toBe("dark");
  });
  it("a forced mode wins, forcing system is ignored", () => {
    expect(resolveColorMode("light", false, "dark")).toBe("dark");
    expect(resolveColorMode("dark", true, "light")).toBe("light");
    expect(resolveColorMode("light", true, "system")).toBe("light");
    expect(normalizeForced("system")).toBeUndefined();
  });
  it("reads an invalid or missing preference as system", () => {
    expect(readPreference(localStorage)).toBe("system");
    localStorage.setItem(COLOR_MODE_STORAGE_KEY, "purple");
    expect(readPreference(localStorage)).toBe("system");
    localStorage.setItem(COLOR_MODE_STORAGE_KEY, "dark");
    expect(readPreference(localStorage)).toBe("dark");
  });
});

describe("ColorModeProvider", () => {
  it("stores the preference and applies the value to <html>", async () => {
    mockSystem(false);
    render(<ColorModeProvider><Probe /></ColorModeProvider>);
    expect(screen.getByTestId("value")).toHaveTextContent("light");
    await act(async () => screen.getByText("dark").click());
    expect(localStorage.getItem(COLOR_MODE_STORAGE_KEY)).toBe("dark");
    expect(document.documentElement).toHaveClass("dark");
    expect(screen.getByTestId("value")).toHaveTextContent("dark");
  });

  it("restores the stored preference after a reload", () => {
    mockSystem(false);
    localStorage.setItem(COLOR_MODE_STORAGE_KEY, "dark");
    render(<ColorModeProvider><Probe /></ColorModeProvider>);
    expect(screen.getByTestId("pref")).toHaveTextContent("dark");
    expect(document.documentElement).toHaveClass("dark");
  });

  it("a forced page keeps the stored preference but shows the forced value", () => {
    mockSystem(false);
    localStorage.setItem(COLOR_MODE_STORAGE_KEY, "light");
    render(<ColorModeProvider forced="dark"><Probe /></ColorModeProvider>);
    expect(screen.getByTestId("pref")).toHaveTextContent("light");
    expect(screen.getByTestId("value")).toHaveTextContent("dark");
    expect(screen.getByTestId("forced")).toHaveTextContent("dark");
    expect(document.documentElement).toHaveClass("dark");
  });
});
