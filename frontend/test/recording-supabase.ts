// A recording stand-in for the Supabase query builder, shared by screen tests: every builder
// method is recorded as "name args" (objects as JSON) and chains; awaiting it (or single /
// maybeSingle) answers from the rows a test sets per table.
export interface Call { table: string; ops: string[] }
export type Rows = unknown[] | Record<string, unknown> | null;

export function recordingDb(onReset?: () => void) {
  const db = {
    calls: [] as Call[],
    tables: {} as Record<string, (call: Call) => Rows>,
    reset(): void {
      db.calls = [];
      db.tables = {};
      onReset?.();
    },
    /** The calls that wrote to a table (insert, update, upsert, delete). */
    writes(table: string): Call[] {
      return db.calls.filter((c) => c.table === table && c.ops.some((o) => /^(insert|update|upsert|delete) /.test(o)));
    },
    from(table: string): object {
      const call: Call = { table, ops: [] };
      const answer = () => Promise.resolve().then(() => {
        db.calls.push(call);
        const data = db.tables[table]?.(call) ?? [];
        return { data, error: null, count: Array.isArray(data) ? data.length : null };
      });
      const one = () => answer().then((a) => ({ ...a, data: Array.isArray(a.data) ? (a.data[0] ?? null) : a.data }));
      const proxy: object = new Proxy({}, {
        get(_t, prop: string) {
          if (prop === "then") return (ok: (v: unknown) => unknown, ko: (e: unknown) => unknown) => answer().then(ok, ko);
          if (prop === "maybeSingle" || prop === "single") return one;
          return (...args: unknown[]) => {
            call.ops.push(`${prop} ${args.map((a) => (typeof a === "object" ? JSON.stringify(a) : String(a))).join(" ")}`.trim());
            return proxy;
          };
        },
      });
      return proxy;
    },
  };
  return db;
}
