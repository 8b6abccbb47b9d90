// Reads committed row changes from the write-ahead log over logical replication
// (pgoutput) for the supabase_realtime publication (and realtime.messages inserts),
// with a replication slot owned by this stack and dropped on stop. Values are kept
// as Postgres text so they can be converted the way Supabase converts them.
import crypto from "node:crypto";
import pg from "pg";
import { LogicalReplicationService, PgoutputPlugin } from "pg-logical-replication";
import type { Logger } from "../log.ts";

export interface WalColumn {
  name: string;
  typeOid: number;
  typeMod: number;
}

export interface WalRelation {
  oid: number;
  schema: string;
  table: string;
  columns: WalColumn[];
  keyColumns: string[];
  replicaIdentity: "default" | "nothing" | "full" | "index";
}

export interface WalChange {
  type: "INSERT" | "UPDATE" | "DELETE";
  relation: WalRelation;
  /** Column name -> text value (null for SQL NULL; undefined for an unchanged TOAST value). */
  new: Record<string, string | null> | null;
  old: Record<string, string | null> | null;
  key: Record<string, string | null> | null;
  commitTime: Date;
  /** The transaction's 32-bit id. */
  xid: number;
}

const SLOT_PREFIX = "parley_realtime_";
const PUBLICATIONS = ["supabase_realtime", "parley_realtime_messages"];

interface PgoutputRelation {
  relationOid: number;
  schema: string;
  name: string;
  replicaIdentity: WalRelation["replicaIdentity"];
  columns: { name: string; typeOid: number; typeMod: number; parser: (raw: unknown) => unknown }[];
  keyColumns: string[];
}

type PgoutputMessage =
  | { tag: "begin"; xid: number }
  | { tag: "commit"; commitTime: bigint }
  | ({ tag: "relation" } & PgoutputRelation)
  | { tag: "insert"; relation: PgoutputRelation; new: Record<string, string | null> }
  | { tag: "update"; relation: PgoutputRelation; key: Record<string, string | null> | null; old: Record<string, string | null> | null; new: Record<string, string | null> }
  | { tag: "delete"; relation: PgoutputRelation; key: Record<string, string | null> | null; old: Record<string, string | null> | null }
  | { tag: string };

const identity = (raw: unknown) => raw;

export class WalReader {
  private service?: LogicalReplicationService;
  private slot = SLOT_PREFIX + crypto.randomBytes(6).toString("hex");
  private pending: Omit<WalChange, "commitTime" | "xid">[] = [];
  private xid = 0;
  private relations = new Map<number, WalRelation>();
  private stopped = false;
  private retry?: NodeJS.Timeout;
  running = false;

  constructor(
    private readonly dbUrl: string,
    private readonly log: Logger,
    private readonly onCommit: (changes: WalChange[]) => void,
  ) {}

  /** Returns false (with a warning) when the server cannot do logical replication. */
  async start(): Promise<boolean> {
    const admin = new pg.Client({ connectionString: this.dbUrl });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ wal_level: string }>("select current_setting('wal_level') as wal_level");
      if (rows[0]?.wal_level !== "logical") {
        this.log.warn("postgres_changes not available: the server's wal_level is not 'logical' (set wal_level=logical and restart it); broadcast and presence still work", { wal_level: rows[0]?.wal_level });
        return false;
      }
      // Slots left by stacks that were killed: drop the ones nobody is reading.
      await admin.query(
        `select pg_drop_replication_slot(slot_name) from pg_replication_slots
          where slot_name like $1 and not active and database = current_database()`,
        [SLOT_PREFIX + "%"],
      ).catch((e) => this.log.debug("could not drop stale slots", { error: (e as Error).message }));
      await admin.query("select pg_create_logical_replication_slot($1, 'pgoutput')", [this.slot]);
    } catch (e) {
      this.log.warn("postgres_changes not available: could not create a logical replication slot", { error: (e as Error).message });
      return false;
    } finally {
      await admin.end().catch(() => {});
    }
    this.subscribe();
    this.running = true;
    return true;
  }

  private subscribe() {
    const url = new URL(this.dbUrl);
    const service = new LogicalReplicationService(
      {
        host: decodeURIComponent(url.hostname),
        port: Number(url.port || 5432),
        user: decodeURIComponent(url.username),
        password: decodeURIComponent(url.password),
        database: decodeURIComponent(url.pathname.slice(1)) || "postgres",
        // Text values in the format Supabase's to_jsonb() sees them.
        options: "-c TimeZone=UTC -c DateStyle=ISO -c extra_float_digits=1",
      },
      { acknowledge: { auto: true, timeoutSeconds: 10 }, flowControl: { enabled: false } },
    );
    this.service = service;
    service.on("data", (_lsn: string, msg: PgoutputMessage) => this.handle(msg));
    service.on("error", (e: Error) => {
      if (this.stopped) return;
      this.log.warn("replication stream error; reconnecting", { error: e.message });
      this.reconnect();
    });
    const plugin = new PgoutputPlugin({ protoVersion: 1, publicationNames: PUBLICATIONS });
    service.subscribe(plugin, this.slot).catch((e: Error) => {
      if (this.stopped) return;
      this.log.warn("replication stream ended; reconnecting", { error: e.message });
      this.reconnect();
    });
  }

  private reconnect() {
    if (this.stopped || this.retry) return;
    this.service?.stop().catch(() => {});
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (!this.stopped) this.subscribe();
    }, 1000);
  }

  private handle(msg: PgoutputMessage) {
    switch (msg.tag) {
      case "relation": {
        const r = msg as PgoutputRelation & { tag: "relation" };
        // Keep values as text: the pg type parsers would turn dates into Date objects.
        for (const c of r.columns) c.parser = identity;
        this.relations.set(r.relationOid, {
          oid: r.relationOid,
          schema: r.schema,
          table: r.name,
          columns: r.columns.map((c) => ({ name: c.name, typeOid: c.typeOid, typeMod: c.typeMod })),
          keyColumns: r.keyColumns,
          replicaIdentity: r.replicaIdentity,
        });
        return;
      }
      case "begin":
        this.pending = [];
        this.xid = (msg as { xid: number }).xid;
        return;
      case "insert":
      case "update":
      case "delete": {
        const m = msg as { tag: string; relation: PgoutputRelation; new?: Record<string, string | null>; old?: Record<string, string | null> | null; key?: Record<string, string | null> | null };
        const relation = this.relations.get(m.relation.relationOid);
        if (!relation) return;
        this.pending.push({
          type: m.tag.toUpperCase() as WalChange["type"],
          relation,
          new: m.new ?? null,
          old: m.old ?? null,
          key: m.key ?? null,
        });
        return;
      }
      case "commit": {
        const commitTime = new Date(Number((msg as { commitTime: bigint }).commitTime / 1000n));
        const xid = this.xid;
        const changes = this.pending.map((c) => ({ ...c, commitTime, xid }));
        this.pending = [];
        if (changes.length) this.onCommit(changes);
        return;
      }
    }
  }

  async stop() {
    this.stopped = true;
    this.running = false;
    if (this.retry) clearTimeout(this.retry);
    await this.service?.stop().catch(() => {});
    // The slot is only droppable once the walsender has let go of it.
    const admin = new pg.Client({ connectionString: this.dbUrl });
    try {
      await admin.connect();
      for (let i = 0; i < 20; i++) {
        const { rows } = await admin.query<{ active: boolean }>("select active from pg_replication_slots where slot_name = $1", [this.slot]);
        if (!rows[0]) break;
        if (!rows[0].active) {
          await admin.query("select pg_drop_replication_slot($1)", [this.slot]);
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    } catch (e) {
      this.log.debug("could not drop the replication slot", { error: (e as Error).message });
    } finally {
      await admin.end().catch(() => {});
    }
  }
}
