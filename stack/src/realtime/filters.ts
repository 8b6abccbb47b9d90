// postgres_changes filters: `col=op.value[,col=op.value...]` as realtime-js builds
// them (PostgREST-style quoting for values with `,()"\`), ANDed together.
// Values are compared with the column's JSON value the way Postgres would compare
// the cast filter value: numbers numerically, everything else as text.

export type FilterOp = "eq" | "neq" | "lt" | "lte" | "gt" | "gte" | "in" | "is" | "isdistinct" | "like" | "ilike" | "match" | "imatch";
const OPS = new Set<FilterOp>(["eq", "neq", "lt", "lte", "gt", "gte", "in", "is", "isdistinct", "like", "ilike", "match", "imatch"]);

export interface Condition {
  column: string;
  op: FilterOp;
  negate: boolean;
  value: string | null;
  values?: (string | null)[];
}

export class FilterError extends Error {}

/** Splits on `sep` outside double quotes and parentheses. */
function splitTop(s: string, sep: string): string[] {
  const out: string[] = [];
  let cur = "";
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (quoted) {
      cur += ch;
      if (ch === "\\" && i + 1 < s.length) cur += s[++i];
      else if (ch === '"') quoted = false;
      continue;
    }
    if (ch === '"') quoted = true;
    else if (ch === "(") depth++;
    else if (ch === ")") depth--;
    if (ch === sep && depth === 0) {
      out.push(cur);
      cur = "";
    } else cur += ch;
  }
  if (quoted || depth !== 0) throw new FilterError("unbalanced quotes or parentheses");
  out.push(cur);
  return out;
}

function unquote(v: string): string | null {
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) return v.slice(1, -1).replace(/\\(.)/g, "$1");
  if (v === "null") return null;
  return v;
}

export function parseFilter(filter: string | undefined | null): Condition[] {
  if (!filter) return [];
  if (filter.length > 4096) throw new FilterError("filter is too long");
  return splitTop(filter, ",").map((part) => {
    const eq = part.indexOf("=");
    if (eq <= 0) throw new FilterError(`invalid filter condition "${part}"`);
    const column = part.slice(0, eq).trim();
    let rest = part.slice(eq + 1);
    let negate = false;
    if (rest.startsWith("not.")) {
      negate = true;
      rest = rest.slice(4);
    }
    const dot = rest.indexOf(".");
    if (dot <= 0) throw new FilterError(`invalid filter condition "${part}"`);
    const op = rest.slice(0, dot) as FilterOp;
    if (!OPS.has(op)) throw new FilterError(`unsupported filter operator "${op}"`);
    const raw = rest.slice(dot + 1);
    if (op === "in") {
      const inner = raw.startsWith("(") && raw.endsWith(")") ? raw.slice(1, -1) : raw;
      if (inner.length > 0 && inner.split(",").length > 100) throw new FilterError("`in` filter allows at most 100 values");
      return { column, op, negate, value: null, values: splitTop(inner, ",").map((v) => unquote(v.trim())) };
    }
    return { column, op, negate, value: unquote(raw) };
  });
}

const ISO_DATE = /^\d{4}-\d\d-\d\d([T ]\d\d:\d\d(:\d\d(\.\d+)?)?)?(Z|[+-]\d\d(:?\d\d)?)?$/;

function cmp(a: unknown, b: string): number | null {
  if (a === null || a === undefined) return null;
  if (typeof a === "number") {
    const n = Number(b);
    if (Number.isNaN(n)) return null;
    return a === n ? 0 : a < n ? -1 : 1;
  }
  if (typeof a === "boolean") {
    const s = String(a);
    return s === b.toLowerCase() ? 0 : s < b.toLowerCase() ? -1 : 1;
  }
  if (typeof a === "string" && ISO_DATE.test(a) && ISO_DATE.test(b)) {
    // dates and timestamps: compare instants, whatever the text form of the filter value
    const x = Date.parse(a);
    const y = Date.parse(b);
    if (!Number.isNaN(x) && !Number.isNaN(y)) return x === y ? 0 : x < y ? -1 : 1;
  }
  const s = typeof a === "object" ? JSON.stringify(a) : String(a);
  return s === b ? 0 : s < b ? -1 : 1;
}

function likeToRegex(pattern: string, flags: string): RegExp {
  const re = pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/%/g, ".*").replace(/_/g, ".").replace(/\*/g, ".*");
  return new RegExp(`^${re}$`, flags);
}

function test(c: Condition, value: unknown): boolean {
  switch (c.op) {
    case "eq": return cmp(value, c.value ?? "") === 0;
    case "neq": { const r = cmp(value, c.value ?? ""); return r !== null && r !== 0; }
    case "lt": { const r = cmp(value, c.value ?? ""); return r !== null && r < 0; }
    case "lte": { const r = cmp(value, c.value ?? ""); return r !== null && r <= 0; }
    case "gt": { const r = cmp(value, c.value ?? ""); return r !== null && r > 0; }
    case "gte": { const r = cmp(value, c.value ?? ""); return r !== null && r >= 0; }
    case "in": return (c.values ?? []).some((v) => v !== null && cmp(value, v) === 0);
    case "is":
    case "isdistinct": {
      const same = c.value === null ? value === null || value === undefined : String(value) === c.value;
      return c.op === "is" ? same : !same;
    }
    case "like": return value != null && likeToRegex(c.value ?? "", "").test(String(value));
    case "ilike": return value != null && likeToRegex(c.value ?? "", "i").test(String(value));
    case "match": return value != null && safeRegex(c.value ?? "", "").test(String(value));
    case "imatch": return value != null && safeRegex(c.value ?? "", "i").test(String(value));
  }
}

function safeRegex(source: string, flags: string): RegExp {
  try {
    return new RegExp(source.slice(0, 200), flags);
  } catch {
    return /$^/;
  }
}

/** True when the record satisfies every condition (a missing column never matches). */
export function matches(conditions: Condition[], record: Record<string, unknown> | null): boolean {
  if (conditions.length === 0) return true;
  if (!record) return false;
  for (const c of conditions) {
    if (!(c.column in record)) return false;
    const ok = test(c, record[c.column]);
    if (ok === c.negate) return false;
  }
  return true;
}
