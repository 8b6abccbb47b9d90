// An endpoint card: why the worker disabled it, in the reader's language (the last error too); the address and description edited in place, saving only those two columns.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { IntlProvider } from "react-intl";
import type { ReactNode } from "react";
import sharedEn from "../src/i18n/messages/en.json";
import sharedDe from "../src/i18n/messages/de.json";
import webhooksEn from "../src/i18n/messages/webhooks/en.json";
import webhooksDe from "../src/i18n/messages/webhooks/de.json";
import errorsEn from "../src/i18n/messages/errors/en.json";
import errorsDe from "../src/i18n/messages/errors/de.json";

const updates: { patch: Record<string, unknown>; id: unknown }[] = [];

vi.mock("../src/lib/supabase", () => ({
  getSupabase: () => ({
    from: () => ({
      update: (patch: Record<string, unknown>) => ({
        eq: async (_column: string, id: unknown) => {
          updates.push({ patch, id });
          return { error: null, count: 1 };
        },
      }),
    }),
  }),
}));
vi.mock("../src/lib/config", () => ({ getConfig: () => ({ supabaseUrl: "http://api.test", supabaseAnonKey: "anon", apiBaseUrl: "http://api.test/functions/v1", siteUrl: "http://app.test" }) }));

import { EndpointCard } from "../src/features/webhooks/EndpointCard";
import type { WebhookEndpoint } from "../src/data/webhooks/types";

const wrap = (locale: "en" | "de", children: ReactNode) => (
  <IntlProvider locale={locale} messages={{ ...(locale === "en" ? { ...sharedEn, ...webhooksEn, ...errorsEn } : { ...sharedDe, ...webhooksDe, ...errorsDe }) } as Record<string, string>}>
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>{children}</QueryClientProvider>
  </IntlProvider>
);

const endpoint: WebhookEndpoint = {
  id: "e1000000-0000-4000-8000-000000000001", bot_id: "c0000000-0000-4000-8000-000000000001", url: "https://hooks.example.com/a",
  events: ["lead.created"], enabled: false, description: "CRM", failure_count: 9,
  disabled_reason: "Disabled after 9 failed attempts over about a day (last: HTTP 503)",
  last_success_at: null, last_failure_at: "2026-11-24T10:00:00Z", created_at: "2026-11-23T10:00:00Z",
};

beforeEach(() => {
  updates.length = 0;
});

describe("endpoint card", { timeout: 20_000 }, () => {
  it("says why the endpoint was disabled in the reader's language", () => {
    render(wrap("de", <EndpointCard endpoint={endpoint} selected={false} onSelect={() => {}} />));
    expect(screen.getByText(/^Nach 9 fehlgeschlagenen Versuchen innerhalb von etwa einem Tag deaktiviert\./)).toBeTruthy();
    expect(screen.queryByText(/Disabled after/)).toBeNull();
  });

  it("never shows a reason it does not know in the server's English", () => {
    render(wrap("de", <EndpointCard endpoint={{ ...endpoint, disabled_reason: "Turned off by support" }} selected={false} onSelect={() => {}} />));
    expect(screen.getByText("Nach wiederholt fehlgeschlagenen Zustellungen deaktiviert.")).toBeTruthy();
    expect(screen.queryByText("Turned off by support")).toBeNull();
  });

  it("edits the address and description in place", async () => {
    const user = userEvent.setup();
    render(wrap("en", <EndpointCard endpoint={endpoint} selected={false} onSelect={() => {}} />));
    await user.click(screen.getByRole("button", { name: "Edit" }));
    const url = screen.getByLabelText("Address (URL)");
    await user.clear(url);
    await user.type(url, "https://hooks.example.com/b");
    const description = screen.getByLabelText("Description");
    await user.clear(description);
    await user.type(description, "  New CRM  ");
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(updates).toEqual([{ id: endpoint.id, patch: { url: "https://hooks.example.com/b", description: "New CRM" } }]));
    await waitFor(() => expect(screen.queryByRole("button", { name: "Save" })).toBeNull());
  });
});
