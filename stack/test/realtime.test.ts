// Realtime through the unmodified realtime-js inside supabase-js: postgres_changes
// with RLS, filters and payload shapes; broadcast, presence, private channels,
// the REST broadcast endpoint, token refresh and expiry.
import { createClient, type RealtimeChannel, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, describe, expect, it } from "vitest";
import ws from "ws";
import pg from "pg";
import { manageRealtimePartitions } from "../src/realtime/index.ts";
import { createUser, mintUserToken, sql, stackInfo } from "./helpers.ts";

const WAIT = 30_000;
const clients: SupabaseClient[] = [];

afterAll(async () => {
  for (const c of clients) await c.removeAllChannels();
});

/** A client whose realtime connection uses `token` (or the anon key). */
async function rtClient(token?: string, vsn?: "1.0.0" | "2.0.0"): Promise<SupabaseClient> {
  const s = stackInfo();
  const c = createClient(s.apiUrl, s.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: ws as never, ...(vsn ? { vsn } : {}) },
    ...(token ? { accessToken: async () => token } : {}),
  });
  // The token must be in place before the first join (supabase-js sets it asynchronously).
  if (token) await c.realtime.setAuth(token);
  clients.push(c);
  return c;
}

function serviceRt(): SupabaseClient {
  const s = stackInfo();
  const c = createClient(s.apiUrl, s.serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false }, realtime: { transport: ws as never } });
  clients.push(c);
  return c;
}

/** Resolves when the channel is SUBSCRIBED and, if it listens to postgres_changes, registered with the WAL reader. */
function subscribed(ch: RealtimeChannel, withChanges = true): Promise<void> {
  return new Promise((resolve, reject) => {
    let joined = false;
    let pg = !withChanges;
    ch.on("system", {}, (msg: { extension?: string; status?: string; message?: string }) => {
      if (msg.extension === "postgres_changes" && msg.status === "ok") {
        pg = true;
        if (joined) resolve();
      } else if (msg.extension === "postgres_changes") reject(new Error(msg.message));
    });
    ch.subscribe((status, err) => {
      if (status === "SUBSCRIBED") {
        joined = true;
        if (pg) resolve();
      } else if (status === "CHANNEL_ERROR" || status === "TIMED_OUT") reject(err ?? new Error(status));
    });
  });
}

/** Collects events and lets a test wait for the n-th one. */
function collector<T>() {
  const items: T[] = [];
  const waiters: { n: number; resolve: (v: T[]) => void }[] = [];
  return {
    items,
    push(v: T) {
      items.push(v);
      for (const w of [...waiters]) if (items.length >= w.n) { waiters.splice(waiters.indexOf(w), 1); w.resolve(items); }
    },
    next(n = items.length + 1): Promise<T[]> {
      if (items.length >= n) return Promise.resolve(items);
      return new Promise((resolve, reject) => {
        waiters.push({ n, resolve });
        setTimeout(() => reject(new Error(`timed out waiting for event #${n} (have ${items.length})`)), WAIT).unref();
      });
    },
  };
}

async function notebook(owner: string, isPublic = false): Promise<number> {
  const rows = await sql<{ id: string }>("insert into public.notebooks (owner_id, title, public) values ($1, 'rt', $2) returning id", [owner, isPublic]);
  return Number(rows[0]!.id);
}

async function note(notebookId: number, body: string, stars = 0): Promise<number> {
  const rows = await sql<{ id: string }>("insert into public.notes (notebook_id, body, stars) values ($1, $2, $3) returning id", [notebookId, body, stars]);
  return Number(rows[0]!.id);
}

type Change = { eventType: string; new: Record<string, unknown>; old: Record<string, unknown>; schema: string; table: string; commit_timestamp: string; errors: unknown };

describe("postgres_changes", () => {
  it("delivers an insert to its owner and not to another user (RLS)", async () => {
    const alice = await createUser();
    const bob = await createUser();
    const aliceBook = await notebook(alice);
    const bobBook = await notebook(bob);
    const a = collector<Change>();
    const b = collector<Change>();
    const chA = (await rtClient(await mintUserToken(alice))).channel(`rls-a-${alice}`)
      .on("postgres_changes", { event: "INSERT", schema: "public", table: "notes" }, (p) => a.push(p as unknown as Change));
    const chB = (await rtClient(await mintUserToken(bob))).channel(`rls-b-${bob}`)
      .on("postgres_changes", { event: "INSERT", schema: "public", table: "notes" }, (p) => b.push(p as unknown as Change));
    await Promise.all([subscribed(chA), subscribed(chB)]);

    const secret = await note(aliceBook, "alice only");
    const mine = await note(bobBook, "bob only");
    const [fromA] = await a.next(1);
    expect(fromA!.new).toMatchObject({ id: secret, body: "alice only", notebook_id: aliceBook, stars: 0 });
    expect(fromA!.eventType).toBe("INSERT");
    expect(fromA!.schema).toBe("public");
    expect(fromA!.table).toBe("notes");
    expect(new Date(fromA!.commit_timestamp).toString()).not.toBe("Invalid Date");
    // Changes arrive in commit order: bob's first event must be his own note, never alice's.
    const [fromB] = await b.next(1);
    expect(fromB!.new.id).toBe(mine);
    expect(b.items.map((c) => c.new.id)).not.toContain(secret);
    expect(a.items.map((c) => c.new.id)).not.toContain(mine);
  });

  it("applies eq, in and gt filters", async () => {
    const owner = await createUser();
    const book = await notebook(owner);
    const other = await notebook(owner);
    const eq = collector<Change>();
    const inF = collector<Change>();
    const gt = collector<Change>();
    const c = (await rtClient(await mintUserToken(owner)));
    const ch = c.channel(`filters-${owner}`)
      .on("postgres_changes", { event: "INSERT", schema: "public", table: "notes", filter: `notebook_id=eq.${book}` }, (p) => eq.push(p as unknown as Change))
      .on("postgres_changes", { event: "INSERT", schema: "public", table: "notes", filter: "stars=in.(3,7)" }, (p) => inF.push(p as unknown as Change))
      .on("postgres_changes", { event: "INSERT", schema: "public", table: "notes", filter: "stars=gt.50" }, (p) => gt.push(p as unknown as Change));
    await subscribed(ch);
    await note(other, "other book", 1);
    await note(book, "in book", 3);
    await note(other, "big", 99);
    await note(book, "last", 7);
    await eq.next(2);
    await inF.next(2);
    await gt.next(1);
    expect(eq.items.map((x) => x.new.body)).toEqual(["in book", "last"]);
    expect(inF.items.map((x) => x.new.stars)).toEqual([3, 7]);
    expect(gt.items.map((x) => x.new.body)).toEqual(["big"]);
  });

  it("applies neq, lt, lte, gte and timestamp filters", async () => {
    const owner = await createUser();
    const book = await notebook(owner);
    const c = await rtClient(await mintUserToken(owner));
    const seen: Record<string, number[]> = { neq: [], lt: [], lte: [], gte: [] };
    const all = collector<string>();
    let ch = c.channel(`filters2-${owner}`);
    for (const [name, f] of [["neq", "stars=neq.2"], ["lt", "stars=lt.2"], ["lte", "stars=lte.2"], ["gte", "stars=gte.3"]] as const) {
      ch = ch.on("postgres_changes", { event: "INSERT", schema: "public", table: "notes", filter: `${f},notebook_id=eq.${book}` }, (p) => {
        seen[name]!.push((p as unknown as Change).new.stars as number);
        all.push(name);
      });
    }
    const times = collector<Change>();
    ch = ch.on("postgres_changes", { event: "INSERT", schema: "public", table: "rt_items", filter: `happened_at=gte.2030-01-01T00:00:00Z,owner_id=eq.${owner}` }, (p) => times.push(p as unknown as Change));
    await subscribed(ch);
    for (const stars of [1, 2, 3]) await note(book, `s${stars}`, stars);
    await sql("insert into public.rt_items (owner_id, label, happened_at) values ($1, 'past', '2020-05-05 10:00:00+02'), ($1, 'future', '2031-02-03 04:05:06.789+00')", [owner]);
    // neq: 1,3  lt: 1  lte: 1,2  gte: 3  => 6 deliveries
    await all.next(6);
    expect(seen).toEqual({ neq: [1, 3], lt: [1], lte: [1, 2], gte: [3] });
    const [t] = await times.next(1);
    expect(t!.new.label).toBe("future");
  });

  it("sends UPDATE and DELETE with old_record, and '*' gets all three", async () => {
    const owner = await createUser();
    const book = await notebook(owner);
    const all = collector<Change>();
    const ch = (await rtClient(await mintUserToken(owner))).channel(`star-${owner}`)
      .on("postgres_changes", { event: "*", schema: "public", table: "notes", filter: `notebook_id=eq.${book}` }, (p) => all.push(p as unknown as Change));
    await subscribed(ch);
    const id = await note(book, "first", 1);
    await sql("update public.notes set body = 'second', stars = 2 where id = $1", [id]);
    await sql("delete from public.notes where id = $1", [id]);
    // the delete has only the primary key (default replica identity), so the filter cannot
    // see notebook_id: listen for it separately below
    await all.next(2);
    expect(all.items[0]!.eventType).toBe("INSERT");
    expect(all.items[1]!.eventType).toBe("UPDATE");
    expect(all.items[1]!.new).toMatchObject({ id, body: "second", stars: 2 });
    expect(all.items[1]!.old).toEqual({ id });

    const dels = collector<Change>();
    const ch2 = (await rtClient(await mintUserToken(owner))).channel(`del-${owner}`)
      .on("postgres_changes", { event: "DELETE", schema: "public", table: "notes" }, (p) => dels.push(p as unknown as Change));
    await subscribed(ch2);
    const id2 = await note(book, "to delete");
    await sql("delete from public.notes where id = $1", [id2]);
    const got = await dels.next(1);
    const mine = got.find((d) => d.old.id === id2) ?? (await dels.next(got.length + 1)).find((d) => d.old.id === id2);
    expect(mine!.eventType).toBe("DELETE");
    expect(mine!.old).toEqual({ id: id2 });
    expect(mine!.new).toEqual({});
  });

  it("converts values as Supabase does and sends full old rows with REPLICA IDENTITY FULL", async () => {
    const owner = await createUser();
    const got = collector<Change>();
    const ch = (await rtClient(await mintUserToken(owner))).channel(`types-${owner}`)
      .on("postgres_changes", { event: "*", schema: "public", table: "rt_items", filter: `owner_id=eq.${owner}` }, (p) => got.push(p as unknown as Change));
    await subscribed(ch);
    const rows = await sql<{ id: string }>(
      `insert into public.rt_items (owner_id, label, qty, price, tags, data, flag, happened_at)
       values ($1, 'x', 3, 12.5, '{a,b}', '{"k":[1,2]}', true, '2026-01-02T03:04:05.678Z') returning id`,
      [owner],
    );
    const id = Number(rows[0]!.id);
    await sql("update public.rt_items set qty = 4 where id = $1", [id]);
    await got.next(2);
    const ins = got.items[0]!;
    expect(ins.new).toMatchObject({ id, owner_id: owner, label: "x", qty: 3, price: 12.5, tags: ["a", "b"], data: { k: [1, 2] }, flag: true });
    expect(new Date(ins.new.happened_at as string).toISOString()).toBe("2026-01-02T03:04:05.678Z");
    const upd = got.items[1]!;
    expect(upd.old).toMatchObject({ id, qty: 3, label: "x" });
    expect(upd.new).toMatchObject({ id, qty: 4 });
  });

  it("keeps delivering to others when one subscriber's check raises (no privilege)", async () => {
    const owner = await createUser();
    const book = await notebook(owner, true);
    const anonGot = collector<Change>();
    const ownerGot = collector<Change>();
    const anonCh = (await rtClient()).channel(`noprivs-anon-${owner}`)
      .on("postgres_changes", { event: "*", schema: "public", table: "rt_items" }, (p) => anonGot.push(p as unknown as Change))
      .on("postgres_changes", { event: "INSERT", schema: "public", table: "notes", filter: `notebook_id=eq.${book}` }, (p) => anonGot.push(p as unknown as Change));
    const ownerCh = (await rtClient(await mintUserToken(owner))).channel(`noprivs-owner-${owner}`)
      .on("postgres_changes", { event: "INSERT", schema: "public", table: "rt_items", filter: `owner_id=eq.${owner}` }, (p) => ownerGot.push(p as unknown as Change));
    await Promise.all([subscribed(anonCh), subscribed(ownerCh)]);
    await sql("insert into public.rt_items (owner_id, label) values ($1, 'private')", [owner]);
    await note(book, "public note");
    const [seen] = await ownerGot.next(1);
    expect(seen!.new).toMatchObject({ owner_id: owner, label: "private" });
    const [first] = await anonGot.next(1);
    expect(first!.table).toBe("notes");
    // deletes skip RLS but not the table privilege
    await sql("delete from public.rt_items where owner_id = $1", [owner]);
    await note(book, "second public note");
    await anonGot.next(2);
    expect(anonGot.items.map((c) => c.table)).toEqual(["notes", "notes"]);
  });

  it("never sends rows of a table without a primary key", async () => {
    const got = collector<Change>();
    const ch = (await rtClient()).channel(`nokey-${Math.random()}`)
      .on("postgres_changes", { event: "INSERT", schema: "public", table: "rt_nokey" }, (p) => got.push(p as unknown as Change));
    await subscribed(ch);
    await sql("insert into public.rt_nokey (secret) values ('hidden')");
    const [c] = await got.next(1);
    expect(c!.eventType).toBe("INSERT");
    expect(c!.new).toEqual({});
    expect(c!.errors).toEqual(["Error 400: Bad Request, no primary key"]);
  });

  it("reports a filter it cannot parse", async () => {
    const ch = (await rtClient()).channel(`badfilter-${Math.random()}`)
      .on("postgres_changes", { event: "INSERT", schema: "public", table: "notes", filter: "stars=between.1" }, () => {});
    await expect(subscribed(ch)).rejects.toThrow(/Error parsing `filter` params/);
  });

  it("reports a table that is not in the publication", async () => {
    const c = (await rtClient());
    const ch = c.channel(`nopub-${Math.random()}`).on("postgres_changes", { event: "*", schema: "public", table: "notebooks" }, () => {});
    await expect(subscribed(ch)).rejects.toThrow(/Unable to subscribe to changes/);
  });
});

describe("broadcast and presence", () => {
  it("broadcasts between two clients, with self and ack", async () => {
    const topic = `room-${Math.random().toString(36).slice(2)}`;
    const heard = collector<{ event: string; payload: unknown }>();
    const echo = collector<{ event: string; payload: unknown }>();
    const listener = (await rtClient()).channel(topic).on("broadcast", { event: "hello" }, (m) => heard.push(m as never));
    const sender = (await rtClient(undefined, "1.0.0")).channel(topic, { config: { broadcast: { self: true, ack: true } } })
      .on("broadcast", { event: "hello" }, (m) => echo.push(m as never));
    await Promise.all([subscribed(listener, false), subscribed(sender, false)]);
    const status = await sender.send({ type: "broadcast", event: "hello", payload: { n: 1 } });
    expect(status).toBe("ok");
    const [m] = await heard.next(1);
    expect(m).toMatchObject({ type: "broadcast", event: "hello", payload: { n: 1 } });
    const [e] = await echo.next(1);
    expect(e).toMatchObject({ event: "hello", payload: { n: 1 } });

    // and back from the vsn 2.0.0 (binary frame) client to the 1.0.0 client
    await listener.send({ type: "broadcast", event: "hello", payload: { n: 2 } });
    await echo.next(2);
    expect(echo.items[1]).toMatchObject({ event: "hello", payload: { n: 2 } });
  });

  it("syncs presence between two clients, including leave on untrack", async () => {
    const topic = `presence-${Math.random().toString(36).slice(2)}`;
    const joins = collector<{ key: string; newPresences: Record<string, unknown>[] }>();
    const leaves = collector<{ key: string }>();
    const a = (await rtClient()).channel(topic, { config: { presence: { key: "alice" } } })
      .on("presence", { event: "join" }, (p) => joins.push(p as never))
      .on("presence", { event: "leave" }, (p) => leaves.push(p as never));
    await subscribed(a, false);
    const b = (await rtClient()).channel(topic, { config: { presence: { key: "bob" } } }).on("presence", { event: "sync" }, () => {});
    await subscribed(b, false);
    expect(await b.track({ status: "online" })).toBe("ok");
    const got = await joins.next(1);
    expect(got.find((j) => j.key === "bob")!.newPresences[0]).toMatchObject({ status: "online" });
    expect(a.presenceState().bob?.[0]).toMatchObject({ status: "online" });
    await b.untrack();
    const [left] = await leaves.next(1);
    expect(left!.key).toBe("bob");
  });

  it("carries binary broadcast payloads between vsn 2.0.0 clients", async () => {
    const topic = `bin-${Math.random().toString(36).slice(2)}`;
    const heard = collector<{ event: string; payload: unknown }>();
    const rx = (await rtClient()).channel(topic).on("broadcast", { event: "bytes" }, (m) => heard.push(m as never));
    const tx = (await rtClient()).channel(topic);
    await Promise.all([subscribed(rx, false), subscribed(tx, false)]);
    await tx.send({ type: "broadcast", event: "bytes", payload: new Uint8Array([1, 2, 255]).buffer });
    const [m] = await heard.next(1);
    expect(new Uint8Array(m!.payload as ArrayBuffer)).toEqual(new Uint8Array([1, 2, 255]));
  });

  it("removes a client's presence when it leaves or disconnects", async () => {
    const topic = `bye-${Math.random().toString(36).slice(2)}`;
    const leaves = collector<{ key: string }>();
    const watcher = (await rtClient()).channel(topic, { config: { presence: { key: "watcher" } } })
      .on("presence", { event: "leave" }, (p) => leaves.push(p as never));
    await subscribed(watcher, false);
    const goneClient = await rtClient();
    const gone = goneClient.channel(topic, { config: { presence: { key: "gone" } } }).on("presence", { event: "sync" }, () => {});
    await subscribed(gone, false);
    await gone.track({ here: true });
    const leaver = (await rtClient()).channel(topic, { config: { presence: { key: "leaver" } } }).on("presence", { event: "sync" }, () => {});
    await subscribed(leaver, false);
    await leaver.track({ here: true });
    expect(await leaver.unsubscribe()).toBe("ok");
    await leaves.next(1);
    goneClient.realtime.disconnect();
    await leaves.next(2);
    expect(leaves.items.map((l) => l.key).sort()).toEqual(["gone", "leaver"]);
  });

  it("delivers POST /realtime/v1/api/broadcast and httpSend to subscribers", async () => {
    const s = stackInfo();
    const topic = `rest-${Math.random().toString(36).slice(2)}`;
    const heard = collector<{ event: string; payload: unknown }>();
    const client = (await rtClient());
    const ch = client.channel(topic).on("broadcast", { event: "*" }, (m) => heard.push(m as never));
    await subscribed(ch, false);
    const res = await fetch(`${s.apiUrl}/realtime/v1/api/broadcast`, {
      method: "POST",
      headers: { apikey: s.anonKey, "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ topic, event: "from-rest", payload: { ok: true } }] }),
    });
    expect(res.status).toBe(202);
    const [m] = await heard.next(1);
    expect(m).toMatchObject({ event: "from-rest", payload: { ok: true } });
    await expect(client.channel(topic).httpSend("via-http-send", { x: 1 })).resolves.toEqual({ success: true });
    await heard.next(2);
    expect(heard.items[1]).toMatchObject({ event: "via-http-send", payload: { x: 1 } });

    const bad = await fetch(`${s.apiUrl}/realtime/v1/api/broadcast`, { method: "POST", headers: { apikey: s.anonKey }, body: "{nope" });
    expect(bad.status).toBe(400);
    const noKey = await fetch(`${s.apiUrl}/realtime/v1/api/broadcast`, { method: "POST", body: JSON.stringify({ messages: [] }) });
    expect(noKey.status).toBe(401);
  });

  it("broadcasts sent from SQL with realtime.send reach subscribers", async () => {
    const topic = `sql-${Math.random().toString(36).slice(2)}`;
    const heard = collector<{ event: string; payload: unknown }>();
    const ch = (await rtClient()).channel(topic).on("broadcast", { event: "db" }, (m) => heard.push(m as never));
    await subscribed(ch, false);
    await sql("select realtime.send($1::jsonb, 'db', $2, false)", [JSON.stringify({ from: "sql" }), topic]);
    const [m] = await heard.next(1);
    expect(m).toMatchObject({ event: "db", payload: { from: "sql" } });
  });
});

describe("private channels and tokens", () => {
  it("authorises private channels by RLS on realtime.messages", async () => {
    const user = await createUser();
    const token = await mintUserToken(user);
    const allowedTopic = `allowed:${user}`;
    const heard = collector<{ event: string; payload: unknown }>();
    const a = (await rtClient(token)).channel(allowedTopic, { config: { private: true } }).on("broadcast", { event: "x" }, (m) => heard.push(m as never));
    const b = (await rtClient(token)).channel(allowedTopic, { config: { private: true, broadcast: { ack: true } } });
    await Promise.all([subscribed(a, false), subscribed(b, false)]);
    expect(await b.send({ type: "broadcast", event: "x", payload: { secret: 1 } })).toBe("ok");
    await heard.next(1);
    expect(heard.items[0]).toMatchObject({ payload: { secret: 1 } });

    // a public channel of the same name does not hear private messages
    const pub = collector<unknown>();
    const p = (await rtClient(token)).channel(allowedTopic).on("broadcast", { event: "x" }, (m) => pub.push(m));
    await subscribed(p, false);

    const refused = (await rtClient(token)).channel(`denied:${user}`, { config: { private: true } });
    await expect(subscribed(refused, false)).rejects.toThrow(/do not have permissions to read/);
    const anon = (await rtClient()).channel(allowedTopic, { config: { private: true } });
    await expect(subscribed(anon, false)).rejects.toThrow(/do not have permissions/);

    // REST broadcast to a private topic: allowed for the user, dropped for anon
    const s = stackInfo();
    for (const [key, marker] of [[s.anonKey, "anon"], [token, "user"]] as const) {
      const res = await fetch(`${s.apiUrl}/realtime/v1/api/broadcast`, {
        method: "POST",
        headers: { apikey: s.anonKey, authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ messages: [{ topic: allowedTopic, event: "x", payload: { marker }, private: true }] }),
      });
      expect(res.status).toBe(202);
    }
    await heard.next(2);
    expect(heard.items[1]).toMatchObject({ payload: { marker: "user" } });
    expect(pub.items).toEqual([]);
  });

  it("closes a channel when its token expires while joined", async () => {
    const user = await createUser();
    const ch = (await rtClient(await mintUserToken(user, {}, 4))).channel(`expiring-${user}`);
    const closed = new Promise<{ extension: string; message: string }>((resolve) =>
      ch.on("system", {}, (m: { status: string; extension: string; message: string }) => m.status === "error" && resolve(m)));
    await subscribed(ch, false);
    const msg = await closed;
    expect(msg.extension).toBe("system");
    expect(msg.message).toMatch(/Token has expired/);
  });

  it("rejects an expired token at join", async () => {
    const user = await createUser();
    const expired = await mintUserToken(user, {}, -60);
    const ch = (await rtClient(expired)).channel(`exp-${user}`);
    await expect(subscribed(ch, false)).rejects.toThrow(/Token has expired/);
  });

  it("switches claims with setAuth (access_token push) and closes the channel on an expired one", async () => {
    const alice = await createUser();
    const bob = await createUser();
    const aliceBook = await notebook(alice);
    const bobBook = await notebook(bob);
    const got = collector<Change>();
    const sys = collector<{ status: string; message: string; extension: string }>();
    const c = await rtClient(await mintUserToken(bob));
    const books = `notebook_id=in.(${aliceBook},${bobBook})`;
    const ch = c.channel(`refresh-${bob}`)
      .on("postgres_changes", { event: "INSERT", schema: "public", table: "notes", filter: books }, (p) => got.push(p as unknown as Change))
      .on("system", {}, (m) => sys.push(m as never));
    await subscribed(ch);
    await note(aliceBook, "not for bob");
    await note(bobBook, "bob's own");
    // changes are delivered in commit order, so once bob's own note is here alice's was judged
    await got.next(1);
    expect(got.items.map((x) => x.new.body)).toEqual(["bob's own"]);

    // swap bob's token for alice's: the same channel now sees alice's notes, not bob's
    await c.realtime.setAuth(await mintUserToken(alice));
    // a join on the same socket is answered after the access_token push was read
    const probe = c.channel(`probe-${bob}`);
    await subscribed(probe, false);
    await note(bobBook, "bob again");
    await note(aliceBook, "for alice");
    await got.next(2);
    expect(got.items.map((x) => x.new.body)).toEqual(["bob's own", "for alice"]);

    const closed = new Promise<void>((resolve) => ch.on("system", {}, (m: { status: string }) => m.status === "error" && resolve()));
    await c.realtime.setAuth(await mintUserToken(alice, {}, -10));
    await closed;
    const err = sys.items.find((m) => m.status === "error")!;
    expect(err.extension).toBe("system");
    expect(err.message).toMatch(/Token has expired/);
  });
});

describe("retention", () => {
  it("keeps realtime.messages in daily partitions as Supabase does: today's and the next days' exist, those older than three days are dropped", async () => {
    const day = (offset: number) => {
      const d = new Date();
      d.setUTCDate(d.getUTCDate() + offset);
      return d.toISOString().slice(0, 10);
    };
    const part = (date: string) => `messages_${date.replaceAll("-", "_")}`;
    // partitions left from earlier days, as a long-running project has them
    for (const offset of [-5, -1]) {
      await sql(`create table if not exists realtime.${part(day(offset))} partition of realtime.messages for values from ('${day(offset)}') to ('${day(offset + 1)}')`);
    }
    const topic = `retention-${Date.now()}`;
    await sql(
      `insert into realtime.messages (topic, extension, private, payload, event, inserted_at)
       values ($1, 'broadcast', true, '{}', 'old', now() - interval '5 days'), ($1, 'broadcast', true, '{}', 'new', now() - interval '1 day')`,
      [topic],
    );
    const client = new pg.Client({ connectionString: stackInfo().dbUrl });
    await client.connect();
    try {
      await manageRealtimePartitions(client);
    } finally {
      await client.end();
    }
    const parts = (await sql<{ relname: string }>(
      "select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'realtime.messages'::regclass",
    )).map((r) => r.relname);
    expect(parts).not.toContain(part(day(-5)));
    for (const offset of [-1, 0, 1, 2, 3]) expect(parts).toContain(part(day(offset)));
    expect((await sql<{ event: string }>("select event from realtime.messages where topic = $1", [topic])).map((r) => r.event)).toEqual(["new"]);
    // a row for a day without a partition is refused, as on hosted Supabase
    await expect(sql("insert into realtime.messages (topic, extension, inserted_at) values ('x', 'broadcast', now() + interval '30 days')"))
      .rejects.toMatchObject({ message: expect.stringMatching(/no partition/) });
  });

  it("realtime.send adds the message id to the payload and sets realtime.topic for the rest of the transaction", async () => {
    const topic = `send-${Date.now()}`;
    const client = new pg.Client({ connectionString: stackInfo().dbUrl });
    await client.connect();
    try {
      await client.query("begin");
      await client.query(`select realtime.send('{"a": 1}', 'e', $1, false)`, [topic]);
      const row = (await client.query("select realtime.topic() as topic, m.payload, m.id from realtime.messages m where m.topic = $1", [topic])).rows[0];
      expect(row).toMatchObject({ topic, payload: { a: 1 } });
      expect(row.payload.id).toBe(row.id);
      // a payload with its own id keeps it
      await client.query(`select realtime.send('{"id": "mine"}', 'e', $1, false)`, [`${topic}-own`]);
      expect((await client.query("select payload from realtime.messages where topic = $1", [`${topic}-own`])).rows[0].payload.id).toBe("mine");
      await client.query("commit");
    } finally {
      await client.end();
    }
  });
});

describe("robustness", () => {
  function rawSocket(vsn = "1.0.0"): Promise<ws> {
    const s = stackInfo();
    const url = `${s.apiUrl.replace(/^http/, "ws")}/realtime/v1/websocket?apikey=${s.anonKey}&vsn=${vsn}`;
    return new Promise((resolve, reject) => {
      const sock = new ws(url);
      sock.once("open", () => resolve(sock));
      sock.once("error", reject);
    });
  }

  function nextMessage(sock: ws): Promise<Record<string, unknown>> {
    return new Promise((resolve) => sock.once("message", (d) => resolve(JSON.parse(d.toString()))));
  }

  it("ignores malformed frames and keeps serving the socket", async () => {
    const sock = await rawSocket();
    for (const junk of ["not json", "[1,2]", "{}", '{"topic":1}', "null", '{"topic":"x","event":"y","payload":5}']) sock.send(junk);
    sock.send(Buffer.from([9, 9, 9]));
    sock.send(Buffer.from([3, 200, 0, 0, 0, 0, 1]));
    const reply = nextMessage(sock);
    sock.send(JSON.stringify({ topic: "phoenix", event: "heartbeat", payload: {}, ref: "7" }));
    expect(await reply).toMatchObject({ topic: "phoenix", event: "phx_reply", ref: "7", payload: { status: "ok" } });
    const unmatched = nextMessage(sock);
    sock.send(JSON.stringify({ topic: "realtime:nobody", event: "broadcast", payload: {}, ref: "8" }));
    expect(await unmatched).toMatchObject({ event: "phx_reply", payload: { status: "error", response: { reason: "unmatched topic" } } });
    sock.close();
  });

  it("closes a socket that sends an oversized frame or floods, and the server stays up", async () => {
    const big = await rawSocket();
    const closedBig = new Promise<number>((resolve) => big.once("close", (code) => resolve(code)));
    big.send("x".repeat(2 * 1024 * 1024));
    expect(await closedBig).toBe(1009);

    const flood = await rawSocket("2.0.0");
    const closedFlood = new Promise<[number, string]>((resolve) => flood.once("close", (code, reason) => resolve([code, reason.toString()])));
    for (let i = 0; i < 300; i++) flood.send(JSON.stringify([null, String(i), "phoenix", "heartbeat", {}]));
    const [code, reason] = await closedFlood;
    expect(code).toBe(1008);
    expect(reason).toMatch(/Too many messages/);

    const ok = await rawSocket("2.0.0");
    const reply = new Promise<unknown[]>((resolve) => ok.once("message", (d) => resolve(JSON.parse(d.toString()))));
    ok.send(JSON.stringify([null, "1", "phoenix", "heartbeat", {}]));
    expect(await reply).toEqual([null, "1", "phoenix", "phx_reply", { status: "ok", response: {} }]);
    ok.close();
  });

  it("limits channels per socket and answers join errors as Supabase does", async () => {
    const sock = await rawSocket();
    const replies = new Map<string, Record<string, unknown>>();
    const waiters = new Map<string, (v: Record<string, unknown>) => void>();
    sock.on("message", (d) => {
      const m = JSON.parse(d.toString()) as { ref: string; event: string; payload: Record<string, unknown> };
      if (m.event !== "phx_reply") return;
      replies.set(m.ref, m.payload);
      waiters.get(m.ref)?.(m.payload);
    });
    const join = (ref: string, topic: string) => {
      const p = new Promise<Record<string, unknown>>((resolve) => (replies.has(ref) ? resolve(replies.get(ref)!) : waiters.set(ref, resolve)));
      sock.send(JSON.stringify({ topic, event: "phx_join", ref, join_ref: ref, payload: { config: {} } }));
      return p;
    };
    expect(await join("t0", "realtime:")).toMatchObject({ status: "error", response: { reason: "TopicNameRequired: You must provide a topic name" } });
    expect(await join("t1", "elsewhere")).toMatchObject({ status: "error", response: { reason: "unmatched topic" } });
    const joins: Promise<Record<string, unknown>>[] = [];
    for (let i = 0; i < 98; i++) joins.push(join(`j${i}`, `realtime:many-${i}`));
    const results = await Promise.all(joins);
    expect(results.every((r) => r.status === "ok")).toBe(true);
    await new Promise((r) => setTimeout(r, 1100)); // stay under the per-second message limit
    expect(await join("j98", "realtime:many-98")).toMatchObject({ status: "ok" });
    expect(await join("j99", "realtime:many-99")).toMatchObject({ status: "ok" });
    expect(await join("j100", "realtime:many-100")).toMatchObject({ status: "error", response: { reason: "ChannelRateLimitReached: Too many channels" } });
    sock.close();
  });

  it("speaks the wire format: join reply ids, system message, postgres_changes payload (vsn 2.0.0 arrays)", async () => {
    const owner = await createUser();
    const book = await notebook(owner);
    const sock = await rawSocket("2.0.0");
    const frames: unknown[][] = [];
    const waiters: { test: (f: unknown[]) => boolean; resolve: (f: unknown[]) => void }[] = [];
    sock.on("message", (d) => {
      const f = JSON.parse(d.toString()) as unknown[];
      frames.push(f);
      for (const w of [...waiters]) if (w.test(f)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(f); }
    });
    const waitFor = (test: (f: unknown[]) => boolean) =>
      new Promise<unknown[]>((resolve) => { const hit = frames.find(test); if (hit) resolve(hit); else waiters.push({ test, resolve }); });
    const topic = `realtime:wire-${owner}`;
    const binding = { event: "INSERT", schema: "public", table: "notes", filter: `notebook_id=eq.${book}` };
    sock.send(JSON.stringify(["1", "1", topic, "phx_join", { config: { postgres_changes: [binding] }, access_token: await mintUserToken(owner) }]));
    const reply = await waitFor((f) => f[3] === "phx_reply" && f[1] === "1");
    expect(reply.slice(0, 4)).toEqual(["1", "1", topic, "phx_reply"]);
    const response = (reply[4] as { status: string; response: { postgres_changes: Record<string, unknown>[] } });
    expect(response.status).toBe("ok");
    expect(response.response.postgres_changes).toHaveLength(1);
    const { id, ...echoed } = response.response.postgres_changes[0]!;
    expect(echoed).toEqual(binding);
    expect(typeof id).toBe("number");
    const system = await waitFor((f) => f[3] === "system");
    expect(system[4]).toEqual({ extension: "postgres_changes", status: "ok", message: "Subscribed to PostgreSQL", channel: `wire-${owner}` });
    const noteId = await note(book, "wire", 5);
    const change = await waitFor((f) => f[3] === "postgres_changes");
    expect(change.slice(0, 3)).toEqual(["1", null, topic]);
    const payload = change[4] as { ids: number[]; data: Record<string, unknown> };
    expect(payload.ids).toEqual([id]);
    expect(Object.keys(payload.data).sort()).toEqual(["columns", "commit_timestamp", "errors", "record", "schema", "table", "type"]);
    expect(payload.data).toMatchObject({ schema: "public", table: "notes", type: "INSERT", errors: null, record: { id: noteId, notebook_id: book, body: "wire", stars: 5 } });
    expect(payload.data.commit_timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(payload.data.columns).toEqual([
      { name: "id", type: "int8" }, { name: "notebook_id", type: "int8" }, { name: "body", type: "text" },
      { name: "stars", type: "int4" }, { name: "created_at", type: "timestamptz" },
    ]);
    sock.send(JSON.stringify(["1", "2", topic, "phx_leave", {}]));
    expect((await waitFor((f) => f[1] === "2"))[4]).toEqual({ status: "ok", response: {} });
    sock.close();
  });

  it("checks many distinct users per change and delivers only to those RLS allows", async () => {
    const users = await Promise.all(Array.from({ length: 45 }, () => createUser()));
    const books = await Promise.all(users.map((u) => notebook(u)));
    const shared = await notebook(users[0]!, true);
    const sock = await rawSocket();
    const got = new Map<string, number[]>(); // topic -> note ids
    let notify = () => {};
    sock.on("message", (d) => {
      const m = JSON.parse(d.toString()) as { topic: string; event: string; payload: { data?: { record: { id: number } } } };
      if (m.event !== "postgres_changes") return;
      got.set(m.topic, [...(got.get(m.topic) ?? []), m.payload.data!.record.id]);
      notify();
    });
    const ready = new Promise<void>((resolve) => {
      let n = 0;
      sock.on("message", (d) => {
        const m = JSON.parse(d.toString()) as { event: string; payload: { status?: string; extension?: string } };
        if (m.event === "system" && m.payload.extension === "postgres_changes" && m.payload.status === "ok" && ++n === users.length) resolve();
      });
    });
    for (let i = 0; i < users.length; i++) {
      sock.send(JSON.stringify({
        topic: `realtime:many-users-${i}`, event: "phx_join", ref: String(i), join_ref: String(i),
        payload: { access_token: await mintUserToken(users[i]!), config: { postgres_changes: [{ event: "INSERT", schema: "public", table: "notes", filter: `notebook_id=in.(${[...books, shared].join(",")})` }] } },
      }));
    }
    await ready;
    const k = 37;
    const privateNote = await note(books[k]!, "only for one");
    const publicNote = await note(shared, "for everyone");
    await new Promise<void>((resolve) => {
      notify = () => { if (users.every((_, i) => got.get(`realtime:many-users-${i}`)?.includes(publicNote))) resolve(); };
      notify();
    });
    for (let i = 0; i < users.length; i++) {
      const ids = got.get(`realtime:many-users-${i}`)!;
      expect(ids).toEqual(i === k ? [privateNote, publicNote] : [publicNote]);
    }
    sock.close();
  });

  it("refuses sockets without a valid apikey", async () => {
    const s = stackInfo();
    const url = `${s.apiUrl.replace(/^http/, "ws")}/realtime/v1/websocket?apikey=nope&vsn=1.0.0`;
    const status = await new Promise<number>((resolve) => {
      const sock = new ws(url);
      sock.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      sock.on("error", () => {});
    });
    expect(status).toBe(403);
  });

  it("service role sees every row", async () => {
    const owner = await createUser();
    const book = await notebook(owner);
    const got = collector<Change>();
    const ch = serviceRt().channel(`svc-${owner}`)
      .on("postgres_changes", { event: "INSERT", schema: "public", table: "notes", filter: `notebook_id=eq.${book}` }, (p) => got.push(p as unknown as Change));
    await subscribed(ch);
    const id = await note(book, "svc");
    const [c] = await got.next(1);
    expect(c!.new.id).toBe(id);
  });
});
