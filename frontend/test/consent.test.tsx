import { describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { IntlProvider } from "react-intl";
import en from "../src/i18n/messages/en.json";
import { CONSENT_COOKIE, hasConsent, necessaryCookies, optionalCookies, parseConsent, readConsent, serializeConsent } from "../src/lib/consent";
import { ConsentBanner } from "../src/features/consent/ConsentBanner";

describe("consent logic", () => {
  it("has ids for necessary and optional cookies", () => {
    expect(necessaryCookies.map((c) => c.id)).toContain("session");
    expect(optionalCookies.map((c) => c.id)).toEqual(["analytics", "product-analytics"]);
    for (const c of [...necessaryCookies, ...optionalCookies]) expect((en as Record<string, string>)[c.label]).toBeTruthy();
  });
  it("parses only valid, current choices and drops unknown ids", () => {
    expect(parseConsent(undefined)).toBeNull();
    expect(parseConsent("{bad")).toBeNull();
    expect(parseConsent(JSON.stringify({ version: 0, accepted: [] }))).toBeNull();
    expect(parseConsent(serializeConsent(["analytics", "evil", "analytics"]))).toEqual({ version: 1, accepted: ["analytics"] });
  });
  it("necessary cookies never need consent; optional ones do", () => {
    expect(hasConsent(null, "session")).toBe(true);
    expect(hasConsent(null, "analytics")).toBe(false);
    expect(hasConsent({ version: 1, accepted: ["analytics"] }, "analytics")).toBe(true);
    expect(hasConsent({ version: 1, accepted: [] }, "product-analytics")).toBe(false);
  });
});

function renderBanner() {
  return render(
    <IntlProvider locale="en" messages={en}>
      <ConsentBanner />
    </IntlProvider>,
  );
}

describe("consent banner", () => {
  it("asks once, stores 'accept all' in a cookie and stays hidden after a reload", async () => {
    const first = renderBanner();
    expect(await screen.findByTestId("consent-banner")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Accept all" }));
    expect(screen.queryByTestId("consent-banner")).toBeNull();
    expect(document.cookie).toContain(CONSENT_COOKIE);
    expect(readConsent()?.accepted).toEqual(["analytics", "product-analytics"]);
    first.unmount();
    renderBanner();
    expect(screen.queryByTestId("consent-banner")).toBeNull();
  });

  it("necessary only stores no optional cookie", async () => {
    renderBanner();
    await userEvent.click(await screen.findByRole("button", { name: "Necessary only" }));
    expect(readConsent()).toEqual({ version: 1, accepted: [] });
  });

  it("the settings dialog saves a chosen optional cookie", async () => {
    renderBanner();
    await userEvent.click(await screen.findByRole("button", { name: "Cookie settings" }));
    const box = document.querySelector<HTMLInputElement>('input[data-cookie-id="analytics"]')!;
    expect(document.querySelector<HTMLInputElement>('input[data-cookie-id="session"]')!.disabled).toBe(true);
    await userEvent.click(box);
    await userEvent.click(screen.getByRole("button", { name: "Save choices", hidden: true }));
    expect(readConsent()?.accepted).toEqual(["analytics"]);
  });
});
