// postgres_changes: matches committed WAL changes against channel bindings
// (schema, table, event, filter), converts values as Supabase does (to_jsonb of the
// typed value), asks Postgres which subscribers' role and claims may SELECT the
// row (one call per change, subscribers with identical claims batched), and sends
// Supabase's payload shape to each channel.
import type { Db } from "../db.ts";
import type { Claims } from "../keys.ts";
import type { Logger } from "../log.ts";
import { matches, parseFilter, type Condition } from "./filters.ts";
import type { WalChange, WalRelation } from "./wal.ts";

export type PgEvent = "INSERT" | "UPDATE" | "DELETE" | "*";

export interface ChangeSink {
  readonly claims: Claims;
  readonly alive: boolean;
  /** `data` is the change's JSON, serialised once for all subscribers. */
  sendChange(ids: number[], data: string): void;
}

export interface PgBinding {
  id: number;
  event: PgEvent;
  schema: string;
  table: string | null;
  filter: string | null;
  conditions: Condition[];
  sink: ChangeSink;
}

interface TypeInfo {
  name: string;
  /** The type itself, or a domain's base type: what decides the JSON form. */
  base: number;
  category: string;
  format: string;
}

interface RelationInfo {
  rel: WalRelation;
  pk: string[];
  pkTypes: string[];
  rls: boolean;
}

const NUMERIC = new Set([20, 21, 23, 26, 700, 701, 1700]);
/** Claim sets from which the RLS check is split over parallel database calls, and how many. */
const PARALLEL_FROM = 40;
const PARALLEL_CALLS = 2;

/** Supabase's phash2-style id for a binding: a stable 32-bit hash of its params. */
export function bindingId(params: Record<string, unknown>): number {
  const s = JSON.stringify(params, Object.keys(params).sort());
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % 134217728; // phash2's default range is 2^27
}

export function parseBinding(raw: unknown): { event: PgEvent; schema: string; table: string | null; filter: string | null; conditions: Condition[] } {
  if (!raw || typeof raw !== "object") throw new Error("each postgres_changes entry must be an object");
  const r = raw as Record<string, unknown>;
  const event = typeof r.event === "string" ? r.event.toUpperCase() : "";
  if (!["INSERT", "UPDATE", "DELETE", "*"].includes(event)) throw new Error(`invalid event "${String(r.event)}"`);
  if (typeof r.schema !== "string" || !r.schema) throw new Error("schema is required");
  if (r.table !== undefined && r.table !== null && typeof r.table !== "string") throw new Error("table must be a string");
  if (r.filter !== undefined && r.filter !== null && typeof r.filter !== "string") throw new Error("filter must be a string");
  const table = (r.table as string | undefined) || null;
  const filter = (r.filter as string | undefined) || null;
  return { event: event as PgEvent, schema: r.schema, table, filter, conditions: parseFilter(filter) };
}

export class ChangeDispatcher {
  private bindings = new Set<PgBinding>();
  private types = new Map<number, TypeInfo>();
  private relInfo = new Map<number, RelationInfo>();
  private queue: Promise<void> = Promise.resolve();
  private published = new Map<string, boolean>();
  available = false;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly onMessageRow: (row: Record<string, unknown>) => void,
  ) {}

  add(b: PgBinding) {
    this.bindings.add(b);
  }

  remove(b: PgBinding) {
    this.bindings.delete(b);
  }

  get count() {
    return this.bindings.size;
  }

  /** Whether a binding can ever receive changes (its table is in the publication). */
  async inPublication(schema: string, table: string | null): Promise<boolean> {
    const { rows } = await this.db.query<{ ok: boolean }>(
      `select exists (select 1 from pg_publication_tables where pubname = 'supabase_realtime'
        and ($1 = '*' or schemaname = $1) and ($2::text is null or $2 = '*' or tablename = $2)) as ok`,
      [schema, table],
    );
    return rows[0]?.ok ?? false;
  }

  /** Called by the WAL reader once per committed transaction; keeps commit order. */
  onCommit(changes: WalChange[]) {
    this.queue = this.queue.then(async () => {
      for (const change of changes) {
        try {
          await this.process(change);
        } catch (e) {
          this.log.warn("could not deliver a change", { table: `${change.relation.schema}.${change.relation.table}`, error: (e as Error).message });
        }
      }
    });
  }

  /** Resolves once every change received so far has been delivered (tests, stop). */
  drain() {
    return this.queue;
  }

  private async typeInfo(oids: number[]): Promise<void> {
    const missing = [...new Set(oids)].filter((o) => !this.types.has(o));
    if (!missing.length) return;
    const { rows } = await this.db.query<{ oid: number; base: number; typname: string; typcategory: string; fmt: string }>(
      `select oid::int as oid, (case when typtype = 'd' then typbasetype else oid end)::int as base,
              typname, typcategory, format_type(oid, null) as fmt
         from pg_type where oid = any($1::oid[])`,
      [missing],
    );
    for (const r of rows) this.types.set(r.oid, { name: r.typname, base: r.base, category: r.typcategory, format: r.fmt });
  }

  private async relationInfo(rel: WalRelation): Promise<RelationInfo> {
    const cached = this.relInfo.get(rel.oid);
    if (cached && cached.rel === rel) return cached;
    const { rows } = await this.db.query<{ rls: boolean; pk: string[] | null; pk_types: string[] | null }>(
      `select c.relrowsecurity as rls,
              (select array_agg(a.attname::text order by k.ord) from pg_index i
                 cross join lateral unnest(i.indkey) with ordinality as k(attnum, ord)
                 join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
                where i.indrelid = c.oid and i.indisprimary) as pk,
              (select array_agg(format_type(a.atttypid, a.atttypmod) order by k.ord) from pg_index i
                 cross join lateral unnest(i.indkey) with ordinality as k(attnum, ord)
                 join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
                where i.indrelid = c.oid and i.indisprimary) as pk_types
         from pg_class c where c.oid = $1`,
      [rel.oid],
    );
    const info: RelationInfo = { rel, rls: rows[0]?.rls ?? true, pk: rows[0]?.pk ?? [], pkTypes: rows[0]?.pk_types ?? [] };
    this.relInfo.set(rel.oid, info);
    return info;
  }

  /** Converts a text tuple to Supabase's JSON record (to_jsonb of each typed value). */
  private async toRecord(rel: WalRelation, tuple: Record<string, string | null> | null, only?: string[]): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    if (!tuple) return out;
    const viaSql: { name: string; text: string; format: string }[] = [];
    for (const col of rel.columns) {
      if (only && !only.includes(col.name)) continue;
      const v = tuple[col.name];
      if (v === undefined) continue; // unchanged TOAST value: not in the WAL record
      if (v === null) {
        out[col.name] = null;
        continue;
      }
      const t = this.types.get(col.typeOid);
      const oid = t?.base ?? col.typeOid;
      if (oid === 16) out[col.name] = v === "t";
      else if (NUMERIC.has(oid)) {
        const n = Number(v);
        out[col.name] = Number.isFinite(n) ? n : v;
      } else if (oid === 114 || oid === 3802) out[col.name] = JSON.parse(v);
      else if (oid === 1184) out[col.name] = v.replace(" ", "T").replace(/([+-]\d\d)$/, "$1:00");
      else if (oid === 1114) out[col.name] = v.replace(" ", "T");
      else if (t && (t.category === "A" || t.category === "C" || t.category === "R")) viaSql.push({ name: col.name, text: v, format: t.format });
      else out[col.name] = v;
    }
    if (viaSql.length) {
      const sql = `select ${viaSql.map((c, i) => `to_jsonb($${i + 1}::text::${c.format}) as "c${i}"`).join(", ")}`;
      const { rows } = await this.db.query(sql, viaSql.map((c) => c.text));
      viaSql.forEach((c, i) => (out[c.name] = rows[0]?.[`c${i}`] ?? null));
    }
    return out;
  }

  private static binds(b: PgBinding, schema: string, table: string, type: WalChange["type"]): boolean {
    return b.sink.alive && (b.schema === "*" || b.schema === schema) && (!b.table || b.table === "*" || b.table === table) && (b.event === "*" || b.event === type);
  }

  /** Whether a binding would receive a change of this kind to this table (before its filter and RLS). */
  wants(schema: string, table: string, type: WalChange["type"]): boolean {
    for (const b of this.bindings) if (ChangeDispatcher.binds(b, schema, table, type)) return true;
    return false;
  }

  private interested(change: WalChange): PgBinding[] {
    const { schema, table } = change.relation;
    const out: PgBinding[] = [];
    for (const b of this.bindings) if (ChangeDispatcher.binds(b, schema, table, change.type)) out.push(b);
    return out;
  }

  private async process(change: WalChange) {
    const rel = change.relation;
    if (rel.schema === "realtime" && rel.table === "messages") {
      if (change.type === "INSERT" && change.new) this.onMessageRow(await this.toRecord(rel, change.new));
      return;
    }
    const candidates = this.interested(change);
    if (candidates.length === 0) return;
    await this.typeInfo(rel.columns.map((c) => c.typeOid));
    const info = await this.relationInfo(rel);
    if (info.pk.length === 0) {
      // Without a primary key no row can be checked against RLS: Supabase sends only the
      // change's kind with an error, never the row.
      const data = JSON.stringify({ schema: rel.schema, table: rel.table, type: change.type, errors: ["Error 400: Bad Request, no primary key"] });
      this.sendToSinks(candidates, data);
      return;
    }

    let record: Record<string, unknown> | undefined;
    let oldRecord: Record<string, unknown> | undefined;
    if (change.type !== "DELETE") record = await this.toRecord(rel, change.new);
    if (change.type === "UPDATE") {
      // Without REPLICA IDENTITY FULL the old row is its primary key (unchanged keys are not in the WAL).
      oldRecord = change.old ? await this.toRecord(rel, change.old) : change.key ? await this.toRecord(rel, change.key, info.pk) : await this.toRecord(rel, change.new, info.pk);
    }
    if (change.type === "DELETE") {
      // RLS is not applied to deletes, so with RLS on only the primary key is sent (as Supabase).
      oldRecord = await this.toRecord(rel, change.old ?? change.key, info.rls ? info.pk : undefined);
    }
    const filterOn = change.type === "DELETE" ? oldRecord! : record!;
    let matched = candidates.filter((b) => matches(b.conditions, filterOn));
    if (matched.length === 0) return;

    if (change.type === "DELETE") {
      // RLS does not apply to deletes, but the role still needs SELECT on the table.
      const roles = [...new Set(matched.map((b) => String(b.sink.claims.role ?? "anon")))];
      const { rows } = await this.db.query<{ role: string; ok: boolean }>(
        "select r as role, has_table_privilege(r, $1::oid, 'SELECT') as ok from unnest($2::text[]) as r",
        [rel.oid, roles],
      );
      const allowed = new Set(rows.filter((r) => r.ok).map((r) => r.role));
      matched = matched.filter((b) => allowed.has(String(b.sink.claims.role ?? "anon")));
      if (matched.length === 0) return;
    }

    if (change.type !== "DELETE" && change.new) {
      const groups = new Map<string, { role: string; claims: string; bindings: PgBinding[] }>();
      for (const b of matched) {
        const claims = JSON.stringify(b.sink.claims);
        const key = `${b.sink.claims.role}\u0000${claims}`;
        let g = groups.get(key);
        if (!g) groups.set(key, (g = { role: String(b.sink.claims.role ?? "anon"), claims, bindings: [] }));
        g.bindings.push(b);
      }
      // Same-role subscribers next to each other: the prepared plan is reused across them.
      const list = [...groups.values()].sort((x, y) => (x.role < y.role ? -1 : x.role > y.role ? 1 : 0));
      const t0 = performance.now();
      // Many distinct claim sets: split them over parallel calls so Postgres uses more than one core.
      const parts = list.length >= PARALLEL_FROM ? PARALLEL_CALLS : 1;
      const size = Math.ceil(list.length / parts);
      const keyVals = info.pk.map((c) => change.new![c] ?? null);
      const chunks = await Promise.all(
        Array.from({ length: parts }, async (_, p) => {
          const slice = list.slice(p * size, (p + 1) * size);
          if (slice.length === 0) return [];
          const { rows } = await this.db.query<{ visible: number[] }>(
            "select realtime.visible_to($1::oid::regclass, $2::text[], $3::text[], $4::text[], $5::jsonb, $6::bigint) as visible",
            [rel.oid, info.pk, info.pkTypes, keyVals, JSON.stringify(slice.map((g) => ({ role: g.role, claims: g.claims }))), change.xid],
          );
          return (rows[0]?.visible ?? []).map((i) => i + p * size);
        }),
      );
      const visible = new Set(chunks.flat());
      this.log.debug("visibility checked", { ms: Math.round(performance.now() - t0), groups: list.length, visible: visible.size, calls: parts });
      matched = list.flatMap((g, i) => (visible.has(i) ? g.bindings : []));
      if (matched.length === 0) return;
    }

    const columns = rel.columns.map((c) => ({ name: c.name, type: this.types.get(c.typeOid)?.name ?? String(c.typeOid) }));
    const data: Record<string, unknown> = {
      schema: rel.schema,
      table: rel.table,
      commit_timestamp: change.commitTime.toISOString(),
      type: change.type,
      columns,
      errors: null,
    };
    if (record) data.record = record;
    if (oldRecord) data.old_record = oldRecord;

    this.sendToSinks(matched, JSON.stringify(data));
  }

  /** One message per channel, listing the ids of its bindings that matched. */
  private sendToSinks(bindings: PgBinding[], json: string) {
    const bySink = new Map<ChangeSink, number[]>();
    for (const b of bindings) {
      const ids = bySink.get(b.sink) ?? [];
      if (!ids.includes(b.id)) ids.push(b.id);
      bySink.set(b.sink, ids);
    }
    for (const [sink, ids] of bySink) sink.sendChange(ids, json);
  }
}
