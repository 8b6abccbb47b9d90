// Applies stack/sql (platform objects, as the superuser), supabase/migrations and
// seed.sql (as `postgres`, which is no superuser, as on hosted Supabase), recording
// migrations in supabase_migrations.schema_migrations as the Supabase CLI does.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import type { Logger } from "./log.ts";

export const platformDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../sql");

export async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Migrations and seed run as `postgres`, as the Supabase CLI runs them on hosted Supabase
 * where that role is no superuser: whatever hosted refuses fails here too. Connected as
 * a superuser, the session becomes postgres; on a cluster whose postgres is the superuser
 * (made before the split) or on a DATABASE_URL server, the connection stays as it is.
 */
export async function becomeMigrationRole(c: pg.Client) {
  const { rows } = await c.query<{ me: boolean; postgres: boolean | null }>(
    "select (select rolsuper from pg_roles where rolname = current_user) as me, (select rolsuper from pg_roles where rolname = 'postgres') as postgres",
  );
  if (rows[0]?.me && rows[0].postgres === false) await c.query("set session authorization postgres");
}

export async function applyPlatform(url: string, options: { authenticatorPassword: string }) {
  await withClient(url, async (c) => {
    // Serialise concurrent stacks/test runners on one server.
    await c.query("select pg_advisory_lock(5450001)");
    try {
      for (const file of fs.readdirSync(platformDir).filter((f) => f.endsWith(".sql")).sort()) {
        await c.query(fs.readFileSync(path.join(platformDir, file), "utf8"));
      }
      await c.query(`alter role authenticator with login password ${pg.escapeLiteral(options.authenticatorPassword)}`);
      // A postgres role made by 00-platform.sql gets the stack's password; one that has a
      // password (a DATABASE_URL server's own) keeps it.
      const { rows } = await c.query<{ unset: boolean }>(
        "select rolpassword is null as unset from pg_authid where rolname = 'postgres'",
      ).catch(() => ({ rows: [] as { unset: boolean }[] }));
      if (rows[0]?.unset) await c.query(`alter role postgres with password ${pg.escapeLiteral(options.authenticatorPassword)}`);
    } finally {
      await c.query("select pg_advisory_unlock(5450001)");
    }
  });
}

export interface MigrationFile {
  version: string;
  name: string;
  file: string;
}

export function listMigrations(workdir: string): MigrationFile[] {
  const dir = path.join(workdir, "supabase", "migrations");
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d+_.+\.sql$/.test(f))
    .sort()
    .map((f) => {
      const m = /^(\d+)_(.+)\.sql$/.exec(f)!;
      return { version: m[1]!, name: m[2]!, file: path.join(dir, f) };
    });
}

/** Applies pending migrations in order, each in its own transaction. Returns the versions applied. */
export async function applyMigrations(url: string, workdir: string, log: Logger): Promise<string[]> {
  return withClient(url, async (c) => {
    await c.query("select pg_advisory_lock(5450002)");
    await becomeMigrationRole(c);
    try {
      const done = new Set(
        (await c.query<{ version: string }>("select version from supabase_migrations.schema_migrations")).rows.map((r) => r.version),
      );
      const applied: string[] = [];
      for (const m of listMigrations(workdir)) {
        if (done.has(m.version)) continue;
        const sql = fs.readFileSync(m.file, "utf8");
        try {
          await c.query("begin");
          await c.query(sql);
          await c.query(
            "insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)",
            [m.version, m.name, [sql]],
          );
          await c.query("commit");
        } catch (e) {
          await c.query("rollback").catch(() => {});
          const err = e as Error & { position?: string };
          throw new Error(`Migration ${path.basename(m.file)} failed: ${err.message}`);
        }
        log.info(`applied migration ${path.basename(m.file)}`);
        applied.push(m.version);
      }
      if (applied.length) await c.query("notify pgrst, 'reload schema'");
      return applied;
    } finally {
      await c.query("select pg_advisory_unlock(5450002)");
    }
  });
}

/** Runs the seed files from config.toml once per database (recorded in seed_files). */
export async function applySeed(url: string, workdir: string, seedPaths: string[], log: Logger) {
  await withClient(url, async (c) => {
    await becomeMigrationRole(c);
    for (const rel of seedPaths) {
      const file = path.resolve(workdir, "supabase", rel);
      if (!fs.existsSync(file)) continue;
      const sql = fs.readFileSync(file, "utf8");
      const hash = crypto.createHash("sha256").update(sql).digest("hex");
      const seen = await c.query("select 1 from supabase_migrations.seed_files where path = $1", [rel]);
      if (seen.rowCount) continue;
      try {
        await c.query("begin");
        if (sql.trim()) await c.query(sql);
        await c.query("insert into supabase_migrations.seed_files (path, hash) values ($1, $2)", [rel, hash]);
        await c.query("commit");
      } catch (e) {
        await c.query("rollback").catch(() => {});
        throw new Error(`Seed ${rel} failed: ${(e as Error).message}`);
      }
      log.info(`seeded ${rel}`);
    }
  });
}
