// The stack's own connection pool and the one way its services run SQL for a
// caller: a transaction that sets the caller's role and JWT claims the way
// PostgREST does, so row-level security decides for every request.
import pg from "pg";
import type { Claims } from "./keys.ts";

// Return timestamps and bigints as strings, as PostgREST does, rather than JS Dates/numbers.
pg.types.setTypeParser(1184, (v) => v); // timestamptz
pg.types.setTypeParser(1114, (v) => v); // timestamp
pg.types.setTypeParser(20, (v) => v); // int8

export const CLIENT_ROLES = ["anon", "authenticated", "service_role"] as const;
export type ClientRole = (typeof CLIENT_ROLES)[number];

export interface RequestInfo {
  method?: string;
  path?: string;
  headers?: Record<string, string | string[] | undefined>;
}

export class Db {
  readonly pool: pg.Pool;
  constructor(readonly url: string, max = 10) {
    this.pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000 });
    this.pool.on("error", () => { /* a dropped idle connection is replaced on next use */ });
  }

  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]) {
    return this.pool.query<R>(text, values);
  }

  /** Runs fn in a transaction as the superuser (for the stack's own bookkeeping). */
  async tx<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query("begin");
      const result = await fn(client);
      await client.query("commit");
      return result;
    } catch (e) {
      await client.query("rollback").catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  }

  /**
   * Runs fn in a transaction as the caller: `set local role` to the token's role and
   * `request.jwt.claims` (plus request.method/path/headers) set as PostgREST sets them.
   */
  async asCaller<T>(claims: Claims, fn: (client: pg.PoolClient) => Promise<T>, request: RequestInfo = {}): Promise<T> {
    const role = (claims.role ?? "anon") as string;
    if (!(CLIENT_ROLES as readonly string[]).includes(role)) {
      throw Object.assign(new Error(`role "${role}" is not allowed`), { status: 401, code: "invalid_role" });
    }
    return this.tx(async (client) => {
      await client.query(
        `select set_config('role', $1, true),
                set_config('request.jwt.claims', $2, true),
                set_config('request.method', $3, true),
                set_config('request.path', $4, true),
                set_config('request.headers', $5, true)`,
        [role, JSON.stringify(claims), request.method ?? "", request.path ?? "", JSON.stringify(request.headers ?? {})],
      );
      return fn(client);
    });
  }

  end() {
    return this.pool.end();
  }
}

export function quoteIdent(name: string): string {
  return '"' + name.replace(/"/g, '""') + '"';
}
