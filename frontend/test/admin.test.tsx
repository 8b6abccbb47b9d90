// The admin area's client side: CSV cells, keyset pages (the extra row, the cursor, the RPC
// arguments), the whole-list CSV export page by page, and a list screen (caption, aria-sort,
// sort buttons, next page through the cursor).
import { beforeEach, describe, expect, it, vi } from "vitest";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { IntlProvider } from "react-intl";
import { createMemoryRouter, RouterProvider } from "react-router";
import { client, fake, messages as base } from "./teams-fake-supabase";
import admin from "../src/i18n/messages/admin/en.json";

vi.mock("../src/lib/supabase", () => ({ getSupabase: () => client }));

import { csvCell, csvLine } from "../src/data/admin/csv";
import { exportAdminCsv } from "../src/data/admin/export";
import { fetchAdminPage } from "../src/data/admin/lists";
import { AdminListScreen } from "../src/features/admin/AdminListScreen";
import { LIST_CONFIGS } from "../src/features/admin/listConfigs";

const team = (n: number) => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`, name: `Team ${n}`, slug: `team-${n}`, personal: false, plan_id: "free",
  created_at: `2026-11-${String(1 + (n % 28)).padStart(2, "0")}T10:00:00.123456+00:00`, member_count: 1, bot_count: 2,
});
const rpcCalls = (name: string) => fake.calls.filter((c) => c.kind === "rpc" && c.name === name).map((c) => c.args as Record<string, unknown>);

beforeEach(() => fake.reset());

describe("csv", () => {
  it("quotes what needs quoting and defuses spreadsheet formulas", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell('say "hi", then go')).toBe('"say ""hi"", then go"');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvCell(null)).toBe("");
    expect(csvCell(["email", "github"])).toBe("email github");
    expect(csvLine([1, true, "a,b"])).toBe('1,true,"a,b"\r\n');
  });
});

describe("keyset pages", () => {
  it("asks one row more than a page, keeps the page and makes the cursor from its last row", async () => {
    fake.on((c) => (c.name === "admin_list_teams" ? { data: Array.from({ length: 26 }, (_, i) => team(i)), error: null } : undefined));
    const page = await fetchAdminPage("teams", { search: " acme ", sort: "name", descending: false, filters: { plan_filter: "pro", personal_filter: undefined } }, null);
    expect(page.rows).toHaveLength(25);
    expect(page.next).toEqual({ value: "Team 24", id: team(24).id });
    expect(rpcCalls("admin_list_teams")[0]).toEqual({ search: "acme", sort: "name", descending: false, page_size: 26, plan_filter: "pro" });

    await fetchAdminPage("teams", { sort: "created_at", descending: true, filters: {} }, page.next);
    expect(rpcCalls("admin_list_teams")[1]).toMatchObject({ after_value: "Team 24", after_id: team(24).id });
  });

  it("has no next page when the extra row did not come; lists with one order send no sort", async () => {
    fake.on((c) => (c.name === "admin_list_users" ? { data: [{ id: "u1", created_at: "2026-11-01T00:00:00+00:00" }], error: null } : undefined));
    const page = await fetchAdminPage("users", { sort: "created_at", descending: true, filters: { kind_filter: "banned" } }, null);
    expect(page.next).toBeNull();
    expect(rpcCalls("admin_list_users")[0]).toEqual({ descending: true, page_size: 26, kind_filter: "banned" });
  });

  it("exports the whole filtered list as CSV, 500 rows a request, following the cursor", async () => {
    let served = 0;
    fake.on((c) => {
      if (c.name !== "admin_list_teams") return undefined;
      const n = served === 0 ? 501 : 3;
      const rows = Array.from({ length: n }, (_, i) => team(served + i));
      served += Math.min(n, 500);
      return { data: rows, error: null };
    });
    const progress: number[] = [];
    const blob = await exportAdminCsv("teams", { sort: "created_at", descending: true, filters: { plan_filter: "pro" } }, LIST_CONFIGS.teams.csv, (n) => progress.push(n));
    const lines = (await blob.text()).trim().split("\r\n");
    expect(lines[0]).toBe("id,name,slug,plan_id,personal,members,bots,created_at");
    expect(lines).toHaveLength(1 + 503);
    expect(progress).toEqual([500, 503]);
    const calls = rpcCalls("admin_list_teams");
    expect(calls.map((c) => c.page_size)).toEqual([501, 501]);
    expect(calls[1]).toMatchObject({ plan_filter: "pro", after_id: team(499).id });
  });
});

describe("a list screen", () => {
  function renderList(url: string) {
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const router = createMemoryRouter([{ path: "/app/admin/teams", element: <AdminListScreen config={LIST_CONFIGS.teams} /> }], { initialEntries: [url] });
    render(
      <IntlProvider locale="en" messages={{ ...base, ...admin }}>
        <QueryClientProvider client={qc}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </IntlProvider>,
    );
    return router;
  }

  it("shows a captioned table with aria-sort, sorts by a header button and pages with the cursor", async () => {
    fake.on((c) => (c.name === "admin_list_teams" ? { data: Array.from({ length: 26 }, (_, i) => team(i)), error: null } : undefined));
    const router = renderList("/app/admin/teams?q=team");
    const table = await screen.findByRole("table", { name: "Teams, page 1" });
    expect(within(table).getAllByRole("row")).toHaveLength(26);
    expect(within(table).getByRole("columnheader", { name: /Created/ })).toHaveAttribute("aria-sort", "descending");
    expect(within(table).getByRole("columnheader", { name: /Name/ })).toHaveAttribute("aria-sort", "none");
    expect(within(table).getAllByRole("link", { name: "2" })[0]).toHaveAttribute("href", `/app/admin/bots?team=${team(0).id}`);

    await userEvent.click(screen.getByRole("button", { name: "Sort by Name" }));
    await waitFor(() => expect(router.state.location.search).toBe("?q=team&sort=name"));
    await waitFor(() => expect(rpcCalls("admin_list_teams").at(-1)).toMatchObject({ search: "team", sort: "name", descending: true }));

    await userEvent.click(screen.getByRole("button", { name: "Next" }));
    await screen.findByRole("table", { name: "Teams, page 2" });
    expect(rpcCalls("admin_list_teams").at(-1)).toMatchObject({ sort: "name", after_value: "Team 24", after_id: team(24).id });
    expect(screen.getByRole("button", { name: "Previous" })).toBeEnabled();
  });

  it("shows the empty state in the table and the database's refusal as an error", async () => {
    fake.on((c) => (c.name === "admin_list_teams" ? { data: [], error: null } : undefined));
    renderList("/app/admin/teams");
    expect(await screen.findByText("Nothing found.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Next" })).toBeDisabled();
  });
});
