import { act, render, screen } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import type { AuthChangeEvent, Session } from "@supabase/supabase-js";
import { SessionProvider, useSession } from "../src/lib/session";
import { hasStoredSession } from "../src/lib/supabase-ready";

function fakeAuth() {
  let listener: ((e: AuthChangeEvent, s: Session | null) => void) | undefined;
  const client = {
    auth: {
      onAuthStateChange(cb: (e: AuthChangeEvent, s: Session | null) => void) {
        listener = cb;
        return { data: { subscription: { unsubscribe: () => (listener = undefined) } } };
      },
    },
  };
  return { load: async () => ({ getSupabase: () => client }), emit: (e: AuthChangeEvent, s: Session | null) => listener?.(e, s) };
}

function Probe() {
  const s = useSession();
  return <p>{`${s.status}:${s.user?.email ?? "none"}:${s.lastEvent ?? "-"}`}</p>;
}

const session = (id: string, email: string) => ({ user: { id, email } }) as unknown as Session;

describe("SessionProvider", () => {
  it("shares the session and follows auth events; clears cached data when the user changes", async () => {
    const auth = fakeAuth();
    const qc = new QueryClient();
    render(
      <QueryClientProvider client={qc}>
        <SessionProvider load={auth.load} storedSession={() => true}>
          <Probe />
        </SessionProvider>
      </QueryClientProvider>,
    );
    expect(screen.getByText("loading:none:-")).toBeTruthy();
    await act(async () => {
      await Promise.resolve();
      auth.emit("INITIAL_SESSION", session("u1", "a@x.test"));
    });
    expect(screen.getByText("ready:a@x.test:INITIAL_SESSION")).toBeTruthy();
    qc.setQueryData(["private"], "alice's data");
    await act(async () => auth.emit("TOKEN_REFRESHED", session("u1", "a@x.test")));
    expect(qc.getQueryData(["private"])).toBe("alice's data");
    await act(async () => auth.emit("SIGNED_OUT", null));
    expect(screen.getByText("ready:none:SIGNED_OUT")).toBeTruthy();
    expect(qc.getQueryData(["private"])).toBeUndefined();
  });

  it("treats a missing configuration as signed out", async () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <SessionProvider load={() => Promise.reject(new Error("no config"))} storedSession={() => true}>
          <Probe />
        </SessionProvider>
      </QueryClientProvider>,
    );
    await screen.findByText("ready:none:-");
  });

  it("without a stored session is signed out at once and loads nothing until a screen creates the client", async () => {
    const auth = fakeAuth();
    let loads = 0;
    let created: (() => void) | undefined;
    const qc = new QueryClient();
    qc.setQueryData(["public-bot"], "read without a session");
    render(
      <QueryClientProvider client={qc}>
        <SessionProvider
          load={() => (loads++, auth.load())}
          storedSession={() => false}
          whenCreated={(cb) => ((created = cb), () => (created = undefined))}
        >
          <Probe />
        </SessionProvider>
      </QueryClientProvider>,
    );
    await screen.findByText("ready:none:-");
    expect(loads).toBe(0);
    // The login page creates the client and signs in: the session follows.
    await act(async () => {
      created?.();
      await Promise.resolve();
      await Promise.resolve();
    });
    expect(loads).toBe(1);
    await act(async () => auth.emit("INITIAL_SESSION", null));
    await act(async () => auth.emit("SIGNED_IN", session("u2", "b@x.test")));
    expect(screen.getByText("ready:b@x.test:SIGNED_IN")).toBeTruthy();
    expect(qc.getQueryData(["public-bot"]), "signing in from no session keeps what was read without one").toBe("read without a session");
  });

  it("recognises @supabase/ssr's session cookies, whole or in chunks", () => {
    expect(hasStoredSession("")).toBe(false);
    expect(hasStoredSession("parley-locale=de; parley-consent=x")).toBe(false);
    expect(hasStoredSession("sb-127-auth-token=base64-abc")).toBe(true);
    expect(hasStoredSession("a=1; sb-abcdefgh-auth-token.0=base64-abc; sb-abcdefgh-auth-token.1=def")).toBe(true);
    expect(hasStoredSession("sb-127-auth-token-code-verifier=xyz")).toBe(false);
  });
});
