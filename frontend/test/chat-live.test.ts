// mergeStored: how a viewer folds a chat read again after an announcement into what it shows.
import { describe, expect, it } from "vitest";
import { mergeStored } from "../src/features/chat/live";
import type { ViewMessage } from "../src/features/chat/MessageItem";
import type { ChatMessage } from "../src/data/chats/types";

const NOW = Date.parse("2026-11-21T12:00:00Z");
const at = (s: number) => new Date(NOW - s * 1000).toISOString();
const stored = (id: string, role: "user" | "assistant", content: string, secondsAgo = 5): ChatMessage => ({
  id, role, content, sources: [], images: [], actions: [], error: null, created_at: at(secondsAgo),
});
const shown = (key: string, id: string | undefined, role: "user" | "assistant", content: string, extra: Partial<ViewMessage> = {}): ViewMessage => ({
  key, id, role, content, sources: [], actions: [], images: [], ...extra,
});

describe("mergeStored", () => {
  it("keeps the keys of turns already shown and appends new ones in stored order", () => {
    const out = mergeStored(
      [shown("u-1", "m1", "user", "Hi"), shown("a-1", "m2", "assistant", "Hello")],
      [stored("m1", "user", "Hi"), stored("m2", "assistant", "Hello"), stored("m3", "user", "More?"), stored("m4", "assistant", "Sure")],
      NOW,
    );
    expect(out.map((m) => m.key)).toEqual(["u-1", "a-1", "m3", "m4"]);
    expect(out.map((m) => m.content)).toEqual(["Hi", "Hello", "More?", "Sure"]);
  });

  it("shows a pending answer after a recent question, but not after an old one", () => {
    const recent = mergeStored([], [stored("m1", "user", "Anyone?", 3)], NOW);
    expect(recent).toHaveLength(2);
    expect(recent[1]).toMatchObject({ role: "assistant", streaming: true, content: "" });
    expect(mergeStored([], [stored("m1", "user", "Anyone?", 600)], NOW)).toHaveLength(1);
  });

  it("keeps this tab's failed sends last and adds no pending answer then", () => {
    const failed = shown("a-9", undefined, "assistant", "", { errorId: "chat.error.rateLimited" });
    const out = mergeStored([shown("u-9", undefined, "user", "Again"), failed], [stored("m1", "user", "First")], NOW);
    expect(out.map((m) => m.key)).toEqual(["m1", "u-9", "a-9"]);
  });

  it("marks stored answers that failed at the provider", () => {
    const out = mergeStored([], [stored("m1", "user", "Q"), { ...stored("m2", "assistant", ""), error: "provider_error" }], NOW);
    expect(out[1]!.errorId).toBe("chat.error.provider");
  });
});
