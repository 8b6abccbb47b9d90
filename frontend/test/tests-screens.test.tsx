// The tests screens against a recording stand-in for the Supabase client: the bot's test
// settings (defaults when no row, saved with an upsert as the signed-in user), the bot
// overview's latest run with its regressions and the link to them, and a test case's form
// (language and earlier conversation; one existing case edited in place), in two languages.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { IntlProvider } from "react-intl";
import { createMemoryRouter, RouterProvider } from "react-router";
import type { ReactNode } from "react";
import baseEn from "../src/i18n/messages/en.json";
import baseDe from "../src/i18n/messages/de.json";
import testsEn from "../src/i18n/messages/tests/en.json";
import testsDe from "../src/i18n/messages/tests/de.json";
import errorsEn from "../src/i18n/messages/errors/en.json";
import { recordingDb } from "./recording-supabase";

const db = recordingDb();

const TEAM = "a1000000-0000-4000-8000-000000000001";
const MEMBERS = [
  { user_id: "u1", role: "owner", display_name: "Olga Owner", email: "olga@example.test", avatar_url: null, is_current_user: true, joined_at: "2026-11-01T00:00:00Z" },
  { user_id: "u2", role: "admin", display_name: null, email: "ada@example.test", avatar_url: null, is_current_user: false, joined_at: "2026-11-02T00:00:00Z" },
];
const client = {
  from: (t: string) => db.from(t),
  rpc: async (name: string) => ({ data: name === "get_team_members" ? MEMBERS : null, error: null }),
  auth: { getSession: async () => ({ data: { session: { access_token: "t", user: { id: "u1" } } } }) },
  channel: () => {
    const ch = { on: () => ch, subscribe: () => ch };
    return ch;
  },
  removeChannel: async () => "ok",
};
vi.mock("../src/lib/supabase", () => ({ getSupabase: () => client }));

import { TestSettingsSection } from "../src/features/tests/TestSettingsForm";
import { LatestTestRun } from "../src/features/tests/LatestTestRun";
import TestCasesPage from "../src/routes/app/tests/TestCasesPage";
import TestRunPage from "../src/routes/app/tests/TestRunPage";
import { readHistory, readScores } from "../src/data/tests/types";
import { ScoreList } from "../src/features/tests/parts";

const BOT = "c0000000-0000-4000-8000-000000000001";
const RUN = "f4100000-0000-4000-8000-000000000002";
const PREV = "f4100000-0000-4000-8000-000000000001";
const CASE = "f3000000-0000-4000-8000-000000000001";
const MESSAGES = {
  en: { ...baseEn, ...testsEn, ...errorsEn },
  de: { ...baseDe, ...testsDe, ...errorsEn },
} as Record<"en" | "de", Record<string, string>>;

function renderAt(locale: "en" | "de", path: string, url: string, element: ReactNode) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path, element }, { path: "*", element: <p>elsewhere</p> }], { initialEntries: [url] });
  render(
    <IntlProvider locale={locale} messages={MESSAGES[locale]}>
      <QueryClientProvider client={qc}><RouterProvider router={router} /></QueryClientProvider>
    </IntlProvider>,
  );
  return router;
}

const run = (extra: Record<string, unknown> = {}) => ({
  id: RUN, bot_id: BOT, trigger: "sync", status: "succeeded", progress_done: 4, progress_total: 4, passed_count: 3, failed_count: 1,
  regression_count: 1, regressions: [CASE], fixed_count: 0, previous_run_id: PREV, cancel_requested: false,
  started_at: "2026-11-26T10:00:00Z", finished_at: "2026-11-26T10:00:09Z", created_at: "2026-11-26T10:00:00Z", snapshot: {}, ...extra,
});

const testCase = (extra: Record<string, unknown> = {}) => ({
  id: CASE, bot_id: BOT, status: "active", question: "How many tags can a note have?", language: "en",
  history: [{ role: "user", content: "Hi" }, { role: "assistant", content: "Hello! How can I help?" }, { role: "system", content: "ignored" }],
  expected_answer: "Up to 50 tags.", required_phrases: ["50"], forbidden_phrases: [], expected_sources: [], tags: ["notes"],
  origin: "manual", created_at: "2026-11-20T10:00:00Z", ...extra,
});

beforeEach(() => db.reset());

describe("test settings", { timeout: 20_000 }, () => {
  it("shows the defaults when the bot has no settings row and saves the owner's choices with an upsert", async () => {
    const user = userEvent.setup();
    let stored: Record<string, unknown>[] = [];
    db.tables.bot_test_settings = (call) => {
      const up = call.ops.find((o) => o.startsWith("upsert "));
      if (up) stored = [{ ...JSON.parse(up.slice(7, up.indexOf(' {"onConflict"'))), next_run_at: "2026-11-28T03:00:00Z" }];
      return stored;
    };
    db.tables.bots = () => [{ id: BOT, team_id: TEAM, name: "Notes bot", language: "en", model_provider: "extractive", theme: {} }];
    renderAt("en", "/app/bots/:botId/tests", `/app/bots/${BOT}/tests`, <TestSettingsSection botId={BOT} />);
    const sync = await screen.findByRole("checkbox", { name: "After every successful sync of a data source" });
    expect((sync as HTMLInputElement).checked).toBe(false);
    expect((screen.getByRole("checkbox", { name: /^E-mail when a run fails cases/ }) as HTMLInputElement).checked).toBe(true);
    // Who is told: the owners by default; the admin is chosen by name, an outside address added.
    expect((screen.getByRole("checkbox", { name: "The team's owners" }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole("checkbox", { name: "The team's admins" }) as HTMLInputElement).checked).toBe(false);
    await user.click(await screen.findByRole("checkbox", { name: "ada@example.test" }));
    expect(screen.getByRole("checkbox", { name: "Olga Owner (olga@example.test)" })).toBeTruthy();
    await user.type(screen.getByLabelText("Other addresses"), "support@example.test{enter}lead@example.test");
    expect((screen.getByLabelText("Least similarity to the expected answer (%)") as HTMLInputElement).value).toBe("30");
    expect((screen.getByLabelText("Sources that count") as HTMLInputElement).value).toBe("5");

    await user.click(sync);
    await user.selectOptions(screen.getByLabelText("On a schedule"), "daily");
    const similarity = screen.getByLabelText("Least similarity to the expected answer (%)");
    await user.clear(similarity);
    await user.type(similarity, "45");
    await user.click(screen.getByRole("checkbox", { name: "The bot must answer (not say it found nothing)" }));
    await user.click(screen.getByRole("button", { name: "Save test settings" }));

    await screen.findByText("Test settings saved.");
    const [write] = db.writes("bot_test_settings");
    expect(write!.ops[0]).toBe(`upsert ${JSON.stringify({
      run_after_sync: true, run_after_settings: false, schedule: "daily", top_k: 5, require_answer: false, require_source: true,
      min_similarity: 0.45, min_judge_score: 0.6, notify_regressions: true, notify_owners: true, notify_admins: false,
      notify_member_ids: ["u2"], notify_emails: ["support@example.test", "lead@example.test"], bot_id: BOT,
    })} {"onConflict":"bot_id"}`);
    // The trigger's next run comes back from the database.
    await screen.findByText(/^Next scheduled run: /);
  });

  it("reads a saved row in German, numeric columns as strings included", async () => {
    db.tables.bot_test_settings = () => [{
      run_after_sync: false, run_after_settings: true, schedule: "weekly", next_run_at: "2026-12-01T03:00:00Z", top_k: 3,
      require_answer: true, require_source: false, min_similarity: "0.55", min_judge_score: "0.80", notify_regressions: false,
    }];
    renderAt("de", "/de/app/bots/:botId/tests", `/de/app/bots/${BOT}/tests`, <TestSettingsSection botId={BOT} />);
    const after = await screen.findByRole("checkbox", { name: "Wenn sich Anweisungen, Modell, Temperatur oder Sprache des Bots ändern" });
    expect((after as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText("Nach Zeitplan") as HTMLSelectElement).value).toBe("weekly");
    expect((screen.getByLabelText("Mindestähnlichkeit zur erwarteten Antwort (%)") as HTMLInputElement).value).toBe("55");
    expect((screen.getByLabelText("Mindestnote der Modellbewertung (%)") as HTMLInputElement).value).toBe("80");
    expect((screen.getByRole("checkbox", { name: /^Per E-Mail informieren/ }) as HTMLInputElement).checked).toBe(false);
    expect((screen.getByRole("checkbox", { name: "Die Eigentümer des Teams" }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByLabelText("Weitere Adressen")).toBeTruthy();
    expect(screen.getByText(/^Nächster geplanter Lauf: /)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Testeinstellungen speichern" })).toBeTruthy();
  });
});

describe("the bot overview's latest test run", { timeout: 20_000 }, () => {
  it("shows the result and links to the run's new failures, in the reader's language", async () => {
    db.tables.test_runs = () => [run()];
    const router = renderAt("de", "/de/app/bots/:botId", `/de/app/bots/${BOT}`, <LatestTestRun botId={BOT} />);
    await screen.findByText(/^3 von 4 Fällen bestanden/);
    expect(screen.getByText("1 Fall hat zuletzt bestanden und schlägt jetzt fehl.")).toBeTruthy();
    expect(screen.getByText("Nach einer Synchronisierung", { exact: false })).toBeTruthy();
    const link = screen.getByRole("link", { name: "Neue Fehlschläge anzeigen" });
    expect(link.getAttribute("href")).toBe(`/de/app/bots/${BOT}/tests/${RUN}?filter=new`);
    expect(screen.getByRole("link", { name: "Diesen Lauf öffnen" }).getAttribute("href")).toBe(`/de/app/bots/${BOT}/tests/${RUN}`);
    // Only a finished run counts: the query asks for the newest succeeded one.
    expect(db.calls.find((c) => c.table === "test_runs")!.ops).toEqual(expect.arrayContaining([`eq bot_id ${BOT}`, "eq status succeeded", "limit 1"]));
    expect(router.state.location.pathname).toBe(`/de/app/bots/${BOT}`);
  });

  it("says so when nothing regressed, and when no run has finished", async () => {
    db.tables.test_runs = () => [run({ regression_count: 0, regressions: [], failed_count: 0, passed_count: 4, fixed_count: 1 })];
    renderAt("en", "/app/bots/:botId", `/app/bots/${BOT}`, <LatestTestRun botId={BOT} />);
    await screen.findByText("No new failures since the run before.");
    expect(screen.getByText(/^4 of 4 cases passed/).textContent).toBe("4 of 4 cases passed (100%)");
    expect(screen.getByText("1 fixed")).toBeTruthy();
    expect(screen.queryByRole("link", { name: "Show the new failures" })).toBeNull();
  });

  it("has nothing to show before the first run", async () => {
    db.tables.test_runs = () => [];
    renderAt("en", "/app/bots/:botId", `/app/bots/${BOT}`, <LatestTestRun botId={BOT} />);
    await screen.findByText("No test run has finished yet.");
    expect(screen.getByRole("link", { name: "All test runs" }).getAttribute("href")).toBe(`/app/bots/${BOT}/tests`);
  });

  it("the run page opens on the new failures when the link asks for them", async () => {
    db.tables.test_runs = () => [run()];
    db.tables.test_results = (call) => call.ops.includes(`eq run_id ${RUN}`)
      ? [{ id: "r2", run_id: RUN, case_id: CASE, question: "How many tags can a note have?", answer: "Many.", passed: false, error: null, latency_ms: 5, sources: [], scores: [] },
         { id: "r3", run_id: RUN, case_id: "other", question: "Where are my notes stored?", answer: "In the EU.", passed: false, error: null, latency_ms: 5, sources: [], scores: [] }]
      : [{ id: "r1", run_id: PREV, case_id: CASE, question: "How many tags can a note have?", answer: "Up to 50.", passed: true, error: null, latency_ms: 5, sources: [], scores: [] }];
    renderAt("en", "/app/bots/:botId/tests/:testRunId", `/app/bots/${BOT}/tests/${RUN}?filter=new`, <TestRunPage />);
    await screen.findByRole("heading", { name: "How many tags can a note have?" });
    expect(screen.getByRole("button", { name: "New failures" }).getAttribute("aria-pressed")).toBe("true");
    await waitFor(() => expect(screen.queryByRole("heading", { name: "Where are my notes stored?" })).toBeNull());
  });
});

describe("a test case's form", { timeout: 30_000 }, () => {
  beforeEach(() => {
    db.tables.bots = () => [{ id: BOT, team_id: "t1", name: "Acme", language: "de", theme: {}, model_provider: "default" }];
    db.tables.test_cases = (call) => (call.ops.some((o) => o.startsWith("update ")) ? [{ id: CASE }] : [testCase()]);
  });

  it("reads only user and assistant turns from a case's history", () => {
    expect(readHistory(testCase().history)).toEqual([{ role: "user", content: "Hi" }, { role: "assistant", content: "Hello! How can I help?" }]);
    expect(readHistory(null)).toEqual([]);
  });

  it("edits one existing case in place: question, language, history", async () => {
    const user = userEvent.setup();
    renderAt("en", "/app/bots/:botId/test-cases", `/app/bots/${BOT}/test-cases`, <TestCasesPage />);
    await user.click(await screen.findByRole("button", { name: "Edit “How many tags can a note have?”" }));
    const form = document.querySelector<HTMLFormElement>(`form[data-case-form="${CASE}"]`)!;
    const f = within(form);
    expect((f.getByLabelText("Question") as HTMLTextAreaElement).value).toBe("How many tags can a note have?");
    expect((f.getByLabelText("Required phrases") as HTMLInputElement).value).toBe("50");
    expect(f.getAllByRole("group", { name: /^Turn / })).toHaveLength(2);
    await user.selectOptions(f.getByLabelText("Language"), "fr");
    const question = f.getByLabelText("Question");
    await user.clear(question);
    await user.type(question, "Combien d'étiquettes ?");
    // The first turn goes, a new one is added after the bot's.
    await user.click(within(f.getByRole("group", { name: "Turn 1" })).getByRole("button", { name: "Remove this turn" }));
    await user.click(f.getByRole("button", { name: "Add an earlier turn" }));
    const turn2 = f.getByRole("group", { name: "Turn 2" });
    expect((within(turn2).getByLabelText("Who") as HTMLSelectElement).value).toBe("user");
    await user.type(within(turn2).getByLabelText("Message"), "  And tags?  ");
    await user.click(f.getByRole("button", { name: "Save changes" }));

    await waitFor(() => expect(document.querySelector(`form[data-case-form="${CASE}"]`)).toBeNull());
    const [write] = db.writes("test_cases");
    expect(write!.ops).toEqual([
      `update ${JSON.stringify({
        question: "Combien d'étiquettes ?", expected_answer: "Up to 50 tags.", required_phrases: ["50"], forbidden_phrases: [], expected_sources: [],
        tags: ["notes"], language: "fr", history: [{ role: "assistant", content: "Hello! How can I help?" }, { role: "user", content: "And tags?" }],
      })}`,
      `eq id ${CASE}`,
      "select id",
    ]);
  });

  it("creates a case in the bot's language by default, empty turns left out", async () => {
    const user = userEvent.setup();
    renderAt("en", "/app/bots/:botId/test-cases", `/app/bots/${BOT}/test-cases`, <TestCasesPage />);
    const form = await waitFor(() => {
      const el = document.querySelector<HTMLFormElement>('form[data-case-form="new"]');
      expect((within(el!).getByLabelText("Language") as HTMLSelectElement).value).toBe("de");
      return el!;
    });
    const f = within(form);
    await user.type(f.getByLabelText("Question"), "Wo liegen meine Notizen?");
    await user.click(f.getByRole("button", { name: "Add an earlier turn" }));
    await user.click(f.getByRole("button", { name: "Add an earlier turn" }));
    await user.type(within(f.getByRole("group", { name: "Turn 1" })).getByLabelText("Message"), "Hallo");
    await user.type(f.getByLabelText("Tags"), "privacy | de");
    await user.click(f.getByRole("button", { name: "Save test case" }));
    await waitFor(() => expect(db.writes("test_cases")).toHaveLength(1));
    expect(db.writes("test_cases")[0]!.ops).toEqual([`insert ${JSON.stringify({
      question: "Wo liegen meine Notizen?", expected_answer: "", required_phrases: [], forbidden_phrases: [], expected_sources: [],
      tags: ["privacy", "de"], language: "de", history: [{ role: "user", content: "Hallo" }], bot_id: BOT,
    })}`]);
    // The form starts over, in the language just used.
    await waitFor(() => expect((f.getByLabelText("Question") as HTMLTextAreaElement).value).toBe(""));
    expect(f.queryAllByRole("group", { name: /^Turn / })).toHaveLength(0);
  });
});

describe("score reasons", { timeout: 20_000 }, () => {
  const stored = [
    { name: "source", applies: true, passed: false, score: 0, explanation: "Not in the top 5 sources: /a, /b.",
      reasons: [{ code: "source.missing", params: { k: 5, missing: ["/a", "/b"] } }] },
    { name: "phrases", applies: true, passed: false, score: 0.5, explanation: "Missing required phrase: 50. No forbidden phrase.",
      reasons: [{ code: "phrases.missing", params: { phrases: ["50"] } }, { code: "phrases.noForbidden", params: {} }] },
    { name: "similarity", applies: true, passed: true, score: 0.42, explanation: "Trigram similarity to the expected answer is 0.42 (at least 0.30 passes).",
      reasons: [{ code: "similarity.trigram", params: { score: 0.42, min: 0.3 } }] },
    { name: "answered", applies: true, passed: true, score: 1, explanation: "The bot answered with 2 sources.", reasons: [{ code: "answered.yes", params: { sources: 2 } }] },
    { name: "judge", applies: true, passed: true, score: 0.8, explanation: "The judge graded the answer 0.80 against the expected one (at least 0.60 passes).",
      reasons: [{ code: "judge.graded", params: { score: 0.8, min: 0.6 } }], reasoning: "Same facts." },
  ];
  const show = (locale: "en" | "de", scores: unknown) =>
    render(<IntlProvider locale={locale} messages={MESSAGES[locale]}><ScoreList scores={readScores(scores as never)} /></IntlProvider>);
  const text = (name: string) => document.querySelector(`[data-score="${name}"] .tr-muted`)!.textContent!.replace(/\u00a0|\u202f/g, " ");

  it("says each score's reasons in the reader's language, lists and numbers as the language writes them", () => {
    show("de", stored);
    expect(text("source")).toBe("Nicht unter den ersten 5 Quellen: /a und /b.");
    expect(text("phrases")).toBe("Fehlende Pflichtformulierung: 50. Keine verbotene Formulierung.");
    expect(text("similarity")).toBe("Trigramm-Ähnlichkeit zur erwarteten Antwort: 42 % (ab 30 % bestanden).");
    expect(text("answered")).toBe("Der Bot hat mit 2 Quellen geantwortet.");
    expect(text("judge")).toBe("Die Modellbewertung gibt der Antwort 80 % gegenüber der erwarteten (ab 60 % bestanden).");
    expect(screen.getByText("Same facts.")).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/Missing|Trigram similarity/);
  });

  it("in English too, plural by the number of phrases", () => {
    show("en", [{ ...stored[1], reasons: [{ code: "phrases.missing", params: { phrases: ["50", "tags"] } }] }]);
    expect(text("phrases")).toBe("Missing required phrases: 50 and tags.");
  });

  it("keeps results stored before reasons readable, and falls back to the explanation for a reason it does not know", () => {
    show("de", [
      { name: "phrases", applies: true, passed: false, score: 0, explanation: "Missing required phrase: 50." },
      { name: "answered", applies: true, passed: true, score: 1, explanation: "Answered by a newer server.", reasons: [{ code: "answered.somehow", params: {} }] },
    ]);
    expect(text("phrases")).toBe("Missing required phrase: 50.");
    expect(text("answered")).toBe("Answered by a newer server.");
    expect(readScores([{ name: "source", reasons: [{ code: "source.found", params: { k: 5, positions: [1, 3], junk: { a: 1 } } }] }])[0]!.reasons)
      .toEqual([{ code: "source.found", params: { k: 5, positions: ["1", "3"] } }]);
  });
});
