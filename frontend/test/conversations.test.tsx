// The conversation screens and charts against a recording stand-in for the Supabase client:
// charts render their data and an accessible table, filters and the URL stay in step, the
// open conversation updates from realtime events and renders hostile text as text.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { IntlProvider } from "react-intl";
import { createMemoryRouter, RouterProvider } from "react-router";
import type { ComponentType } from "react";
import base from "../src/i18n/messages/en.json";
import teams from "../src/i18n/messages/teams/en.json";
import bots from "../src/i18n/messages/bots/en.json";
import conv from "../src/i18n/messages/conversations/en.json";
import { recordingDb } from "./recording-supabase";

const db = Object.assign(recordingDb(() => void (db.listeners = [])), { listeners: [] as { table: string; filter: string; cb: () => void }[] });

/** Answers of RPCs by function name (the nav badge's count). */
const rpcs: Record<string, (args: unknown) => unknown> = {};
const client = {
  from: (t: string) => db.from(t),
  rpc: async (fn: string, args: unknown) => ({ data: rpcs[fn]?.(args) ?? null, error: null }),
  auth: { getSession: async () => ({ data: { session: { access_token: "t", user: { id: USER } } } }) },
  channel: () => {
    const ch = {
      on: (_type: string, opts: { table: string; filter: string }, cb: () => void) => (db.listeners.push({ table: opts.table, filter: opts.filter, cb }), ch),
      subscribe: () => ch,
    };
    return ch;
  },
  removeChannel: async () => "ok",
};

vi.mock("../src/lib/supabase", () => ({ getSupabase: () => client }));
vi.mock("../src/lib/session", () => ({ useSession: () => ({ status: "ready", user: { id: USER }, session: null, lastEvent: null }) }));

import { BarChart } from "../src/features/charts/BarChart";
import { bucketByDay } from "../src/data/stats/aggregate";
import { conversationPath, parseConversationLocation } from "../src/features/conversations/filters";
import ConversationsPage from "../src/routes/app/conversations/ConversationsPage";
import MyChatsPage from "../src/routes/app/my-chats/MyChatsPage";
import { WaitingForHumanBadge } from "../src/features/conversations/WaitingForHumanBadge";

const USER = "11111111-1111-1111-1111-111111111111";
const TEAM = "22222222-2222-2222-2222-222222222222";
const BOT_A = "c0000000-0000-4000-8000-00000000000a";
const BOT_B = "c0000000-0000-4000-8000-00000000000b";
const CHAT = "f9000000-0000-4000-8000-000000000001";
const messages = { ...base, ...teams, ...bots, ...conv } as Record<string, string>;

function renderAt(Screen: ComponentType, path: string, url: string) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path, Component: Screen }, { path: "/bots/:botId/chats/:chatId", element: <p>visitor chat page</p> }], { initialEntries: [url] });
  render(
    <IntlProvider locale="en" messages={messages}>
      <QueryClientProvider client={qc}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </IntlProvider>,
  );
  return router;
}

const chatRow = (id: string, title: string | null, extra: Record<string, unknown> = {}) => ({
  id, bot_id: BOT_A, user_id: USER, channel: "web", title, shared: false, needs_human: false, message_count: 2,
  last_message_at: "2026-11-20T10:00:00Z", created_at: "2026-11-20T09:59:00Z", bot: { name: "Acme Help Center", avatar_url: null }, ...extra,
});

describe("BarChart", () => {
  it("draws one focusable point per day with a tooltip and the same numbers in a hidden table", async () => {
    render(
      <BarChart title="Feedback per day" labelHeader="Day" points={[{ label: "Nov 19", values: { up: 2, down: 0 } }, { label: "Nov 20", values: { up: 1, down: 3 } }]}
        series={[{ key: "up", name: "Up", color: "green" }, { key: "down", name: "Down", color: "red" }]} />,
    );
    const table = screen.getByRole("table", { name: "Feedback per day" });
    const rows = within(table).getAllByRole("row");
    expect(rows.map((r) => r.textContent)).toEqual(["DayUpDown", "Nov 1920", "Nov 2013"]);
    const point = screen.getByRole("img", { name: "Nov 20: Up 1, Down 3" });
    expect(point.getAttribute("tabindex")).toBe("0");
    expect(point.querySelectorAll("rect[fill]")).toHaveLength(2);
    expect(screen.queryByRole("tooltip")).toBeNull();
    fireEvent.focus(point);
    expect(screen.getByRole("tooltip").textContent).toContain("Down: 3");
    fireEvent.blur(point);
    expect(screen.queryByRole("tooltip")).toBeNull();
  });

  it("buckets rows into UTC days, empty days included", () => {
    const points = bucketByDay(3, new Date("2026-11-21T12:00:00Z"), {
      conversations: [{ created_at: "2026-11-21T01:00:00Z" }, { created_at: "2026-11-10T01:00:00Z" }],
      messages: [{ created_at: "2026-11-19T23:59:59Z" }, { created_at: "2026-11-21T00:00:00Z" }],
      feedback: [{ created_at: "2026-11-20T05:00:00Z", rating: "up" }, { created_at: "2026-11-20T06:00:00Z", rating: "down" }],
    });
    expect(points).toEqual([
      { day: "2026-11-19", conversations: 0, messages: 1, up: 0, down: 0 },
      { day: "2026-11-20", conversations: 0, messages: 0, up: 1, down: 1 },
      { day: "2026-11-21", conversations: 1, messages: 1, up: 0, down: 0 },
    ]);
  });
});

describe("conversation filters in the URL", () => {
  it("round-trips bot, chat, channel, dates, feedback and waiting for a person", () => {
    const loc = { filters: { botId: BOT_A, channel: "widget" as const, from: "2026-11-01", to: "2026-11-20", feedback: "down" as const, human: true }, chatId: CHAT };
    const url = conversationPath(loc);
    expect(url).toBe(`/app/conversations/bot/${BOT_A}/chat/${CHAT}?channel=widget&from=2026-11-01&to=2026-11-20&feedback=down&human=1`);
    const [p, q] = url.split("?");
    expect(parseConversationLocation(p!.replace("/app/conversations/", ""), new URLSearchParams(q))).toEqual(loc);
  });

  it("ignores malformed and hostile parts", () => {
    const loc = parseConversationLocation("bot/not-a-uuid/chat/<script>/x", new URLSearchParams("channel=fax&from=2026-13-45&feedback=maybe&to=');drop"));
    expect(loc).toEqual({ filters: {}, chatId: undefined });
    expect(conversationPath(loc)).toBe("/app/conversations/all");
  });
});

describe("ConversationsPage", () => {
  beforeEach(() => {
    db.reset();
    localStorage.clear();
    db.tables.team_members = () => [{ role: "owner", teams: { id: TEAM, name: "Acme Support", slug: "acme", personal: false } }];
    db.tables.bots = () => [
      { id: BOT_A, team_id: TEAM, name: "Acme Help Center", suggested_questions: [], theme: {} },
      { id: BOT_B, team_id: TEAM, name: "Acme Internal", suggested_questions: [], theme: {} },
    ];
  });

  it("reads filters from the URL, writes them back, and opens a conversation that updates live", async () => {
    const thread = [
      { id: "m1", chat_id: CHAT, role: "user", content: "<img src=x onerror=alert(1)>Hello?", sources: [], latency_ms: null, first_token_ms: null, model: null, provider: null, error: null, created_at: "2026-11-20T09:59:00Z" },
      { id: "m2", chat_id: CHAT, role: "assistant", content: "**Export**: <b>Hi</b> there", sources: [{ title: "Guide", url: "javascript:alert(1)", excerpt: "Read me" }], latency_ms: 48, first_token_ms: 41, model: null, provider: "extractive", error: null, created_at: "2026-11-20T09:59:01Z" },
    ];
    db.tables.chats = (call) => (call.ops.some((o) => o.startsWith(`eq id ${CHAT}`)) ? [chatRow(CHAT, "Where are my notes?")] : [chatRow(CHAT, "Where are my notes?")]);
    db.tables.messages = () => [...thread];
    db.tables.message_feedback = () => [{ message_id: "m2", rating: "up", comment: "Great" }];
    db.tables.power_up_calls = () => [{
      id: "pc1", message_id: "m2", name: "lookup_order", arguments: { order_id: "A-1001" }, status: "error", error_code: "http_error",
      request: { method: "GET", url: "https://shop.test/orders/A-1001", headers: { Authorization: "Bearer ••••" }, body: null },
      result: "<script>window.__pwned = 1</script>", duration_ms: 120, created_at: "2026-11-20T09:59:01Z",
    }];
    const router = renderAt(ConversationsPage, "/app/conversations/*", "/app/conversations/all?channel=web");
    const list = await screen.findByRole("list", { name: "Conversations" });
    expect(within(list).getByText("Where are my notes?")).toBeTruthy();
    const listCall = db.calls.find((c) => c.table === "chats")!;
    expect(listCall.ops).toContain("eq channel web");
    expect(listCall.ops).toContain(`in bot_id ${JSON.stringify([BOT_A, BOT_B])}`);
    expect((screen.getByLabelText("Channel") as HTMLSelectElement).value).toBe("web");

    // Choosing a bot rewrites the path; the channel stays in the query.
    await userEvent.selectOptions(screen.getByLabelText("Bot"), BOT_B);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/app/conversations/bot/${BOT_B}`));
    expect(router.state.location.search).toBe("?channel=web");
    await waitFor(() => expect(db.calls.some((c) => c.table === "chats" && c.ops.includes(`in bot_id ${JSON.stringify([BOT_B])}`))).toBe(true));
    await userEvent.selectOptions(screen.getByLabelText("Feedback"), "none");
    await waitFor(() => expect(router.state.location.search).toBe("?channel=web&feedback=none"));

    // Opening a conversation: hostile text stays text, a javascript: source is not a link.
    await userEvent.click(await within(await screen.findByRole("list", { name: "Conversations" })).findByRole("link", { name: /Where are my notes/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/app/conversations/bot/${BOT_B}/chat/${CHAT}`));
    const view = await screen.findByRole("list", { name: "Messages" });
    expect(within(view).getByText("<img src=x onerror=alert(1)>Hello?")).toBeTruthy();
    expect(view.querySelector("img")).toBeNull();
    expect(within(view).getByText("Export").tagName).toBe("STRONG");
    expect(within(view).getByText(/<b>Hi<\/b> there/)).toBeTruthy();
    expect(view.querySelector("b")).toBeNull();
    expect(within(view).getByText("Guide").closest("a")).toBeNull();
    expect(within(view).getByText("Answered in 48 ms")).toBeTruthy();
    expect(within(view).getByText(/Helpful/)).toBeTruthy();
    // The power-up calls behind the answer, in full and as text.
    expect(db.calls.find((c) => c.table === "power_up_calls")!.ops).toContain(`eq chat_id ${CHAT}`);
    const calls = within(view).getByText("1 power-up call").closest("details")!;
    expect(within(calls).getByText("Failed: http_error")).toBeTruthy();
    expect(within(calls).getByText(/GET https:\/\/shop.test\/orders\/A-1001\s+Authorization: Bearer ••••/)).toBeTruthy();
    expect(within(calls).getByText(/"order_id": "A-1001"/)).toBeTruthy();
    expect(within(calls).getByText("<script>window.__pwned = 1</script>")).toBeTruthy();
    expect(calls.querySelector("script")).toBeNull();

    // A realtime insert on this chat's messages refreshes the view.
    const live = db.listeners.find((l) => l.table === "messages");
    expect(live?.filter).toBe(`chat_id=eq.${CHAT}`);
    expect(db.listeners.find((l) => l.table === "chats")?.filter).toBe(`bot_id=in.(${[BOT_A, BOT_B].sort().join(",")})`);
    thread.push({ ...thread[0]!, id: "m3", content: "One more question", created_at: "2026-11-20T10:01:00Z" });
    live!.cb();
    expect(await within(view).findByText("One more question")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Delete conversation" })).toBeTruthy();
  });

  it("filters chats waiting for a person, counts them, and lets the owner reply and hand back", async () => {
    const waiting = chatRow(CHAT, "I want to talk to a human", { needs_human: true });
    db.tables.chats = (call) => (call.ops.some((o) => o.includes(`"head":true`)) ? [waiting, chatRow("f9000000-0000-4000-8000-000000000009", null, { needs_human: true })] : [waiting]);
    db.tables.messages = () => [
      { id: "m1", chat_id: CHAT, role: "user", content: "A human please", sources: [], latency_ms: null, first_token_ms: null, model: null, provider: null, error: null, created_at: "2026-11-20T09:59:00Z" },
      { id: "m2", chat_id: CHAT, role: "human", content: "Hi, <b>Olivia</b> here", sources: [], latency_ms: null, first_token_ms: null, model: null, provider: null, error: null, created_at: "2026-11-20T10:00:00Z" },
    ];
    const calls: { url: string; body: unknown }[] = [];
    const fetchSpy = vi.spyOn(globalThis, "fetch").mockImplementation(async (url, init) => {
      calls.push({ url: String(url), body: JSON.parse(String(init?.body ?? "{}")) });
      return new Response(JSON.stringify({ ok: true, message_id: "m3" }), { status: 200, headers: { "content-type": "application/json" } });
    });
    const router = renderAt(ConversationsPage, "/app/conversations/*", "/app/conversations/all");

    // The count of waiting chats sits by the filter; ticking it rewrites the URL and the query.
    const filter = await screen.findByRole("checkbox", { name: /Needs a person/ });
    await waitFor(() => expect(filter.closest("label")).toHaveTextContent("2 conversations wait for a person"));
    await userEvent.click(filter);
    await waitFor(() => expect(router.state.location.search).toBe("?human=1"));
    await waitFor(() => expect(db.calls.some((c) => c.table === "chats" && c.ops.includes("eq needs_human true") && !c.ops.some((o) => o.includes(`"head":true`)))).toBe(true));
    const list = await screen.findByRole("list", { name: "Conversations" });
    expect(within(list).getByText("Needs a person")).toBeTruthy();

    // The open conversation: the person's reply is theirs, as text; the owner replies and hands back.
    await userEvent.click(within(list).getByRole("link", { name: /I want to talk to a human/ }));
    const view = await screen.findByRole("list", { name: "Messages" });
    expect(within(view).getByText("Team member")).toBeTruthy();
    expect(within(view).getByText("Hi, <b>Olivia</b> here")).toBeTruthy();
    expect(view.querySelector("b")).toBeNull();
    expect(screen.getByRole("status")).toHaveTextContent("The visitor is waiting for a person.");
    const box = screen.getByRole("textbox", { name: "Reply to the visitor" });
    await userEvent.type(box, "  We are on it.  ");
    await userEvent.click(screen.getByRole("button", { name: "Send reply" }));
    await waitFor(() => expect(box).toHaveValue(""));
    await userEvent.click(screen.getByRole("button", { name: "Hand back to the bot" }));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[0]!.url).toMatch(/\/power-ups\/reply$/);
    expect(calls[0]!.body).toEqual({ chat_id: CHAT, content: "We are on it." });
    expect(calls[1]!.url).toMatch(/\/power-ups\/hand-back$/);
    expect(calls[1]!.body).toEqual({ chat_id: CHAT });
    fetchSpy.mockRestore();
  });

  it("shows a power-up call as the engine makes it, before the answer is stored, then under the answer", async () => {
    const thread = [
      { id: "m1", chat_id: CHAT, role: "user", content: "Where is A-7?", sources: [], latency_ms: null, first_token_ms: null, model: null, provider: null, error: null, created_at: "2026-11-20T09:59:00Z" },
    ];
    const calls: Record<string, unknown>[] = [];
    db.tables.chats = () => [chatRow(CHAT, "Where is A-7?")];
    db.tables.messages = () => [...thread];
    db.tables.power_up_calls = () => calls.map((c) => ({ ...c }));
    renderAt(ConversationsPage, "/app/conversations/*", `/app/conversations/all/chat/${CHAT}`);
    const view = await screen.findByRole("list", { name: "Messages" });
    expect(within(view).getByText("Where is A-7?")).toBeTruthy();
    expect(within(view).queryByTestId("conv-pending-calls")).toBeNull();

    // The engine writes the call while the model is still answering: realtime on power_up_calls.
    const live = db.listeners.find((l) => l.table === "power_up_calls");
    expect(live?.filter).toBe(`chat_id=eq.${CHAT}`);
    calls.push({ id: "pc1", message_id: null, name: "lookup_order", arguments: { order_id: "A-7" }, status: "ok", error_code: null,
      request: { method: "GET", url: "https://shop.test/orders/A-7", headers: {} }, result: '{"status":"shipped"}', duration_ms: 12, created_at: "2026-11-20T09:59:01Z" });
    live!.cb();
    const pending = await within(view).findByTestId("conv-pending-calls");
    const details = within(pending).getByText("Answer being written: 1 power-up call so far").closest("details")!;
    expect(details.open).toBe(true);
    expect(within(details).getByText(/GET https:\/\/shop.test\/orders\/A-7/)).toBeTruthy();

    // The answer is stored and the call points at it: it moves under the answer.
    thread.push({ ...thread[0]!, id: "m2", role: "assistant", content: "It has shipped.", created_at: "2026-11-20T09:59:02Z" });
    calls[0]!.message_id = "m2";
    db.listeners.find((l) => l.table === "messages")!.cb();
    expect(await within(view).findByText("It has shipped.")).toBeTruthy();
    await waitFor(() => expect(within(view).queryByTestId("conv-pending-calls")).toBeNull());
    expect(within(view).getByText("1 power-up call")).toBeTruthy();
  });

  it("the nav badge counts the team's chats waiting for a person, readable by screen readers, and refreshes live", async () => {
    let waiting = 3;
    rpcs.chats_waiting_for_human = (args) => (JSON.stringify(args) === JSON.stringify({ team_id: TEAM }) ? waiting : 0);
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <IntlProvider locale="en" messages={messages}>
        <QueryClientProvider client={qc}>
          <a href="/app/conversations/all">Conversations<WaitingForHumanBadge teamId={TEAM} /></a>
        </QueryClientProvider>
      </IntlProvider>,
    );
    const link = await screen.findByRole("link", { name: "Conversations 3 conversations wait for a person" });
    expect(within(link).getByTestId("nav-waiting-for-human").querySelector("[aria-hidden=true]")).toHaveTextContent("3");
    // A change to one of the team's chats (a reply, a hand-back) counts again.
    await waitFor(() => expect(db.listeners.find((l) => l.table === "chats")?.filter).toBe(`bot_id=in.(${[BOT_A, BOT_B].sort().join(",")})`));
    waiting = 0;
    db.listeners.find((l) => l.table === "chats")!.cb();
    await waitFor(() => expect(screen.queryByTestId("nav-waiting-for-human")).toBeNull());
    expect(screen.getByRole("link", { name: "Conversations" })).toBeTruthy();
  });

  it("shows an empty state when nothing matches and clears filters back to /all", async () => {
    db.tables.chats = () => [];
    const router = renderAt(ConversationsPage, "/app/conversations/*", `/app/conversations/bot/${BOT_A}?feedback=down`);
    expect(await screen.findByText("No matching conversations")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Clear filters" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/app/conversations/all"));
    expect(router.state.location.search).toBe("");
    expect(await screen.findByText("No conversations yet")).toBeTruthy();
  });
});

describe("MyChatsPage", () => {
  beforeEach(() => db.reset());

  it("lists the user's chats with their first question, searches, and opens the visitor chat page", async () => {
    db.tables.chats = () => [chatRow("f9000000-0000-4000-8000-000000000002", null), chatRow(CHAT, "Where are my notes?")];
    db.tables.messages = () => [{ chat_id: "f9000000-0000-4000-8000-000000000002", content: "Can I export?" }];
    const router = renderAt(MyChatsPage, "/app/my-chats", "/app/my-chats");
    const list = await screen.findByRole("list", { name: "My chats" });
    expect(within(list).getAllByRole("link").map((a) => a.querySelector(".conv-list__title")?.textContent)).toEqual(["Can I export?", "Where are my notes?"]);
    expect(db.calls.find((c) => c.table === "chats")!.ops).toContain(`eq user_id ${USER}`);
    await userEvent.type(screen.getByLabelText("Search your chats"), "export");
    expect(within(list).getAllByRole("link")).toHaveLength(1);
    await userEvent.click(within(list).getByRole("link"));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/bots/${BOT_A}/chats/f9000000-0000-4000-8000-000000000002`));
  });

  it("has an empty state", async () => {
    db.tables.chats = () => [];
    renderAt(MyChatsPage, "/app/my-chats", "/app/my-chats");
    expect(await screen.findByText("No chats yet")).toBeTruthy();
  });
});
