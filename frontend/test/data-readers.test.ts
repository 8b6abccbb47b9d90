// The jsonb readers of the data layer: rows typed by the generated Database type are read into
// the app's shapes without casts, and malformed values degrade instead of breaking a screen.
import { describe, expect, it } from "vitest";
import { readTheme, toBot } from "../src/data/bots/types";
import { readImages, readSources, toConversationSummary } from "../src/data/chats/types";
import { readJobErrors } from "../src/data/ingestionJobs/types";
import { toDataSource } from "../src/data/dataSources/types";
import { readChannelSettings, toChannel } from "../src/data/channels/types";
import { readSettings } from "../src/data/powerUps/types";
import { toJsonObject } from "../src/lib/json";

describe("jsonb readers", () => {
  it("reads a bot's theme, language and provider", () => {
    expect(readTheme({ primary: "#123456", background: 3, extra: "x" })).toEqual({ primary: "#123456" });
    expect(readTheme(null)).toEqual({});
    expect(readTheme([1, 2])).toEqual({});
    const row = {
      id: "b", team_id: "t", name: "Bot", description: null, avatar_url: null, instructions: "", language: "xx", model_provider: "openai", model: null, temperature: 0.2,
      visibility: "public" as const, gallery_listed: false, suggested_questions: [], show_powered_by: true, theme: { primary: "#000" }, created_at: "", updated_at: "",
    };
    expect(toBot(row)).toMatchObject({ language: "en", model_provider: "openai", theme: { primary: "#000" } });
  });

  it("reads sources and images of a message, dropping what is not an object", () => {
    expect(readSources([{ title: "Doc", url: "https://a.test" }, "junk", null])).toEqual([{ chunk_id: "", document_id: "", title: "Doc", url: "https://a.test", excerpt: "" }]);
    expect(readSources({ not: "a list" })).toEqual([]);
    expect(readImages([{ path: "u/1.png" }, { path: 3 }, {}])).toEqual([{ path: "u/1.png" }]);
  });

  it("reads job errors, settings and a chat's channel", () => {
    expect(readJobErrors([{ url: "https://a.test", code: "http_404", level: "warning" }, { message: "m", level: "loud" }])).toEqual([
      { url: "https://a.test", code: "http_404", message: undefined, level: "warning" },
      { url: undefined, code: undefined, message: "m", level: undefined },
    ]);
    const source = { id: "s", bot_id: "b", type: "web" as const, name: "n", settings: "oops", sync_schedule: "never" as const, status: "idle" as const, last_synced_at: null, next_sync_at: null, error: null, document_count: 0, chunk_count: 0, created_at: "", updated_at: "" };
    expect(toDataSource(source).settings).toEqual({});
    const chat = { id: "c", bot_id: "b", user_id: "u", channel: "carrier-pigeon", title: null, shared: false, needs_human: false, message_count: 0, last_message_at: null, created_at: "", visitor: null, bot: null };
    expect(toConversationSummary(chat).channel).toBe("web");
    expect(toConversationSummary({ ...chat, channel: "slack" }).channel).toBe("slack");
  });

  it("reads a channel's settings (strings only) and status", () => {
    expect(readChannelSettings({ client_id: "123", test_recipient: "C1", count: 3, nested: { a: "b" } })).toEqual({ client_id: "123", test_recipient: "C1" });
    expect(readChannelSettings(["x"])).toEqual({});
    const row = { id: "ch", bot_id: "b", type: "slack" as const, name: "n", enabled: true, settings: { welcome_message: "Hi" }, status: "connected", last_error: null, last_event_at: null, message_count: 0, created_at: "" };
    expect(toChannel(row)).toMatchObject({ settings: { welcome_message: "Hi" }, status: "connected" });
    expect(toChannel({ ...row, status: "exploded" }).status).toBe("not_connected");
  });

  it("writes loose settings as JSON, leaving out what JSON cannot hold", () => {
    expect(toJsonObject({ url: "https://a.test", max_chars: 4000, headers: { a: "b" }, fields: ["email"], body: undefined, fn: () => 1 })).toEqual({
      url: "https://a.test", max_chars: 4000, headers: { a: "b" }, fields: ["email"], body: undefined,
    });
    expect(readSettings([1])).toEqual({});
    expect(readSettings({ method: "GET" })).toEqual({ method: "GET" });
  });
});

describe("auth settings", () => {
  it("reads GoTrue's /settings answer field by field", async () => {
    const { readAuthSettings } = await import("../src/data/auth/auth-settings-query");
    expect(readAuthSettings({ external: { email: true, github: false, google: "yes" }, disable_signup: false, mailer_autoconfirm: true, extra: 1 })).toEqual({
      external: { email: true, github: false, google: false },
      disable_signup: false,
      mailer_autoconfirm: true,
    });
    expect(readAuthSettings({ password_min_length: 12 }).password_min_length).toBe(12);
    expect(readAuthSettings("nope")).toEqual({ external: {}, disable_signup: false, mailer_autoconfirm: false });
  });
});
