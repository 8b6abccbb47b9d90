// Reads committed row changes from the write-ahead log over logical replication
// (pgoutput) for the supabase_realtime publication (and realtime.messages inserts).
// The slot is TEMPORARY, created on the replication connection itself, so Postgres
// drops it when the stack stops or dies: no slot is ever left holding WAL back.
// Values are kept as Postgres text so they can be converted the way Supabase does.
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

const CHANGE_TAGS: Record<number, WalChange["type"]> = { 0x49: "INSERT", 0x55: "UPDATE", 0x44: "DELETE" };
const SKIPPED = { tag: "skipped" } as const;

/**
 * pgoutput, creating its temporary slot on the replication connection before streaming. A row
 * change (insert, update, delete: the tag byte, then the relation's oid) that `skip` says nobody
 * can receive is not decoded at all: the tuple's text values are most of a message's work.
 */
class TemporarySlotPlugin extends PgoutputPlugin {
  constructor(
    options: ConstructorParameters<typeof PgoutputPlugin>[0],
    private readonly onSlot: (error?: Error) => void,
    private readonly skip: (relationOid: number, type: WalChange["type"]) => boolean,
  ) {
    super(options);
  }

  override parse(buffer: Buffer) {
    const type = CHANGE_TAGS[buffer[0]!];
    // Not a pgoutput message: handle() ignores every tag it does not know.
    if (type && buffer.length >= 5 && this.skip(buffer.readUInt32BE(1), type)) return SKIPPED as unknown as ReturnType<PgoutputPlugin["parse"]>;
    return super.parse(buffer);
  }

  override async start(client: pg.Client, slotName: string, lastLsn: string) {
    try {
      await client.query(`CREATE_REPLICATION_SLOT "${slotName}" TEMPORARY LOGICAL pgoutput`);
    } catch (e) {
      this.onSlot(e as Error);
      throw e;
    }
    this.onSlot();
    return super.start(client, slotName, lastLsn);
  }
}

export class WalReader {
  private service?: LogicalReplicationService;
  private slot = SLOT_PREFIX + crypto.randomBytes(6).toString("hex");
  private pending: Omit<WalChange, "commitTime" | "xid">[] = [];
  private xid = 0;
  private relations = new Map<number, WalRelation>();
  private stopped = false;
  private retry?: NodeJS.Timeout;
  running = false;

  /**
   * `wanted` (default: every change) says whether anyone could receive a change of this kind to
   * this relation now; the others are not decoded. Asked when the change arrives, which is after
   * its commit: whoever subscribes later was not subscribed when it was committed.
   */
  constructor(
    private readonly dbUrl: string,
    private readonly log: Logger,
    private readonly onCommit: (changes: WalChange[]) => void,
    private readonly wanted: (relation: WalRelation, type: WalChange["type"]) => boolean = () => true,
  ) {}

  private skip(relationOid: number, type: WalChange["type"]): boolean {
    const relation = this.relations.get(relationOid);
    return relation !== undefined && !this.wanted(relation, type);
  }

  /** Returns false (with a warning) when the server cannot do logical replication. */
  async start(): Promise<boolean> {
    const admin = new pg.Client({ connectionString: this.dbUrl });
    try {
      await admin.connect();
      const { rows } = await admin.query<{ wal_level: string }>("select current_setting('wal_level') as wal_level");
      if (rows[0]?.wal_level !== "logical") {
        this.log.warn("postgres_changes not available: the server's wal_level is not 'logical' (set wal_level=logical and restart it); broadcast and presence still work", { wal_level: rows[0]?.wal_level });
        return false;
      }
    } catch (e) {
      this.log.warn("postgres_changes not available: could not read the server's wal_level", { error: (e as Error).message });
      return false;
    } finally {
      await admin.end().catch(() => {});
    }
    try {
      await this.subscribe();
    } catch (e) {
      this.log.warn("postgres_changes not available: could not start logical replication (the role needs REPLICATION and a free replication slot)", { error: (e as Error).message });
      await this.service?.stop().catch(() => {});
      return false;
    }
    this.running = true;
    return true;
  }

  /** Connects, creates the temporary slot and starts streaming; resolves once the slot exists. */
  private subscribe(): Promise<void> {
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
      // Not one acknowledgement per WAL message (a socket write here and a wake-up of the
      // walsender each, a dozen per chat message): the library's timer confirms the last position
      // once a second or so, and a keepalive that asks for a reply gets one at once. The slot is
      // temporary and never replayed, so it only lets Postgres recycle WAL a moment later.
      { acknowledge: { auto: false, timeoutSeconds: 1 }, flowControl: { enabled: false } },
    );
    this.service = service;
    this.relations.clear();
    return new Promise<void>((resolve, reject) => {
      let ready = false;
      const plugin = new TemporarySlotPlugin(
        { protoVersion: 1, publicationNames: PUBLICATIONS },
        (error) => {
          if (error) return reject(error);
          ready = true;
          resolve();
        },
        (oid, type) => this.skip(oid, type),
      );
      service.on("data", (_lsn: string, msg: PgoutputMessage) => this.handle(msg));
      service.on("heartbeat", (lsn: string, _time: number, shouldRespond: boolean) => {
        if (shouldRespond) void service.acknowledge(lsn);
      });
      service.on("error", (e: Error) => {
        if (!ready) return reject(e);
        if (this.stopped) return;
        this.log.warn("replication stream error; reconnecting", { error: e.message });
        this.reconnect();
      });
      service.subscribe(plugin, this.slot).catch((e: Error) => {
        if (!ready) return reject(e);
        if (this.stopped) return;
        this.log.warn("replication stream ended; reconnecting", { error: e.message });
        this.reconnect();
      });
    });
  }

  private reconnect() {
    if (this.stopped || this.retry) return;
    void this.service?.stop().catch(() => {});
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (this.stopped) return;
      // Changes committed while disconnected are not replayed (a new temporary slot starts now).
      this.subscribe().catch((e: Error) => {
        this.log.warn("could not restart logical replication; retrying", { error: e.message });
        this.reconnect();
      });
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
    // Ending the replication connection drops the temporary slot.
    await this.service?.stop().catch(() => {});
  }
}
