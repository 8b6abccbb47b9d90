// POST /object/list-v2/{bucket} (storage-js listV2): a flat, S3-style listing of
// the keys under a prefix, or one level of it with with_delimiter, paged by an
// opaque cursor. Runs as the caller, so RLS decides what is listed.
import { readJson, sendJson } from "../http.ts";
import type { GatewayRequest } from "../service.ts";
import { iso, requireClaims, run, type StorageContext } from "./context.ts";
import { ERRORS } from "./errors.ts";
import { mustBeValidBucketName } from "./names.ts";

const COLUMNS = ["name", "updated_at", "created_at"] as const;
type Column = (typeof COLUMNS)[number];

interface Cursor {
  startAfter: string;
  column: Column;
  order: "asc" | "desc";
  after?: string;
}

// Supabase's cursor format: base64 of "key:value" lines (l: start after, c: column, o: order, a: column value).
function encodeCursor(c: Cursor): string {
  const lines = [`l:${c.startAfter}`, `c:${c.column}`, `o:${c.order}`];
  if (c.after) lines.push(`a:${c.after}`);
  return Buffer.from(lines.join("\n")).toString("base64");
}

function decodeCursor(token: string): Cursor {
  const parts: Record<string, string> = {};
  for (const line of Buffer.from(token, "base64").toString("utf8").split("\n")) {
    const i = line.indexOf(":");
    if (i > 0) parts[line.slice(0, i)] = line.slice(i + 1);
  }
  const column = (parts.c ?? "name") as Column;
  const order = (parts.o ?? "asc") as "asc" | "desc";
  if (parts.l === undefined || !COLUMNS.includes(column) || (order !== "asc" && order !== "desc")) {
    throw ERRORS.invalidParameter("cursor", "Invalid cursor");
  }
  return { startAfter: parts.l, column, order, after: parts.a };
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (m) => "\\" + m);

interface Row {
  name: string;
  id: string | null;
  updated_at: string | null;
  created_at: string | null;
  last_accessed_at: string | null;
  metadata: unknown;
  sort_value: string | null;
}

export async function listV2(c: StorageContext, r: GatewayRequest, bucketRaw: string) {
  const claims = requireClaims(r);
  const bucket = mustBeValidBucketName(bucketRaw);
  const body = await readJson<{ prefix?: unknown; limit?: unknown; cursor?: unknown; with_delimiter?: unknown; sortBy?: unknown }>(r.req);
  const prefix = body.prefix ?? "";
  if (typeof prefix !== "string") throw ERRORS.invalidParameter("prefix");
  const limitIn = body.limit ?? 1000;
  if (typeof limitIn !== "number" || !Number.isInteger(limitIn) || limitIn < 1) throw ERRORS.invalidParameter("limit");
  const limit = Math.min(limitIn, 1000);
  const delimited = body.with_delimiter === true;
  if (body.cursor !== undefined && typeof body.cursor !== "string") throw ERRORS.invalidParameter("cursor");
  const sortBy = (body.sortBy ?? {}) as { column?: unknown; order?: unknown };
  let column: Column = "name";
  let order: "asc" | "desc" = "asc";
  if (sortBy.column !== undefined) {
    if (!COLUMNS.includes(sortBy.column as Column)) throw ERRORS.invalidParameter("sortBy", "sortBy.column must be name, updated_at or created_at");
    column = sortBy.column as Column;
  }
  if (sortBy.order !== undefined) {
    if (sortBy.order !== "asc" && sortBy.order !== "desc") throw ERRORS.invalidParameter("sortBy", "sortBy.order must be asc or desc");
    order = sortBy.order;
  }
  const cursor = body.cursor ? decodeCursor(body.cursor) : undefined;
  if (cursor) {
    column = cursor.column;
    order = cursor.order;
  }
  // A folder sorts by its newest object's date (max over the keys under it).

  const cmp = order === "asc" ? ">" : "<";
  const params: unknown[] = [bucket, likeEscape(prefix) + "%", prefix.length, limit + 1];
  let after = "true";
  if (cursor) {
    if (column === "name" || !cursor.after) {
      after = `e.entry collate "C" ${cmp} $${params.push(cursor.startAfter)}`;
    } else {
      after = `(e.sort_value, e.entry collate "C") ${cmp} ($${params.push(cursor.after)}::timestamptz, $${params.push(cursor.startAfter)} collate "C")`;
    }
  }
  const entry = delimited
    ? `case when strpos(substr(o.name, $3 + 1), '/') > 0
            then substr(o.name, 1, $3) || split_part(substr(o.name, $3 + 1), '/', 1) || '/'
            else o.name end`
    : "o.name";
  const sortExpr = column === "name" ? "null::timestamptz" : `o.${column}`;
  const sql = `
    with e as (
      select ${entry} as entry, o.name, o.id, o.updated_at, o.created_at, o.last_accessed_at, o.metadata, ${sortExpr} as sort_value
        from storage.objects o
       where o.bucket_id = $1 and o.name like $2 and $3::int >= 0
    ), grouped as (
      select e.entry,
             case when bool_and(e.entry = e.name) then min(e.id::text)::uuid end as id,
             max(e.updated_at) as updated_at, max(e.created_at) as created_at, max(e.last_accessed_at) as last_accessed_at,
             case when bool_and(e.entry = e.name) then (array_agg(e.metadata))[1] end as metadata,
             max(e.sort_value) as sort_value
        from e group by e.entry
    )
    select e.entry as name, e.id, ${iso("e.updated_at", "updated_at")}, ${iso("e.created_at", "created_at")},
           ${iso("e.last_accessed_at", "last_accessed_at")}, e.metadata,
           to_char(e.sort_value at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as sort_value
      from grouped e
     where ${after}
     order by ${column === "name" ? "" : `e.sort_value ${order},`} e.entry collate "C" ${order}
     limit $4`;
  const rows = await run(c, r, claims, async (client) => (await client.query<Row>(sql, params)).rows);
  const hasNext = rows.length > limit;
  const page = rows.slice(0, limit);
  const folders: { key: string; name: string }[] = [];
  const objects: Omit<Row, "sort_value">[] = [];
  for (const row of page) {
    const { sort_value: _sort, ...rest } = row;
    // Folder keys without their trailing slash, as Supabase returns them.
    if (row.id === null) folders.push({ key: row.name.replace(/\/$/, ""), name: row.name.replace(/\/$/, "") });
    else objects.push({ ...rest, key: row.name } as Omit<Row, "sort_value">);
  }
  const last = page[page.length - 1];
  const nextCursor = hasNext && last
    ? encodeCursor({ startAfter: last.name, column, order, after: column === "name" ? undefined : (last.sort_value ?? undefined) })
    : undefined;
  sendJson(r.res, 200, { hasNext, folders, objects, ...(nextCursor ? { nextCursor } : {}) });
}
