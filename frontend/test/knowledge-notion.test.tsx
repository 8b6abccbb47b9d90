// Connecting Notion to a new data source: the provider pages hand the OAuth round trip to the
// notion-connect function (never to GoTrue's sign-in), the callback returns to the form with a
// connection id, and the form lists the workspace, takes picks and hands the connection to
// the new source. The Notion token never appears in the browser.
import { describe, expect, it, vi, beforeEach, afterEach } from "vitest";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { IntlProvider } from "react-intl";
import { createMemoryRouter, RouterProvider, useLocation } from "react-router";
import type { ReactElement, ReactNode } from "react";
import shared from "../src/i18n/messages/en.json";
import auth from "../src/i18n/messages/auth/en.json";
import sources from "../src/i18n/messages/sources/en.json";
import knowledge from "../src/i18n/messages/knowledge/en.json";

const BOT = "6f1c1a4e-9a56-4e55-8a39-0d3c3c1d9a11";
const SOURCE = "0b6c9a53-8e0e-4a44-a7a5-9ad3a1c1d2e3";
const CONNECTION = "5d1e7b0a-3c4f-4e2a-9b8c-7a6d5e4f3a21";
const PAGE = "11111111-1111-4111-8111-111111111111";
const DB = "22222222-2222-4222-8222-222222222222";
const inserts: Record<string, unknown>[] = [];

vi.mock("../src/lib/supabase", () => ({
  getSupabase: () => ({
    auth: { getSession: async () => ({ data: { session: { access_token: "user-token", user: { id: "u1" } } } }) },
    from: (table: string) => ({
      insert: (row: Record<string, unknown>) => {
        inserts.push({ table, ...row });
        return { select: () => ({ single: async () => ({ data: { id: SOURCE, ...row, status: "idle", document_count: 0, chunk_count: 0 }, error: null }) }) };
      },
    }),
  }),
}));
vi.mock("../src/lib/config", () => ({ getConfig: () => ({ supabaseUrl: "http://api.test", supabaseAnonKey: "anon", apiBaseUrl: "http://api.test/functions/v1" }) }));

import ProviderStartPage from "../src/routes/auth/ProviderStartPage";
import ProviderCallbackPage from "../src/routes/auth/ProviderCallbackPage";
import { NewSourceForm } from "../src/features/knowledge/NewSourceForm";
import { notionKey } from "../src/features/knowledge/NotionConnect";
import { withParam } from "../src/routes/auth/notion-connect";
import { AuthDepsProvider } from "../src/features/auth/deps";
import { ToastProvider } from "../src/components/ui";

const messages = { ...shared, ...auth, ...sources, ...knowledge } as Record<string, string>;

type Reply = { status?: number; body: unknown };
let replies: Record<string, Reply | ((body: Record<string, unknown>) => Reply)> = {};
const calls: { path: string; body: Record<string, unknown>; auth: string | null }[] = [];

beforeEach(() => {
  inserts.length = 0;
  calls.length = 0;
  replies = {};
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    const path = url.replace("http://api.test/functions/v1/", "");
    const body = JSON.parse(String(init.body ?? "{}")) as Record<string, unknown>;
    calls.push({ path, body, auth: new Headers(init.headers).get("authorization") });
    const key = Object.keys(replies).find((k) => path.startsWith(k));
    const r = key ? replies[key]! : { status: 404, body: { error: { code: "not_found", message: "No such route" } } };
    const reply = typeof r === "function" ? r(body) : r;
    return new Response(JSON.stringify(reply.body), { status: reply.status ?? 200, headers: { "content-type": "application/json" } });
  });
});
afterEach(() => vi.unstubAllGlobals());

function providers(children: ReactNode) {
  return (
    <IntlProvider locale="en" messages={messages}>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <AuthDepsProvider value={{ siteUrl: () => "http://app.test", client: async () => { throw new Error("GoTrue must not be used to connect Notion"); } }}>
          <ToastProvider>{children}</ToastProvider>
        </AuthDepsProvider>
      </QueryClientProvider>
    </IntlProvider>
  );
}

function Landed() {
  const loc = useLocation();
  return <p data-testid="landed">{loc.pathname + loc.search}</p>;
}

function renderAt(url: string, path: string, page: ReactElement) {
  const router = createMemoryRouter(
    [
      { path, element: page, handle: { def: { id: "t", path, layout: "basic", title: "page.auth.login.title", meta: { provider: "notion" } } } },
      { path: "*", element: <Landed /> },
    ],
    { initialEntries: [url] },
  );
  render(providers(<RouterProvider router={router} />));
}

const workspace = {
  workspace_name: "Acme workspace",
  results: [
    { id: DB, type: "database", title: "Policies", url: null, icon: "🗂️", last_edited_time: null },
    { id: PAGE, type: "page", title: "Onboarding handbook", url: null, icon: "📘", last_edited_time: null },
  ],
  next_cursor: null,
};

describe("connecting Notion", { timeout: 20_000 }, () => {
  it("start page: asks notion-connect for Notion's consent page and goes there, the session untouched", async () => {
    const assign = vi.fn();
    vi.stubGlobal("location", { ...window.location, assign });
    replies = { "notion-connect/start": { body: { url: "http://notion.test/v1/oauth/authorize?client_id=c&state=s" } } };
    const back = `/de/app/bots/${BOT}/data-sources/new?type=notion`;
    renderAt(`/app/auth/providers/notion?connect=1&redirect=${encodeURIComponent(back)}`, "/app/auth/providers/notion", <ProviderStartPage />);
    await waitFor(() => expect(assign).toHaveBeenCalledWith("http://notion.test/v1/oauth/authorize?client_id=c&state=s"));
    expect(calls[0]).toEqual({
      path: "notion-connect/start",
      body: { redirect_uri: "http://app.test/app/auth/providers/notion/callback", return_path: back },
      auth: "Bearer user-token",
    });
  });

  it("start page: an unsafe redirect falls back to the bots list; a server without Notion says so", async () => {
    replies = { "notion-connect/start": { status: 503, body: { error: { code: "notion_not_configured", message: "not configured" } } } };
    renderAt(`/app/auth/providers/notion?connect=1&redirect=${encodeURIComponent("//evil.test/x")}`, "/app/auth/providers/notion", <ProviderStartPage />);
    expect(await screen.findByTestId("notion-connect-error")).toHaveTextContent("Connecting Notion is not set up on this server.");
    expect(calls[0]!.body.return_path).toBe("/app/bots");
  });

  it("callback: exchanges Notion's code once and returns to the form with the connection id", async () => {
    replies = { "notion-connect/exchange": { body: { connection_id: CONNECTION, workspace_name: "Acme workspace", return_path: `/de/app/bots/${BOT}/data-sources/new?type=notion` } } };
    renderAt("/app/auth/providers/notion/callback?code=c1&state=s1", "/app/auth/providers/notion/callback", <ProviderCallbackPage />);
    expect(await screen.findByTestId("landed")).toHaveTextContent(`/de/app/bots/${BOT}/data-sources/new?type=notion&notion_connection=${CONNECTION}`);
    expect(calls.filter((c) => c.path === "notion-connect/exchange")).toEqual([{ path: "notion-connect/exchange", body: { state: "s1", code: "c1" }, auth: "Bearer user-token" }]);
  });

  it("callback: a denied consent explains itself and links back to the form", async () => {
    const back = `/app/bots/${BOT}/data-sources/new?type=notion`;
    replies = { "notion-connect/exchange": { status: 400, body: { error: { code: "notion_denied", message: "denied", details: { return_path: back } } } } };
    renderAt("/app/auth/providers/notion/callback?error=access_denied&state=s2", "/app/auth/providers/notion/callback", <ProviderCallbackPage />);
    expect(await screen.findByTestId("notion-connect-error")).toHaveTextContent("Notion access was not granted");
    expect(screen.getByRole("link", { name: "Back to the data source form" }).getAttribute("href")).toBe(back);
    expect(calls[0]!.body).toEqual({ state: "s2", error: "access_denied" });
  });

  it("form: lists the workspace, takes picks, hands the connection to the new source", async () => {
    replies = {
      "notion-connect/search": (b) => ({ body: b.query ? { ...workspace, results: workspace.results.filter((r) => r.title.toLowerCase().includes(String(b.query))) } : workspace }),
      "ingest/notion/token": { body: { ok: true } },
      "ingest/sources": { status: 202, body: { job_id: "job-1" } },
    };
    const onCreated = vi.fn();
    render(providers(<NewSourceForm botId={BOT} initialType="notion" notionConnectHref="/app/auth/providers/notion?connect=1" notionConnectionId={CONNECTION} onCreated={onCreated} />));
    expect(await screen.findByText("Connected to Acme workspace.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Connect another workspace" }).getAttribute("href")).toBe("/app/auth/providers/notion?connect=1");

    // nothing picked yet: the picker says so
    await userEvent.type(screen.getByLabelText("Name"), "Company wiki");
    await userEvent.click(screen.getByRole("button", { name: "Add and start syncing" }));
    expect(await screen.findByText("Add at least one page or database.")).toBeInTheDocument();
    expect(inserts).toEqual([]);

    await userEvent.click(screen.getByRole("checkbox", { name: /Onboarding handbook/ }));
    await userEvent.click(screen.getByRole("checkbox", { name: /Policies/ }));
    expect(screen.getByTestId("notion-picked-count")).toHaveTextContent("2 selected");
    // searching keeps the picks
    await userEvent.type(screen.getByLabelText("Search the workspace"), "hand");
    await waitFor(() => expect(screen.queryByRole("checkbox", { name: /Policies/ })).toBeNull());
    expect(screen.getByRole("checkbox", { name: /Onboarding handbook/ })).toBeChecked();
    expect(calls.some((c) => c.path === "notion-connect/search" && c.body.query === "hand" && c.body.connection_id === CONNECTION)).toBe(true);

    await userEvent.click(screen.getByRole("button", { name: "Add and start syncing" }));
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith(SOURCE, false));
    expect(inserts[0]).toMatchObject({ type: "notion", name: "Company wiki", settings: { pages: [PAGE], databases: [DB] } });
    expect(calls.find((c) => c.path === "ingest/notion/token")?.body).toEqual({ data_source_id: SOURCE, connection_id: CONNECTION });
    expect(calls.at(-1)?.path).toBe(`ingest/sources/${SOURCE}/sync`);
  });

  it("form: before connecting, a Connect Notion button; links and a pasted token stay under Advanced", async () => {
    replies = { "ingest/notion/token": { body: { ok: true } }, "ingest/sources": { status: 202, body: { job_id: "job-1" } } };
    const onCreated = vi.fn();
    render(providers(<NewSourceForm botId={BOT} initialType="notion" notionConnectHref="/app/auth/providers/notion?connect=1" onCreated={onCreated} />));
    expect(screen.getByRole("link", { name: "Connect Notion" }).getAttribute("href")).toBe("/app/auth/providers/notion?connect=1");
    await userEvent.click(screen.getByText("Advanced: page links and an integration token"));
    await userEvent.type(screen.getByLabelText("Name"), "Wiki");
    await userEvent.type(screen.getByLabelText("Pages"), `https://www.notion.so/Handbook-${PAGE.replace(/-/g, "")}`);
    await userEvent.type(screen.getByLabelText("Access token"), "secret_pasted");
    await userEvent.click(screen.getByRole("button", { name: "Add and start syncing" }));
    await waitFor(() => expect(onCreated).toHaveBeenCalled());
    expect(calls.find((c) => c.path === "ingest/notion/token")?.body).toEqual({ data_source_id: SOURCE, access_token: "secret_pasted" });
    expect(calls.some((c) => c.path.startsWith("notion-connect"))).toBe(false);
  });

  it("ids and links compare by their 32 hex digits; return paths keep their query", () => {
    expect(notionKey(PAGE)).toBe(PAGE.replace(/-/g, ""));
    expect(notionKey(`https://www.notion.so/acme/Handbook-${PAGE.replace(/-/g, "")}?pvs=4`)).toBe(PAGE.replace(/-/g, ""));
    expect(notionKey("not an id")).toBeNull();
    expect(withParam("/de/app/bots/b/data-sources/new?type=notion", "notion_connection", "c1")).toBe("/de/app/bots/b/data-sources/new?type=notion&notion_connection=c1");
  });
});
