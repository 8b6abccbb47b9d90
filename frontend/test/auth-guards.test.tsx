// The auth guards against a fake Supabase client: auth refuses anonymous sessions,
// admin-auth asks Postgres, bot-auth lets visitors look without a session and enforces password bots
// (grant or team membership, else /bots/{id}/login?redirect=…), private/unknown bots 404.
import { describe, expect, it, vi } from "vitest";
import type { SupabaseClient } from "@supabase/supabase-js";
import { createGuards } from "../src/app/guards";

const BOT = "6f1c1a4e-9a56-4e55-8a39-0d3c3c1d9a11";

interface World {
  session: null | { user: { id: string; is_anonymous?: boolean } };
  bot: null | { visibility: "public" | "password" };
  grant: boolean;
  member: boolean;
  admin?: boolean;
  /** The caller is listed as a platform administrator but the session is aal1 (admin_access). */
  adminAal1?: boolean;
  /** The session's assurance level now and next (a verified factor not used yet: aal1 → aal2). */
  aal?: { currentLevel: "aal1" | "aal2"; nextLevel: "aal1" | "aal2" };
}

function fake(world: World) {
  const signInAnonymously = vi.fn(async () => {
    world.session = { user: { id: "anon", is_anonymous: true } };
    return { data: {}, error: null };
  });
  const rpc = vi.fn(async (fn: string) => {
    if (fn === "get_public_bot") return { data: world.bot ? [{ id: BOT, ...world.bot }] : [], error: null };
    if (fn === "is_platform_admin") return { data: world.admin === true, error: null };
    if (fn === "admin_access") return { data: world.admin ? "granted" : world.adminAal1 ? "aal2_required" : "none", error: null };
    return { data: null, error: { code: "PGRST202", message: "missing" } };
  });
  const from = vi.fn((table: string) => ({
    select: () => ({
      eq: () => ({
        maybeSingle: async () => ({
          data:
            table === "bot_access_grants"
              ? world.grant
                ? { bot_id: BOT }
                : null
              : table === "bots"
                ? world.member
                  ? { id: BOT }
                  : null
                : null,
          error: null,
        }),
      }),
    }),
  }));
  const client = {
    auth: {
      getSession: async () => ({ data: { session: world.session } }),
      signInAnonymously,
      mfa: { getAuthenticatorAssuranceLevel: async () => ({ data: world.aal ?? { currentLevel: "aal1", nextLevel: "aal1" }, error: null }) },
    },
    rpc,
    from,
  } as unknown as SupabaseClient;
  return { guards: createGuards(async () => client), signInAnonymously, rpc, from };
}

async function outcome(
  p: Promise<void>,
): Promise<{ kind: "pass" } | { kind: "redirect"; location: string } | { kind: "status"; status: number }> {
  try {
    await p;
    return { kind: "pass" };
  } catch (e) {
    if (e instanceof Response) return { kind: "redirect", location: e.headers.get("Location") ?? "" };
    const init = (e as { init?: { status?: number } }).init;
    if (init?.status) return { kind: "status", status: init.status };
    throw e;
  }
}

const ctx = (path: string, locale: "en" | "de" = "en") => ({
  request: new Request(`https://parley.test${path}`),
  params: { botId: BOT },
  locale,
});

describe("auth guard", () => {
  it("treats an anonymous session as signed out", async () => {
    const { guards } = fake({
      session: { user: { id: "a", is_anonymous: true } },
      bot: null,
      grant: false,
      member: false,
    });
    expect(await outcome(guards.auth!(ctx("/de/app/bots?x=1", "de")))).toEqual({
      kind: "redirect",
      location: "/de/app/auth/login?redirect=%2Fde%2Fapp%2Fbots%3Fx%3D1",
    });
  });
  it("admin-auth refuses a signed-in non-admin with 403 and admits an admin", async () => {
    const w: World = { session: { user: { id: "u" } }, bot: null, grant: false, member: false, admin: false };
    const a = fake(w);
    expect(await outcome(a.guards["admin-auth"]!(ctx("/app/admin")))).toEqual({ kind: "status", status: 403 });
    w.admin = true;
    expect(await outcome(a.guards["admin-auth"]!(ctx("/app/admin")))).toEqual({ kind: "pass" });
    expect(a.rpc).toHaveBeenCalledWith("is_platform_admin");
  });
});

describe("second factor", () => {
  it("sends a session with a verified factor it has not used (aal1 → aal2) to the code step, with the way back", async () => {
    const w: World = { session: { user: { id: "u" } }, bot: null, grant: false, member: false, aal: { currentLevel: "aal1", nextLevel: "aal2" } };
    const a = fake(w);
    expect(await outcome(a.guards.auth!(ctx("/app/bots?x=1")))).toEqual({ kind: "redirect", location: "/app/auth/mfa?redirect=%2Fapp%2Fbots%3Fx%3D1" });
    expect(await outcome(a.guards.auth!(ctx("/app/bots", "de")))).toEqual({ kind: "redirect", location: "/de/app/auth/mfa?redirect=%2Fapp%2Fbots" });
    w.aal = { currentLevel: "aal2", nextLevel: "aal2" };
    expect(await outcome(a.guards.auth!(ctx("/app/bots")))).toEqual({ kind: "pass" });
  });

  it("leads a platform administrator without a second factor to set one up instead of refusing", async () => {
    const w: World = { session: { user: { id: "u" } }, bot: null, grant: false, member: false, admin: false, adminAal1: true };
    const a = fake(w);
    expect(await outcome(a.guards["admin-auth"]!(ctx("/app/admin/users")))).toEqual({
      kind: "redirect",
      location: "/app/auth/mfa?redirect=%2Fapp%2Fadmin%2Fusers&reason=admin",
    });
    expect(a.rpc).toHaveBeenCalledWith("admin_access");
  });
});

describe("bot-auth guard", () => {
  it("lets a visitor without a session into a public bot without signing them in (the first message does)", async () => {
    const f = fake({ session: null, bot: { visibility: "public" }, grant: false, member: false });
    expect(await outcome(f.guards["bot-auth"]!(ctx(`/bots/${BOT}`)))).toEqual({ kind: "pass" });
    expect(f.signInAnonymously).not.toHaveBeenCalled();
    expect(f.rpc).toHaveBeenCalledWith("get_public_bot", { bot_id: BOT });
  });

  it("sends a visitor of a password bot to its login page with the way back", async () => {
    const f = fake({ session: null, bot: { visibility: "password" }, grant: false, member: false });
    expect(await outcome(f.guards["bot-auth"]!(ctx(`/de/bots/${BOT}/chats/abc`, "de")))).toEqual({
      kind: "redirect",
      location: `/de/bots/${BOT}/login?redirect=${encodeURIComponent(`/de/bots/${BOT}/chats/abc`)}`,
    });
  });

  it("lets a visitor with an access grant in", async () => {
    const f = fake({
      session: { user: { id: "anon", is_anonymous: true } },
      bot: { visibility: "password" },
      grant: true,
      member: false,
    });
    expect(await outcome(f.guards["bot-auth"]!(ctx(`/bots/${BOT}`)))).toEqual({ kind: "pass" });
    expect(f.signInAnonymously).not.toHaveBeenCalled();
  });

  it("lets a team member into a password bot and a private bot", async () => {
    for (const bot of [{ visibility: "password" as const }, null]) {
      const f = fake({ session: { user: { id: "u" } }, bot, grant: false, member: true });
      expect(await outcome(f.guards["bot-auth"]!(ctx(`/bots/${BOT}`)))).toEqual({ kind: "pass" });
    }
  });

  it("a private or unknown bot is a 404 for everyone else", async () => {
    const f = fake({ session: null, bot: null, grant: false, member: false });
    expect(await outcome(f.guards["bot-auth"]!(ctx(`/bots/${BOT}`)))).toEqual({ kind: "status", status: 404 });
  });
});
