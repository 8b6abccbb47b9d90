// Edge functions through the gateway: real Deno, JWT verification per config.toml,
// the caller's token passed through to the database, crashes and bad input.
import { describe, expect, it, beforeAll } from "vitest";
import { createUser, mintUserToken, stackInfo, userClient, anonClient } from "./helpers.ts";

describe("edge functions", () => {
  let uid: string;
  beforeAll(async () => {
    uid = await createUser();
  });

  it("invokes a function as the signed-in caller, whose token reaches Postgres", async () => {
    const client = await userClient(uid);
    const { data, error } = await client.functions.invoke("echo", { body: { hello: "world" } });
    expect(error).toBeNull();
    expect(data.whoami).toEqual({ role: "authenticated", uid });
    expect(JSON.parse(data.body)).toEqual({ hello: "world" });
    expect(data.path).toBe("/echo");
    expect(data.secret).toBe("from-stack");
  });

  it("accepts the anon key as the JWT and runs as anon", async () => {
    const { data, error } = await anonClient().functions.invoke("echo", { method: "GET" });
    expect(error).toBeNull();
    expect(data.whoami).toEqual({ role: "anon", uid: null });
  });

  it("refuses missing, malformed and expired JWTs where verify_jwt is on", async () => {
    const s = stackInfo();
    const none = await fetch(`${s.apiUrl}/functions/v1/echo`);
    expect(none.status).toBe(401);
    expect((await none.json()).message).toMatch(/authorization/i);
    const bad = await fetch(`${s.apiUrl}/functions/v1/echo`, { headers: { authorization: "Bearer nope" } });
    expect(bad.status).toBe(401);
    const expired = await fetch(`${s.apiUrl}/functions/v1/echo`, {
      headers: { authorization: `Bearer ${await mintUserToken(uid, {}, -10)}` },
    });
    expect(expired.status).toBe(401);
    expect((await expired.json()).message).toMatch(/expired/i);
    // a token signed with another secret
    const forged = (await mintUserToken(uid)).slice(0, -4) + "AAAA";
    const f = await fetch(`${s.apiUrl}/functions/v1/echo`, { headers: { authorization: `Bearer ${forged}` } });
    expect(f.status).toBe(401);
  });

  it("passes sub-paths and query strings through", async () => {
    const s = stackInfo();
    const r = await fetch(`${s.apiUrl}/functions/v1/echo/deeper/path?x=1`, { headers: { authorization: `Bearer ${s.anonKey}` } });
    expect(r.status).toBe(200);
    expect((await r.json()).path).toBe("/echo/deeper/path");
  });

  it("tells functions the caller's real address, whatever X-Forwarded-For claims", async () => {
    const s = stackInfo();
    const r = await fetch(`${s.apiUrl}/functions/v1/echo`, { headers: { authorization: `Bearer ${s.anonKey}`, "x-forwarded-for": "203.0.113.9" } });
    expect((await r.json()).ip).toBe("127.0.0.1");
  });

  it("answers 404 for unknown or private function names", async () => {
    const s = stackInfo();
    for (const name of ["nope", "_shared", "..%2Fecho"]) {
      const r = await fetch(`${s.apiUrl}/functions/v1/${name}`, { headers: { authorization: `Bearer ${s.anonKey}` } });
      expect(r.status).toBe(404);
      expect((await r.json()).code).toBe("NOT_FOUND");
    }
  });

  it("restarts a crashed function; its caller gets a JSON 5xx, never a hang", async () => {
    const s = stackInfo();
    const firstRes = await fetch(`${s.apiUrl}/functions/v1/crash`);
    const first = await firstRes.json();
    expect(first, JSON.stringify(first)).toHaveProperty("pid");
    expect(first.pid).toBeTypeOf("number");
    const crashed = await fetch(`${s.apiUrl}/functions/v1/crash?exit=1`);
    expect(crashed.status).toBeGreaterThanOrEqual(500);
    expect((await crashed.json()).message).toBeTruthy();
    const again = await (await fetch(`${s.apiUrl}/functions/v1/crash`)).json();
    expect(again.pid).toBeTypeOf("number");
    expect(again.pid).not.toBe(first.pid);
  });

  it("keeps the worker (and its background work) when a caller goes away mid-response", async () => {
    const s = stackInfo();
    const before = (await (await fetch(`${s.apiUrl}/functions/v1/crash`)).json()).pid;
    const abort = new AbortController();
    const res = await fetch(`${s.apiUrl}/functions/v1/crash?stream`, { signal: abort.signal });
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain(`pid ${before}`);
    abort.abort();
    await new Promise((r) => setTimeout(r, 300));
    expect((await (await fetch(`${s.apiUrl}/functions/v1/crash`)).json()).pid).toBe(before);
    // gone before the answer's headers
    const early = new AbortController();
    const pending = fetch(`${s.apiUrl}/functions/v1/crash?slow`, { signal: early.signal }).catch((e: Error) => e);
    await new Promise((r) => setTimeout(r, 300));
    early.abort();
    expect(await pending).toBeInstanceOf(Error);
    await new Promise((r) => setTimeout(r, 1200));
    expect((await (await fetch(`${s.apiUrl}/functions/v1/crash`)).json()).pid).toBe(before);
  });

  it("rejects oversized bodies with 413", async () => {
    const s = stackInfo();
    const r = await fetch(`${s.apiUrl}/functions/v1/echo`, {
      method: "POST",
      headers: { authorization: `Bearer ${s.anonKey}`, "content-type": "text/plain" },
      body: "x".repeat(11 * 1024 * 1024),
    });
    expect(r.status).toBe(413);
  });
});
