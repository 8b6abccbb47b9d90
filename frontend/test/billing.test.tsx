// Billing pieces without a server: plan cards from table rows (prices and limits in the reader's
// language, nothing hard-coded), usage meters, and the plan limit error (PT402) naming the limit
// with a link to upgrade.
import { describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/react";
import { IntlProvider } from "react-intl";
import { MemoryRouter } from "react-router";
import type { ReactNode } from "react";
import sharedEn from "../src/i18n/messages/en.json";
import sharedDe from "../src/i18n/messages/de.json";
import billingEn from "../src/i18n/messages/billing/en.json";
import billingDe from "../src/i18n/messages/billing/de.json";
import errorsEn from "../src/i18n/messages/errors/en.json";
import errorsDe from "../src/i18n/messages/errors/de.json";
import { ErrorNote } from "../src/components/ErrorNote";
import { PlanCards } from "../src/features/billing/PlanCards";
import { UsageMeters } from "../src/features/billing/UsageMeters";
import type { Plan } from "../src/data/billing/types";
import { errorMessage, toAppError } from "../src/lib/errors";

const wrap = (locale: "en" | "de", children: ReactNode, path = "/") => (
  <IntlProvider locale={locale} messages={(locale === "en" ? { ...sharedEn, ...billingEn, ...errorsEn } : { ...sharedDe, ...billingDe, ...errorsDe }) as Record<string, string>}>
    <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>
  </IntlProvider>
);

const plan = (over: Partial<Plan>): Plan => ({
  id: "pro", sort_order: 20, name: { en: "Pro", de: "Pro Plus" }, chat_requests_per_minute: 600, bots: 7, messages_per_month: 1234,
  data_sources: 5, stored_characters: 1000, members: 3, channels: null, power_ups: 2, api_access: true, powered_by_removable: false,
  test_runs_per_month: 9, prices: { eur: { month: 4200, year: 42000 } }, stripe_price_ids: {}, created_at: "", updated_at: "", ...over,
}) as Plan;

describe("plan cards", () => {
  it("show the table's prices and limits in the reader's language", () => {
    render(wrap("de", <PlanCards plans={[plan({})]} interval="month" currency="eur" locale="de" currentPlanId="pro" />));
    expect(screen.getByRole("heading", { name: "Pro Plus" })).toBeTruthy();
    expect(screen.getByText(/42,00\s€/)).toBeTruthy();
    expect(screen.getByText("7 Bots")).toBeTruthy();
    expect(screen.getByText("Unbegrenzt Kanäle")).toBeTruthy();
    expect(screen.getByText("HTTP-API inklusive")).toBeTruthy();
    expect(screen.getByText("Ihr Plan")).toBeTruthy();
  });

  it("show yearly prices and a free plan without a price", () => {
    render(wrap("en", <PlanCards plans={[plan({}), plan({ id: "free", name: { en: "Free" }, prices: {} })]} interval="year" currency="eur" locale="en" />));
    expect(screen.getByText(/€420\.00/)).toBeTruthy();
    expect(screen.getAllByText("Free").length).toBe(2);
  });
});

describe("usage meters", () => {
  it("show use against each limit and mark a full one", () => {
    const { container } = render(wrap("en", <UsageMeters meters={[
      { limit_name: "bots", used: 3, limit_value: 3, unlimited: false },
      { limit_name: "channels", used: 5, limit_value: null, unlimited: true },
      { limit_name: "api_access", used: 0, limit_value: 0, unlimited: false },
    ]} />));
    expect(container.querySelector('[data-limit="bots"]')?.getAttribute("data-full")).toBe("true");
    expect(screen.getByText("Bots")).toBeTruthy();
    expect(container.querySelector('[data-limit="channels"] .billing-meter-value')?.textContent).toBe("5 / unlimited");
    expect(screen.getByText("Not included")).toBeTruthy();
  });
});

describe("the plan limit error", () => {
  const pt402 = { code: "PT402", message: "The Free plan allows 3 bots. Upgrade for more.", details: "bots", hint: "plan_limit" };

  it("names the limit", () => {
    expect(errorMessage(pt402)).toEqual({ id: "billing.error.planLimit", values: { limit: "bots" } });
    expect(toAppError(pt402).hint).toBe("plan_limit");
  });

  it("is shown in the reader's language with a link to upgrade", () => {
    render(wrap("de", <ErrorNote error={pt402} />, "/de/app/bots"));
    expect(screen.getByText("Das Limit Ihres Plans ist erreicht: Bots.")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Pläne ansehen und upgraden" }).getAttribute("href")).toBe("/de/app/billing");
  });
});
