// Bot screens: the list (empty state, search), the wizard (step checks, the insert it sends,
// password bots) and the settings (row update, chat password, avatar checks).
import { beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { client, fake, renderScreen, TEAM_ID, teamRow } from "./teams-fake-supabase";

vi.mock("../src/lib/supabase", () => ({ getSupabase: () => client }));

import BotsPage from "../src/routes/app/bots/BotsPage";
import BotWizardPage from "../src/routes/app/bots/BotWizardPage";
import BotSettingsPage from "../src/routes/app/bots/BotSettingsPage";

const BOT_ID = "c0000000-0000-0000-0000-000000000001";
const bot = (over: Record<string, unknown> = {}) => ({
  id: BOT_ID, team_id: TEAM_ID, name: "Acme Help Center", description: "Answers customers", avatar_url: null, instructions: "Be kind",
  language: "en", model_provider: "extractive", model: null, temperature: 0.2, visibility: "public", gallery_listed: true,
  suggested_questions: ["How do I reset my password?"], show_powered_by: true, theme: {}, created_at: "2026-11-01", updated_at: "2026-11-02", ...over,
});

beforeEach(() => {
  fake.reset();
  fake.on((c) => (c.table === "team_members" ? { data: [teamRow("admin")], error: null } : undefined));
});

describe("BotsPage", () => {
  it("shows an empty state leading to the wizard", async () => {
    renderScreen(BotsPage, { path: "/app/bots", url: "/app/bots" });
    expect(await screen.findByText("No bots yet")).toBeInTheDocument();
    expect(screen.getAllByRole("link", { name: "Create a bot" }).map((a) => a.getAttribute("href"))).toContain("/app/bots/wizard");
    expect(fake.calls.find((c) => c.table === "bots")?.filters).toContain(`eq team_id ${TEAM_ID}`);
  });

  it("lists the team's bots with status badges and filters by search", async () => {
    fake.on((c) => (c.table === "bots" ? { data: [bot(), bot({ id: "b2", name: "Internal", description: null, visibility: "password", gallery_listed: false, language: "de" })], error: null } : undefined));
    renderScreen(BotsPage, { path: "/app/bots", url: "/app/bots" });
    expect(await screen.findByText("Acme Help Center")).toBeInTheDocument();
    expect(screen.getByText("In gallery")).toBeInTheDocument();
    expect(screen.getByText("Deutsch")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Search bots"), "intern");
    expect(screen.queryByText("Acme Help Center")).toBeNull();
    expect(screen.getByText("Internal")).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText("Search bots"));
    await userEvent.type(screen.getByLabelText("Search bots"), "zzz");
    expect(screen.getByText("No bot matches “zzz”.")).toBeInTheDocument();
  });
});

describe("BotWizardPage", () => {
  it("checks each step, then inserts the bot for the current team and opens its overview", async () => {
    fake.on((c) => (c.table === "bots" && c.op === "insert" ? { data: [bot({ id: "new-bot", name: "Docs helper" })], error: null } : undefined));
    const router = renderScreen(BotWizardPage, { path: "/app/bots/wizard", url: "/app/bots/wizard", extra: [{ path: "/app/bots/:botId", element: <p>overview</p> }] });
    await userEvent.click(await screen.findByRole("button", { name: "Next" }));
    expect(screen.getByText("Give the bot a name.")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Name"), "Docs helper");
    await userEvent.type(screen.getByLabelText("Instructions"), "Answer from the docs.");
    await userEvent.click(screen.getByRole("button", { name: "Next" }));
    await userEvent.selectOptions(screen.getByLabelText("Language"), "fr");
    await userEvent.click(screen.getByRole("button", { name: "Next" }));
    expect(screen.getByLabelText("Model provider")).toHaveValue("extractive");
    await userEvent.selectOptions(screen.getByLabelText("Model provider"), "openai");
    await userEvent.clear(screen.getByLabelText("Model"));
    await userEvent.click(screen.getByRole("button", { name: "Next" }));
    expect(screen.getByText("Choose a model.")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Model"), "gpt-4o-mini");
    await userEvent.click(screen.getByRole("button", { name: "Next" }));
    await userEvent.click(screen.getByLabelText(/Public/));
    await userEvent.click(screen.getByRole("button", { name: "Next" }));
    await userEvent.click(screen.getByRole("button", { name: "Create bot" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/app/bots/new-bot"));
    const insert = fake.calls.find((c) => c.op === "insert");
    expect(insert?.payload).toMatchObject({ team_id: TEAM_ID, name: "Docs helper", instructions: "Answer from the docs.", language: "fr", model_provider: "openai", model: "gpt-4o-mini", visibility: "public", created_by: fake.userId });
  });

  it("a password bot is created private, then set_bot_password makes it password-protected", async () => {
    fake.on((c) => (c.table === "bots" && c.op === "insert" ? { data: [bot({ id: "pw-bot", visibility: "private" })], error: null } : undefined));
    renderScreen(BotWizardPage, { path: "/app/bots/wizard", url: "/app/bots/wizard", extra: [{ path: "/app/bots/:botId", element: <p>overview</p> }] });
    await userEvent.type(await screen.findByLabelText("Name"), "Secret");
    for (let i = 0; i < 3; i++) await userEvent.click(screen.getByRole("button", { name: "Next" }));
    await userEvent.click(screen.getByLabelText(/Visitors need a password/));
    await userEvent.type(screen.getByLabelText("Chat password"), "abc");
    await userEvent.click(screen.getByRole("button", { name: "Next" }));
    expect(screen.getAllByText("4 to 128 characters.").some((el) => el.getAttribute("role") === "alert")).toBe(true);
    await userEvent.type(screen.getByLabelText("Chat password"), "d");
    await userEvent.click(screen.getByRole("button", { name: "Next" }));
    await userEvent.click(screen.getByRole("button", { name: "Create bot" }));
    await screen.findByText("overview");
    expect(fake.calls.find((c) => c.op === "insert")?.payload).toMatchObject({ visibility: "private" });
    expect(fake.calls.find((c) => c.name === "set_bot_password")?.args).toEqual({ bot_id: "pw-bot", password: "abcd" });
  });
});

describe("BotSettingsPage", () => {
  function open(row = bot()) {
    fake.on((c) => (c.table === "bots" && c.op === "select" ? { data: [row], error: null } : undefined));
    fake.on((c) => (c.table === "bots" && c.op === "update" ? { data: [{ ...row, ...(c.payload as object) }], error: null } : undefined));
    return renderScreen(BotSettingsPage, { path: "/app/bots/:botId/settings", url: `/app/bots/${BOT_ID}/settings` });
  }

  it("saves the row: name, suggested questions, powered-by and theme", async () => {
    open();
    const name = await screen.findByLabelText("Name");
    await userEvent.clear(name);
    await userEvent.type(name, "Acme Help");
    await userEvent.click(screen.getByRole("button", { name: "Add a question" }));
    await userEvent.type(screen.getByLabelText("Suggested question 2"), "Where is my order?");
    await userEvent.click(screen.getByLabelText("Show “Powered by Parley” in the chat"));
    await userEvent.click(screen.getAllByRole("button", { name: "Save" })[0]!);
    expect(await screen.findByText("Saved.")).toBeInTheDocument();
    const update = fake.calls.find((c) => c.op === "update");
    expect(update?.filters).toContain(`eq id ${BOT_ID}`);
    expect(update?.payload).toMatchObject({ name: "Acme Help", suggested_questions: ["How do I reset my password?", "Where is my order?"], show_powered_by: false, model: null, theme: { primary: "#4f46e5", background: "#ffffff" } });
  });

  it("sets a chat password through set_bot_password and shows a refusal", async () => {
    open();
    await userEvent.click(await screen.findByLabelText(/Visitors need a password/));
    await userEvent.click(screen.getByRole("button", { name: "Save access" }));
    expect(screen.getAllByText("4 to 128 characters.").length).toBeGreaterThan(0);
    expect(fake.calls.some((c) => c.name === "set_bot_password")).toBe(false);
    fake.on((c) => (c.name === "set_bot_password" ? { data: null, error: { message: "Only admins and owners of the bot's team can set its password", code: "42501" } } : undefined));
    await userEvent.type(screen.getByLabelText("Chat password"), "open-sesame");
    await userEvent.click(screen.getByRole("button", { name: "Save access" }));
    expect(await screen.findByText("Only admins and owners of the team can do this.")).toBeInTheDocument();
    expect(fake.calls.find((c) => c.name === "set_bot_password")?.args).toEqual({ bot_id: BOT_ID, password: "open-sesame" });
  });

  it("removes a password with set_bot_password(null)", async () => {
    open(bot({ visibility: "password" }));
    await userEvent.click(await screen.findByRole("button", { name: "Remove password" }));
    await waitFor(() => expect(fake.calls.find((c) => c.name === "set_bot_password")?.args).toEqual({ bot_id: BOT_ID, password: null }));
  });

  it("refuses avatars that are too large or not images before uploading", async () => {
    open();
    const input = (await screen.findByLabelText("Avatar", { selector: "input" })) as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File([new Uint8Array(1024 * 1024 + 1)], "big.png", { type: "image/png" })] } });
    expect(await screen.findByText("This image is larger than 1 MB.")).toBeInTheDocument();
    fireEvent.change(input, { target: { files: [new File(["x"], "a.svg", { type: "image/svg+xml" })] } });
    expect(await screen.findByText("Choose a PNG, JPEG, WebP or GIF image.")).toBeInTheDocument();
    expect(fake.calls.some((c) => c.kind === "upload")).toBe(false);
    fireEvent.change(input, { target: { files: [new File(["png"], "ok.png", { type: "image/png" })] } });
    await waitFor(() => expect(fake.calls.find((c) => c.op === "update")?.payload).toMatchObject({ avatar_url: expect.stringMatching(new RegExp(`^http://storage.test/avatars/${fake.userId}/bots/${BOT_ID}-\\d+\\.png$`)) }));
  });

  it("deleting needs the bot's name typed", async () => {
    open();
    await userEvent.click(await screen.findByRole("button", { name: "Delete bot" }));
    const confirm = screen.getAllByRole("button", { name: "Delete bot" }).at(-1)!;
    expect(confirm).toBeDisabled();
    await userEvent.type(screen.getByLabelText("Type Acme Help Center to confirm"), "Acme Help Center");
    expect(confirm).toBeEnabled();
  });
});
