// Team screens: creating a team, and the team page as an owner (members, invitations) and as
// an admin (read-only, no owner actions); database refusals are shown.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { client, fake, renderScreen, TEAM_ID, teamRow } from "./teams-fake-supabase";

vi.mock("../src/lib/supabase", () => ({ getSupabase: () => client }));
vi.mock("../src/lib/config", () => ({ getConfig: () => ({ supabaseUrl: "http://api.test", supabaseAnonKey: "anon-key" }) }));

import NewTeamPage from "../src/routes/app/teams/NewTeamPage";
import TeamPage from "../src/routes/app/teams/TeamPage";

const members = [
  { user_id: fake.userId, role: "owner", display_name: "Olivia Owner", avatar_url: null, email: "owner@parley.test", is_current_user: true, joined_at: "2026-11-01" },
  { user_id: "33333333-3333-3333-3333-333333333333", role: "admin", display_name: null, avatar_url: null, email: "admin@parley.test", is_current_user: false, joined_at: "2026-11-02" },
];

function asRole(role: "owner" | "admin") {
  fake.on((c) => (c.table === "team_members" && c.op === "select" ? { data: [teamRow(role)], error: null } : undefined));
  fake.on((c) => (c.name === "get_team_members" ? { data: members.map((m) => ({ ...m, is_current_user: m.role === role })), error: null } : undefined));
  fake.on((c) => (c.table === "team_invitations" && c.op === "select" ? { data: [{ id: "i1", email: "pending@parley.test", role: "admin", expires_at: "2026-11-28T00:00:00Z", created_at: "2026-11-21" }], error: null } : undefined));
}

beforeEach(() => {
  fake.reset();
  vi.unstubAllGlobals();
});

describe("NewTeamPage", () => {
  it("requires a name, then creates the team with create_team and opens it", async () => {
    fake.on((c) => (c.name === "create_team" ? { data: { id: TEAM_ID, name: "Support crew", slug: "support-crew", personal: false }, error: null } : undefined));
    const router = renderScreen(NewTeamPage, { path: "/app/teams/new", url: "/app/teams/new", extra: [{ path: "/app/teams/:id", element: <p>team page</p> }] });
    await userEvent.click(screen.getByRole("button", { name: "Create team" }));
    expect(screen.getByText("Enter a name of 1 to 100 characters.")).toBeInTheDocument();
    expect(fake.calls).toHaveLength(0);
    await userEvent.type(screen.getByLabelText("Team name"), "  Support crew ");
    await userEvent.click(screen.getByRole("button", { name: "Create team" }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/app/teams/${TEAM_ID}`));
    expect(fake.calls.find((c) => c.name === "create_team")?.args).toEqual({ name: "Support crew" });
    expect(localStorage.getItem("parley.currentTeam")).toBe(TEAM_ID);
  });

  it("shows what the database refused", async () => {
    fake.on((c) => (c.name === "create_team" ? { data: null, error: { message: "Guest users cannot create teams: sign up first", code: "42501" } } : undefined));
    renderScreen(NewTeamPage, { path: "/app/teams/new", url: "/app/teams/new" });
    await userEvent.type(screen.getByLabelText("Team name"), "X");
    await userEvent.click(screen.getByRole("button", { name: "Create team" }));
    // The refusal in the user's language (the SQL sentence mapped by lib/errors.ts), never the server's raw text.
    expect(await screen.findByText("Guest users cannot create teams: sign up first.")).toBeInTheDocument();
    expect(screen.queryByText("Guest users cannot create teams: sign up first")).toBeNull();
  });
});

describe("TeamPage", () => {
  it("owners see role controls, invitations and the danger zone; inviting calls team-invite", async () => {
    asRole("owner");
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ ok: true, delivery: "invite" }), { status: 200 }));
    vi.stubGlobal("fetch", fetchMock);
    renderScreen(TeamPage, { path: "/app/teams/:teamId", url: `/app/teams/${TEAM_ID}` });
    expect(await screen.findByRole("heading", { name: "Acme Support" })).toBeInTheDocument();
    expect(await screen.findByLabelText("Role of admin@parley.test")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Delete team" })).toBeInTheDocument();
    expect(await screen.findByText("pending@parley.test")).toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "Send invitation" }));
    expect(screen.getByText("Enter a valid email address.")).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
    await userEvent.type(screen.getByLabelText("Email address"), "New.Person@Example.com");
    await userEvent.click(screen.getByRole("button", { name: "Send invitation" }));
    expect(await screen.findByText("Invitation sent to new.person@example.com.")).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("http://api.test/functions/v1/team-invite");
    expect(JSON.parse(String(init.body))).toEqual({ team_id: TEAM_ID, email: "new.person@example.com", role: "admin", locale: "en" });
    expect((init.headers as Record<string, string>).authorization).toBe("Bearer user-token");
  });

  it("owners change a role with change_member_role; a refusal is shown", async () => {
    asRole("owner");
    fake.on((c) => (c.name === "change_member_role" ? { data: null, error: { message: "A team must keep at least one owner", code: "P0001", hint: "last_owner" } } : undefined));
    renderScreen(TeamPage, { path: "/app/teams/:teamId", url: `/app/teams/${TEAM_ID}` });
    await userEvent.selectOptions(await screen.findByLabelText("Role of admin@parley.test"), "owner");
    expect(await screen.findByText("A team must keep at least one owner.")).toBeInTheDocument();
    expect(fake.calls.find((c) => c.name === "change_member_role")?.args).toEqual({ team_id: TEAM_ID, user_id: members[1]!.user_id, role: "owner" });
  });

  it("admins see members read-only: no role controls, invitations, rename or delete", async () => {
    asRole("admin");
    renderScreen(TeamPage, { path: "/app/teams/:teamId", url: `/app/teams/${TEAM_ID}` });
    const list = await screen.findByRole("list", { name: "Members" });
    expect(within(list).getAllByText("Owner")).toHaveLength(1);
    expect(screen.queryByRole("combobox", { name: /Role of/ })).toBeNull();
    expect(screen.queryByRole("heading", { name: "Invite people" })).toBeNull();
    expect(screen.queryByRole("heading", { name: "Delete team" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Remove" })).toBeNull();
    expect(screen.getByText("Only owners can change members. You can manage the team's bots.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Leave team" })).toBeInTheDocument();
    expect(fake.calls.some((c) => c.table === "team_invitations")).toBe(false);
  });

  it("a team the caller does not belong to is 'not found'", async () => {
    fake.on((c) => (c.table === "team_members" ? { data: [], error: null } : undefined));
    renderScreen(TeamPage, { path: "/app/teams/:teamId", url: `/app/teams/${TEAM_ID}` });
    expect(await screen.findByText("Team not found")).toBeInTheDocument();
  });
});
