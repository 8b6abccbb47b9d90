// Where the visitor's session is kept (lib/frame-storage.ts): the app's cookies unless the page is
// in a frame where they do not stick (the widget's iframe on a customer's site), then the frame's
// localStorage, partitioned cookies, sessionStorage or memory, the first the browser allows.
// (e2e/widget.spec.ts runs the real thing in Chromium on a customer's page on another site.)
import { describe, expect, it } from "vitest";
import { chooseSessionKeeping, memoryStore, PARTITIONED_COOKIE_OPTIONS } from "../src/lib/frame-storage";
import { SESSION_COOKIE_OPTIONS } from "../src/lib/session-cookie";

/** A document whose cookie jar keeps only cookies written with attributes `keeps` allows. */
function fakeDocument(keeps: (attributes: string) => boolean): Document {
  const jar = new Map<string, string>();
  return {
    get cookie() {
      return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    },
    set cookie(line: string) {
      const [pair, ...attrs] = line.split(/;\s*/);
      const [name, value] = pair!.split("=") as [string, string];
      if (/Max-Age=0/.test(line)) jar.delete(name);
      else if (keeps(attrs.join("; "))) jar.set(name, value);
    },
  } as unknown as Document;
}

function fakeStorage(): Storage {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
    key: (i: number) => [...m.keys()][i] ?? null,
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
  };
}

const blocked = (): Storage => {
  throw new DOMException("Access is denied for this document.", "SecurityError");
};

function fakeWindow(o: {
  framed: boolean;
  keeps: (attributes: string) => boolean;
  local?: () => Storage;
  session?: () => Storage;
}): Window {
  const win = {
    document: fakeDocument(o.keeps),
    get localStorage() {
      return (o.local ?? fakeStorage)();
    },
    get sessionStorage() {
      return (o.session ?? fakeStorage)();
    },
  } as unknown as { self: unknown; top: unknown };
  win.self = win;
  win.top = o.framed ? {} : win;
  return win as unknown as Window;
}

const all = () => true;
const partitionedOnly = (a: string) => /Partitioned/.test(a);
const none = () => false;

describe("the session's keeping", () => {
  it("is the app's cookies on a page of its own, and in a frame where they stick (the app's own preview)", () => {
    expect(chooseSessionKeeping(fakeWindow({ framed: false, keeps: none, local: blocked }))).toEqual({
      cookies: SESSION_COOKIE_OPTIONS,
    });
    expect(chooseSessionKeeping(fakeWindow({ framed: true, keeps: all }))).toEqual({ cookies: SESSION_COOKIE_OPTIONS });
  });

  it("is the frame's localStorage in a frame on another site", () => {
    const local = fakeStorage();
    const k = chooseSessionKeeping(fakeWindow({ framed: true, keeps: partitionedOnly, local: () => local }));
    expect(k.store).toBeDefined();
    k.store!.setItem("sb-127-auth-token", "{}");
    expect(local.getItem("sb-127-auth-token")).toBe("{}");
    expect(k.store!.keys()).toEqual(["sb-127-auth-token"]);
  });

  it("is partitioned cookies where the browser blocks storage in third-party frames", () => {
    const k = chooseSessionKeeping(
      fakeWindow({ framed: true, keeps: partitionedOnly, local: blocked, session: blocked }),
    );
    expect(k).toEqual({ cookies: PARTITIONED_COOKIE_OPTIONS });
    expect(PARTITIONED_COOKIE_OPTIONS).toMatchObject({ sameSite: "none", secure: true, partitioned: true, path: "/" });
  });

  it("is sessionStorage, else memory, where nothing else is allowed", () => {
    const session = fakeStorage();
    const s = chooseSessionKeeping(fakeWindow({ framed: true, keeps: none, local: blocked, session: () => session }));
    s.store!.setItem("a", "1");
    expect(session.getItem("a")).toBe("1");
    const m = chooseSessionKeeping(fakeWindow({ framed: true, keeps: none, local: blocked, session: blocked }));
    m.store!.setItem("sb-x-auth-token", "{}");
    expect(m.store!.getItem("sb-x-auth-token")).toBe("{}");
    expect(m.store!.keys()).toEqual(["sb-x-auth-token"]);
  });

  it("leaves no probe behind", () => {
    const win = fakeWindow({ framed: true, keeps: all });
    chooseSessionKeeping(win);
    expect(win.document.cookie).toBe("");
    expect(memoryStore().keys()).toEqual([]);
  });
});
