// The WAL reader on its own against the test database: it owns a temporary
// replication slot while running, which goes away on stop; without replication rights it declines
// (postgres_changes unavailable) instead of failing.
import { describe, expect, it } from "vitest";
import { createLogger } from "../src/log.ts";
import { WalReader, type WalChange } from "../src/realtime/wal.ts";
import { sql, stackInfo } from "./helpers.ts";

const quietLog = createLogger("realtime-wal-test", true);

async function slots(): Promise<{ slot_name: string; active: boolean }[]> {
  return sql("select slot_name, active from pg_replication_slots where slot_name like 'parley_realtime_%'");
}

describe("WAL reader", () => {
  it("reads committed changes with a slot of its own and drops the slot on stop", async () => {
    const before = new Set((await slots()).map((s) => s.slot_name));
    const seen: WalChange[][] = [];
    let notify: () => void = () => {};
    const reader = new WalReader(stackInfo().dbUrl, quietLog, (changes) => {
      seen.push(changes);
      notify();
    });
    expect(await reader.start()).toBe(true);
    const mine = (await slots()).filter((s) => !before.has(s.slot_name));
    expect(mine).toHaveLength(1);
    const slot = mine[0]!.slot_name;

    const owner = (await sql<{ id: string }>(
      "insert into auth.users (id, aud, role, email, created_at, updated_at) values (gen_random_uuid(), 'authenticated', 'authenticated', $1, now(), now()) returning id",
      [`wal${Date.now()}@example.test`],
    ))[0]!.id;
    const arrived = new Promise<void>((resolve) => (notify = () => {
      if (seen.some((tx) => tx.some((c) => c.relation.table === "rt_items" && c.new?.owner_id === owner))) resolve();
    }));
    await sql("insert into public.rt_items (owner_id, label, qty) values ($1, 'wal', 7)", [owner]);
    await arrived;
    const change = seen.flat().find((c) => c.relation.table === "rt_items" && c.new?.owner_id === owner)!;
    expect(change.type).toBe("INSERT");
    expect(change.new).toMatchObject({ label: "wal", qty: "7" }); // text, converted later
    expect(change.commitTime).toBeInstanceOf(Date);
    expect(change.xid).toBeGreaterThan(0);

    await reader.stop();
    // the temporary slot goes away with the replication connection's backend
    let gone = false;
    for (let i = 0; i < 100 && !gone; i++) {
      gone = !(await slots()).some((s) => s.slot_name === slot);
      if (!gone) await new Promise((r) => setTimeout(r, 100));
    }
    expect(gone).toBe(true);
  });

  it("does not decode the changes `wanted` turns down, and decodes them again once wanted", async () => {
    const seen: WalChange[] = [];
    let notify: () => void = () => {};
    let want = false;
    const reader = new WalReader(
      stackInfo().dbUrl,
      quietLog,
      (changes) => {
        seen.push(...changes);
        notify();
      },
      (rel) => rel.table !== "rt_items" || want,
    );
    expect(await reader.start()).toBe(true);
    try {
      const owner = (await sql<{ id: string }>(
        "insert into auth.users (id, aud, role, email, created_at, updated_at) values (gen_random_uuid(), 'authenticated', 'authenticated', $1, now(), now()) returning id",
        [`walskip${Date.now()}@example.test`],
      ))[0]!.id;
      const until = (found: () => boolean) =>
        new Promise<void>((resolve) => {
          notify = () => found() && resolve();
          notify();
        });
      // Not wanted; the marker row, committed after it, is behind it in the WAL.
      await sql("insert into public.rt_items (owner_id, label, qty) values ($1, 'skipped', 1)", [owner]);
      await sql("insert into public.rt_nokey (owner_id, secret) values ($1, 'marker')", [owner]);
      await until(() => seen.some((c) => c.relation.table === "rt_nokey" && c.new?.owner_id === owner));
      expect(seen.some((c) => c.relation.table === "rt_items" && c.new?.owner_id === owner)).toBe(false);

      want = true;
      await sql("insert into public.rt_items (owner_id, label, qty) values ($1, 'wanted', 2)", [owner]);
      await until(() => seen.some((c) => c.relation.table === "rt_items" && c.new?.owner_id === owner));
      const items = seen.filter((c) => c.relation.table === "rt_items" && c.new?.owner_id === owner);
      expect(items.map((c) => c.new)).toEqual([expect.objectContaining({ label: "wanted", qty: "2" })]);
    } finally {
      await reader.stop();
    }
  });

  it("declines, without throwing, when the role may not replicate", async () => {
    const role = `rt_norepl_${Date.now()}`;
    await sql(`create role ${role} login password 'pw' noreplication`);
    try {
      const url = new URL(stackInfo().dbUrl);
      url.username = role;
      url.password = "pw";
      const reader = new WalReader(url.toString(), quietLog, () => {});
      expect(await reader.start()).toBe(false);
      expect(reader.running).toBe(false);
      await reader.stop();
    } finally {
      await sql(`drop role ${role}`);
    }
  });
});
