// The one realtime hook (lib/realtime): joins one channel per name with its listeners, calls the
// latest callbacks, reports every (re)join, and leaves the channel on unmount or a new name.
import { afterEach, describe, expect, it, vi } from "vitest";
import { render } from "@testing-library/react";

type Handler = (payload: unknown) => void;
interface FakeChannel {
  name: string;
  opts: unknown;
  ons: { type: string; filter: Record<string, unknown>; handler: Handler }[];
  status?: (s: string) => void;
}
const channels: FakeChannel[] = [];
const removed: string[] = [];
const fakeClient = {
  channel(name: string, opts?: unknown) {
    const ch: FakeChannel = { name, opts, ons: [] };
    channels.push(ch);
    const api = {
      on(type: string, filter: Record<string, unknown>, handler: Handler) {
        ch.ons.push({ type, filter, handler });
        return api;
      },
      subscribe(cb: (s: string) => void) {
        ch.status = cb;
        return api;
      },
      name,
    };
    return api;
  },
  removeChannel: async (api: { name: string }) => void removed.push(api.name),
};
vi.mock("../src/lib/supabase", () => ({ getSupabase: () => fakeClient }));

import { tableChanges, useRealtimeChannel } from "../src/lib/realtime";
import { useChatAnnouncements } from "../src/data/chats/use-chat-announcements";

afterEach(() => {
  channels.length = 0;
  removed.length = 0;
});

const settle = () => new Promise((r) => setTimeout(r, 0));

describe("useRealtimeChannel", () => {
  it("subscribes postgres_changes with the filter, calls the latest callback and leaves on unmount", async () => {
    const seen: string[] = [];
    function Probe({ tag }: { tag: string }) {
      useRealtimeChannel("jobs:b1", { listeners: [tableChanges("ingestion_jobs", "bot_id=eq.b1", () => seen.push(tag))], onSubscribed: () => seen.push(`joined-${tag}`) });
      return null;
    }
    const view = render(<Probe tag="first" />);
    await settle();
    expect(channels).toHaveLength(1);
    expect(channels[0]!.ons[0]).toMatchObject({ type: "postgres_changes", filter: { event: "*", schema: "public", table: "ingestion_jobs", filter: "bot_id=eq.b1" } });
    view.rerender(<Probe tag="second" />);
    await settle();
    expect(channels).toHaveLength(1);
    channels[0]!.status!("SUBSCRIBED");
    channels[0]!.ons[0]!.handler({ eventType: "INSERT", new: { id: "j1" }, old: {} });
    channels[0]!.status!("SUBSCRIBED");
    expect(seen).toEqual(["joined-second", "second", "joined-second"]);
    view.unmount();
    expect(removed).toEqual(["jobs:b1"]);
  });

  it("joins nothing without a name, and a new name leaves the old channel", async () => {
    function Probe({ name }: { name: string | null }) {
      useRealtimeChannel(name, { listeners: [{ kind: "broadcast", event: "message", onMessage: () => undefined }] });
      return null;
    }
    const view = render(<Probe name={null} />);
    await settle();
    expect(channels).toHaveLength(0);
    view.rerender(<Probe name="a" />);
    await settle();
    view.rerender(<Probe name="b" />);
    await settle();
    expect(channels.map((c) => c.name)).toEqual(["a", "b"]);
    expect(removed).toEqual(["a"]);
    view.unmount();
  });

  it("announces a visitor chat's turns on its private topic, and on every join", async () => {
    const onAnnounce = vi.fn();
    function Probe() {
      useChatAnnouncements("c1", onAnnounce);
      return null;
    }
    const view = render(<Probe />);
    await settle();
    expect(channels[0]).toMatchObject({ name: "chat:c1", opts: { config: { private: true } } });
    expect(channels[0]!.ons[0]).toMatchObject({ type: "broadcast", filter: { event: "message" } });
    channels[0]!.status!("SUBSCRIBED");
    channels[0]!.ons[0]!.handler({ payload: { id: "m1" } });
    expect(onAnnounce).toHaveBeenCalledTimes(2);
    view.unmount();
  });
});
