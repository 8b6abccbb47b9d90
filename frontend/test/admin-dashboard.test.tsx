// The admin dashboard's screens without a server: the plan form saves only what changed (empty =
// unlimited), tokens are bucketed per day and provider, and a type is turned off only after the
// confirmation, through admin_set_feature_enabled.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { IntlProvider } from "react-intl";
import type { ReactNode } from "react";
import sharedEn from "../src/i18n/messages/en.json";
import teamsEn from "../src/i18n/messages/teams/en.json";
import errorsEn from "../src/i18n/messages/errors/en.json";
import adminEn from "../src/i18n/messages/adminDashboard/en.json";
import adminDe from "../src/i18n/messages/adminDashboard/de.json";

const calls: { name: string; args: Record<string, unknown> }[] = [];
let nextResult: { data: unknown; error: unknown } = { data: null, error: null };

vi.mock("../src/lib/supabase", () => ({
  getSupabase: () => ({
    rpc: async (name: string, args: Record<string, unknown>) => {
      calls.push({ name, args });
      return nextResult;
    },
  }),
}));

import { changesOf, toForm } from "../src/features/adminDashboard/planForm";
import { PlanEditor } from "../src/features/adminDashboard/PlanEditor";
import { FeatureUsage } from "../src/features/adminDashboard/FeatureUsage";
import { periodSums, tokensByDay, type AdminDay } from "../src/data/adminDashboard/overview-query";
import type { PlanRow } from "../src/data/adminDashboard/plans-query";

const wrap = (children: ReactNode) => (
  <IntlProvider locale="en" messages={{ ...sharedEn, ...teamsEn, ...errorsEn, ...adminEn } as Record<string, string>}>
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>{children}</QueryClientProvider>
  </IntlProvider>
);

const names = { en: "Pro", de: "Pro", es: "Pro", fr: "Pro", it: "Pro", jp: "プロ", cn: "专业版", el: "Pro", pl: "Pro", nl: "Pro" };
const pro = {
  id: "pro", name: names, sort_order: 20, chat_requests_per_minute: 1500, bots: 20, messages_per_month: 10000, data_sources: 50,
  stored_characters: 20000000, members: 10, channels: null, power_ups: 20, api_access: true, powered_by_removable: true,
  test_runs_per_month: 500, created_at: "2026-11-27T00:00:00Z", updated_at: "2026-11-27T00:00:00Z",
  prices: { usd: { month: 1900, year: 19000 } }, stripe_price_ids: { usd: { month: "price_pro_usd_month" } },
} as PlanRow;

beforeEach(() => {
  calls.length = 0;
  nextResult = { data: null, error: null };
});

describe("plan form", () => {
  it("changes nothing when nothing was edited", () => {
    expect(changesOf(pro, toForm(pro))).toEqual({ changes: {}, problem: null });
  });
  it("sends the edited columns only; an empty limit is unlimited", () => {
    const form = { ...toForm(pro), bots: "25", channels: "3", power_ups: "", api_access: "", "name.de": "Profi" };
    expect(changesOf(pro, form)).toEqual({ changes: { bots: 25, channels: 3, power_ups: null, api_access: null, name: { ...names, de: "Profi" } }, problem: null });
  });
  it("refuses a negative or fractional limit, an empty required number and an empty name", () => {
    expect(changesOf(pro, { ...toForm(pro), bots: "-1" }).problem).toEqual({ field: "bots", id: "adminDashboard.plans.wholeNumber" });
    expect(changesOf(pro, { ...toForm(pro), members: "1.5" }).problem).toEqual({ field: "members", id: "adminDashboard.plans.wholeNumber" });
    expect(changesOf(pro, { ...toForm(pro), chat_requests_per_minute: "" }).problem).toEqual({ field: "chat_requests_per_minute", id: "adminDashboard.plans.numberRequired" });
    expect(changesOf(pro, { ...toForm(pro), "name.pl": " " }).problem).toEqual({ field: "name.pl", id: "adminDashboard.plans.nameRequired" });
  });
});

describe("dashboard figures", () => {
  const day = (d: string, extra: Partial<AdminDay> = {}): AdminDay => ({
    day: d, signups: 0, active_teams: 0, new_bots: 0, new_chats: 0, messages: 0, answers: 0, prompt_tokens: 0, completion_tokens: 0,
    latency_p50_ms: null, latency_p95_ms: null, provider_errors: 0, negative_feedback: 0, sync_failures: 0, ...extra,
  });
  it("puts tokens on their day per provider, empty days included", () => {
    const days = [day("2026-11-26"), day("2026-11-27")];
    const r = tokensByDay(days, [{ day: "2026-11-27", provider: "openai", tokens: 30 }, { day: "2026-11-27", provider: "anthropic", tokens: 5 }, { day: "2026-10-01", provider: "groq", tokens: 9 }]);
    expect(r.providers).toEqual(["anthropic", "groq", "openai"]);
    expect(r.tokens).toEqual([{ day: "2026-11-26", byProvider: {} }, { day: "2026-11-27", byProvider: { openai: 30, anthropic: 5 } }]);
  });
  it("sums the period", () => {
    const sums = periodSums([day("2026-11-26", { signups: 2, prompt_tokens: 10, completion_tokens: 5 }), day("2026-11-27", { signups: 1, sync_failures: 1 })]);
    expect(sums).toMatchObject({ signups: 3, tokens: 15, syncFailures: 1 });
  });
});

describe("plan editor", { timeout: 20_000 }, () => {
  it("saves a changed limit through admin_update_plan and says so", async () => {
    nextResult = { data: { ...pro, bots: 25 }, error: null };
    render(wrap(<PlanEditor plan={pro} />));
    const bots = screen.getByLabelText("Bots");
    await userEvent.clear(bots);
    await userEvent.type(bots, "25");
    await userEvent.click(screen.getByRole("button", { name: "Save plan" }));
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe("Saved."));
    expect(calls).toEqual([{ name: "admin_update_plan", args: { plan_id: "pro", changes: { bots: 25 } } }]);
  });
  it("says what is wrong with an invalid form and sends nothing", async () => {
    render(wrap(<PlanEditor plan={pro} />));
    await userEvent.clear(screen.getByLabelText("Members"));
    await userEvent.type(screen.getByLabelText("Members"), "-3");
    await userEvent.click(screen.getByRole("button", { name: "Save plan" }));
    expect(screen.getByText("Enter a whole number, 0 or more.")).toBeTruthy();
    expect(calls).toEqual([]);
  });
});

describe("feature switches", { timeout: 20_000 }, () => {
  const rows = [
    { type: "web", total: 3, enabled: 3, activity: 12, disabled: false },
    { type: "telegram", total: 1, enabled: 0, activity: 0, disabled: true },
    { type: "slack", total: 2, enabled: 2, activity: 4, disabled: false },
  ];
  it("never offers to turn the web channel off, and turns a type off only after confirming", async () => {
    nextResult = { data: false, error: null };
    render(wrap(<FeatureUsage kind="channel" rows={rows} />));
    const table = screen.getByRole("table", { name: "Channels per type" });
    expect(within(table).getByText("Always on")).toBeTruthy();
    expect(within(table).queryByRole("button", { name: "Turn off Web" })).toBeNull();
    await userEvent.click(within(table).getByRole("button", { name: "Turn off Slack" }));
    expect(calls).toEqual([]);
    await userEvent.click(screen.getByRole("button", { name: "Turn off" }));
    await waitFor(() => expect(calls).toEqual([{ name: "admin_set_feature_enabled", args: { kind: "channel", type: "slack", enabled: false } }]));
    await userEvent.click(within(table).getByRole("button", { name: "Turn on Telegram" }));
    await waitFor(() => expect(calls[1]).toEqual({ name: "admin_set_feature_enabled", args: { kind: "channel", type: "telegram", enabled: true } }));
  });
});

describe("messages", () => {
  it("German has every id English has", () => {
    expect(Object.keys(adminDe).sort()).toEqual(Object.keys(adminEn).sort());
  });
});
