// The visitor's lean entry: which paths are its pages, and its realtime channel that joins only
// once the realtime client is loaded.
import { describe, expect, it, vi } from "vitest";
import { PREFIXED_LOCALES } from "../src/i18n/locales";
import { VISITOR_LOCALE_PREFIXES, visitorScreen } from "../src/visitor/paths";
import { DeferredChannel } from "../src/lib/lean-supabase";

const BOT = "c0000000-0000-4000-8000-000000000001";
const CHAT = "d0000000-0000-4000-8000-000000000002";

describe("visitor pages", () => {
  it("know the same languages as the app", () => {
    expect([...VISITOR_LOCALE_PREFIXES]).toEqual([...PREFIXED_LOCALES]);
  });

  it("are the chat page, a chat, and the two embeds, in every language", () => {
    expect(visitorScreen(`/bots/${BOT}`)).toEqual({ kind: "page", botId: BOT });
    expect(visitorScreen(`/de/bots/${BOT}/chats/${CHAT}`)).toEqual({ kind: "page", botId: BOT, chatId: CHAT });
    expect(visitorScreen(`/jp/bots/${BOT}/embed/`)).toEqual({ kind: "embed", botId: BOT });
    expect(visitorScreen(`/bots/${BOT}/embed-center`)).toEqual({ kind: "embed-center", botId: BOT });
    for (const p of [
      `/bots/${BOT}/login`,
      `/bots/${BOT}/sdk`,
      "/bots/not-a-uuid",
      `/xx/bots/${BOT}`,
      `/en/bots/${BOT}`,
      "/app/bots",
    ])
      expect([p, visitorScreen(p)]).toEqual([p, null]);
  });
});

describe("DeferredChannel", () => {
  it("replays its listeners on the real channel when subscribed, and never joins once removed", async () => {
    const on = vi.fn();
    const subscribe = vi.fn();
    const real = { on, subscribe };
    const client = { channel: vi.fn(() => real), removeChannel: vi.fn(async () => "ok" as const) };
    const load = vi.fn(async () => client as never);
    const listener = () => undefined;
    const ch = new DeferredChannel("chat:1", { config: { private: true } }, load);
    ch.on("broadcast", { event: "message" }, listener).subscribe();
    await vi.waitFor(() => expect(subscribe).toHaveBeenCalled());
    expect(client.channel).toHaveBeenCalledWith("chat:1", { config: { private: true } });
    expect(on).toHaveBeenCalledWith("broadcast", { event: "message" }, listener);
    await ch.remove();
    expect(client.removeChannel).toHaveBeenCalledWith(real);

    const never = new DeferredChannel("chat:2", { config: {} }, load);
    await never.remove();
    never.subscribe();
    await new Promise((r) => setTimeout(r, 10));
    expect(client.channel).toHaveBeenCalledTimes(1);
  });
});

describe("the bot asked for by visitor.html's head script", () => {
  const row = {
    id: BOT,
    name: "Help",
    description: null,
    avatar_url: null,
    language: "en",
    visibility: "public",
    suggested_questions: [],
    show_powered_by: true,
    theme: { primary: "#123456" },
  };

  it("is used once for its bot; another bot, a failed answer or a second read ask the lean client", async () => {
    const fetchPublicBot = vi.fn(async (id: string) => ({ ...row, id, name: "from the client" }));
    vi.doMock("../src/data/bots/public-bot-query", async (orig) => ({ ...(await orig<object>()), fetchPublicBot }));
    const { publicBotEarly } = await import("../src/visitor/early-bot");
    window.__PARLEY_EARLY_BOT__ = { id: BOT, rows: Promise.resolve([row]) };
    expect(await publicBotEarly(BOT)).toMatchObject({ id: BOT, name: "Help", theme: { primary: "#123456" } });
    expect(fetchPublicBot).not.toHaveBeenCalled();
    expect((await publicBotEarly(BOT))?.name).toBe("from the client");
    window.__PARLEY_EARLY_BOT__ = { id: BOT, rows: Promise.resolve(null) };
    expect((await publicBotEarly(BOT))?.name).toBe("from the client");
    window.__PARLEY_EARLY_BOT__ = { id: CHAT, rows: Promise.resolve([row]) };
    expect((await publicBotEarly(BOT))?.name).toBe("from the client");
    window.__PARLEY_EARLY_BOT__ = { id: BOT, rows: Promise.resolve([]) };
    expect(await publicBotEarly(BOT)).toBeNull();
    expect(fetchPublicBot).toHaveBeenCalledTimes(3);
    vi.doUnmock("../src/data/bots/public-bot-query");
  });
});
