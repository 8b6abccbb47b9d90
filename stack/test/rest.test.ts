// PostgREST through the gateway with supabase-js: the REST grammar, RLS per role,
// error shapes and the gateway's key handling.
import { describe, expect, it, beforeAll } from "vitest";
import { createClient } from "@supabase/supabase-js";
import { anonClient, createUser, serviceClient, stackInfo, userClient, mintUserToken, nodeClientOptions } from "./helpers.ts";

describe("REST through the gateway", () => {
  let alice: string;
  let bob: string;
  let aliceBook: number;

  beforeAll(async () => {
    alice = await createUser();
    bob = await createUser();
    const a = await userClient(alice);
    const { data, error } = await a.from("notebooks").insert({ title: "Alice's book" }).select().single();
    expect(error).toBeNull();
    aliceBook = data!.id;
    const notes = [1, 2, 3].map((i) => ({ notebook_id: aliceBook, body: `note ${i}`, stars: i }));
    expect((await a.from("notes").insert(notes)).error).toBeNull();
    await a.from("notebooks").insert({ title: "Alice public", public: true });
  });

  it("reads with embedded resources, filters, order and exact counts", async () => {
    const a = await userClient(alice);
    const { data, error } = await a
      .from("notebooks")
      .select("title, notes(body, stars)")
      .eq("id", aliceBook)
      .order("stars", { referencedTable: "notes", ascending: false })
      .single();
    expect(error).toBeNull();
    expect(data!.title).toBe("Alice's book");
    expect(data!.notes.map((n: { stars: number }) => n.stars)).toEqual([3, 2, 1]);

    const counted = await a.from("notes").select("*", { count: "exact", head: true }).gte("stars", 2);
    expect(counted.count).toBe(2);
    const inList = await a.from("notes").select("body").in("stars", [1, 3]).order("stars");
    expect(inList.data!.map((n) => n.body)).toEqual(["note 1", "note 3"]);
  });

  it("calls RPCs as the caller", async () => {
    const a = await userClient(alice);
    expect((await a.rpc("count_my_notes")).data).toBe(3);
    const who = await a.rpc("whoami");
    expect(who.data).toEqual({ role: "authenticated", uid: alice });
    const anon = await anonClient().rpc("whoami");
    expect(anon.data).toEqual({ role: "anon", uid: null });
    // count_my_notes is granted to authenticated only
    const refused = await anonClient().rpc("count_my_notes");
    expect(refused.error?.code).toBe("42501");
  });

  it("honours RLS for anon, another user and the service role", async () => {
    const b = await userClient(bob);
    expect((await b.from("notebooks").select("id").eq("id", aliceBook)).data).toEqual([]);
    const titles = (await anonClient().from("notebooks").select("title")).data!.map((r) => r.title);
    expect(titles).toContain("Alice public");
    expect(titles).not.toContain("Alice's book");
    const service = await serviceClient().from("notebooks").select("id").eq("id", aliceBook);
    expect(service.data).toHaveLength(1);
    // bob cannot write into alice's notebook: PostgREST's RLS error shape
    const denied = await b.from("notes").insert({ notebook_id: aliceBook, body: "intrusion" });
    expect(denied.error?.code).toBe("42501");
    expect(denied.status).toBe(403);
    // bob's update silently matches nothing
    const upd = await b.from("notes").update({ body: "x" }).eq("notebook_id", aliceBook).select();
    expect(upd.data).toEqual([]);
    // anon cannot insert at all
    const anonInsert = await anonClient().from("notebooks").insert({ title: "x", owner_id: alice });
    expect(anonInsert.error).not.toBeNull();
  });

  it("returns PostgREST's error shapes", async () => {
    const a = await userClient(alice);
    const none = await a.from("notebooks").select("id").eq("id", -1).single();
    expect(none.error?.code).toBe("PGRST116");
    expect(none.status).toBe(406);
    const missing = await a.from("no_such_table").select("*");
    expect(missing.error?.code).toMatch(/^(42P01|PGRST205)$/);
    const check = await a.from("notebooks").insert({ title: "" });
    expect(check.error?.code).toBe("23514");
  });

  it("maps keys to roles: anon, service, sb_ keys, bad and expired tokens", async () => {
    const s = stackInfo();
    const pub = createClient(s.apiUrl, s.publishableKey, { auth: { persistSession: false }, ...nodeClientOptions });
    expect((await pub.rpc("whoami")).data).toEqual({ role: "anon", uid: null });
    const secret = createClient(s.apiUrl, s.secretKey, { auth: { persistSession: false }, ...nodeClientOptions });
    expect((await secret.from("notebooks").select("id").eq("id", aliceBook)).data).toHaveLength(1);

    const noKey = await fetch(`${s.apiUrl}/rest/v1/notebooks`);
    expect(noKey.status).toBe(401);
    expect((await noKey.json()).message).toBe("No API key found in request");
    const badKey = await fetch(`${s.apiUrl}/rest/v1/notebooks`, { headers: { apikey: "nope" } });
    expect(badKey.status).toBe(401);
    expect((await badKey.json()).message).toBe("Invalid API key");

    const expired = await mintUserToken(alice, {}, -60);
    const r1 = await fetch(`${s.apiUrl}/rest/v1/notebooks`, { headers: { apikey: s.anonKey, authorization: `Bearer ${expired}` } });
    expect(r1.status).toBe(401);
    expect((await r1.json()).message).toMatch(/expired/i);
    const r2 = await fetch(`${s.apiUrl}/rest/v1/notebooks`, { headers: { apikey: s.anonKey, authorization: "Bearer not-a-jwt" } });
    expect(r2.status).toBe(401);
  });

  it("bounds request bodies and answers CORS preflights", async () => {
    const s = stackInfo();
    const big = JSON.stringify({ title: "x".repeat(11 * 1024 * 1024) });
    const r = await fetch(`${s.apiUrl}/rest/v1/notebooks`, {
      method: "POST",
      headers: { apikey: s.anonKey, "content-type": "application/json" },
      body: big,
    });
    expect(r.status).toBe(413);
    const pre = await fetch(`${s.apiUrl}/rest/v1/notebooks`, {
      method: "OPTIONS",
      headers: { origin: "http://example.test", "access-control-request-headers": "apikey, authorization" },
    });
    expect(pre.status).toBe(200);
    expect(pre.headers.get("access-control-allow-origin")).toBe("http://example.test");
    expect(pre.headers.get("access-control-allow-headers")).toContain("apikey");
  });

  it("answers 404 for unknown routes and 503 for services not yet present", async () => {
    const s = stackInfo();
    const r = await fetch(`${s.apiUrl}/nothing-here`);
    expect(r.status).toBe(404);
    const h = await (await fetch(`${s.apiUrl}/health`)).json();
    expect(h.ok).toBe(true);
    expect(h.services.postgres).toBe(true);
    expect(h.services.rest).toBe(true);
  });
});
