// Private channel authorisation, decided by RLS on realtime.messages the way
// Supabase Realtime does it: in a transaction that is always rolled back, with the
// caller's role, claims and realtime.topic set; SELECT of a probe row = may
// receive, INSERT of a row = may send.
import type { Db } from "../db.ts";
import type { Claims } from "../keys.ts";

export interface ReadPolicies {
  broadcast: boolean;
  presence: boolean;
}

async function asCallerRolledBack<T>(db: Db, claims: Claims, topic: string, fn: (c: import("pg").PoolClient) => Promise<T>, before?: (c: import("pg").PoolClient) => Promise<void>): Promise<T> {
  const client = await db.pool.connect();
  try {
    await client.query("begin");
    if (before) await before(client);
    await client.query(
      "select set_config('role', $1, true), set_config('request.jwt.claims', $2, true), set_config('realtime.topic', $3, true)",
      [claims.role ?? "anon", JSON.stringify(claims), topic],
    );
    return await fn(client);
  } finally {
    await client.query("rollback").catch(() => {});
    client.release();
  }
}

export async function readPolicies(db: Db, claims: Claims, topic: string): Promise<ReadPolicies> {
  let ids: { id: string; extension: string }[] = [];
  try {
    return await asCallerRolledBack(
      db, claims, topic,
      async (c) => {
        const { rows } = await c.query<{ extension: string }>(
          "select extension from realtime.messages where id = any($1::uuid[])",
          [ids.map((r) => r.id)],
        );
        const seen = new Set(rows.map((r) => r.extension));
        return { broadcast: seen.has("broadcast"), presence: seen.has("presence") };
      },
      async (c) => {
        const { rows } = await c.query<{ id: string; extension: string }>(
          `insert into realtime.messages (topic, extension, private, payload, event)
           values ($1, 'broadcast', true, '{}', 'authorization_check'), ($1, 'presence', true, '{}', 'authorization_check')
           returning id, extension`,
          [topic],
        );
        ids = rows;
      },
    );
  } catch {
    return { broadcast: false, presence: false };
  }
}

export async function mayWrite(db: Db, claims: Claims, topic: string, extension: "broadcast" | "presence"): Promise<boolean> {
  try {
    return await asCallerRolledBack(db, claims, topic, async (c) => {
      await c.query(
        "insert into realtime.messages (topic, extension, private, payload, event) values ($1, $2, true, '{}', 'authorization_check')",
        [topic, extension],
      );
      return true;
    });
  } catch {
    return false;
  }
}
