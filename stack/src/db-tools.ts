// Database commands: db-reset (rebuild from migrations + seed), db-test (pgTAP on
// a fresh database), gen-types (database.types.ts via the Supabase CLI) and
// gen-schema (supabase/schema/*.sql from the catalog).
import { execFile } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { readSupabaseConfig, repoRoot, type StackOptions } from "./config.ts";
import { isAlive, initCluster, installPgTap, startPostgres, type PostgresHandle } from "./postgres.ts";
import { applyMigrations, applyPlatform, applySeed, becomeMigrationRole } from "./migrations.ts";
import { createLogger } from "./log.ts";
import { freePort } from "./net.ts";
import { packageDir } from "./packages.ts";
import { DB_PASSWORD } from "./stack.ts";

const log = createLogger("db");

/** A fresh database with platform objects and migrations: on DATABASE_URL's server, or a throwaway embedded one. */
async function withFreshDatabase<T>(options: StackOptions, fn: (url: string) => Promise<T>, opts: { pgtap?: boolean } = {}): Promise<T> {
  if (options.databaseUrl) {
    const name = `parley_tmp_${crypto.randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: options.databaseUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(options.databaseUrl);
    url.pathname = "/" + name;
    try {
      await prepare(url.toString(), options, opts);
      return await fn(url.toString());
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`).catch(() => {});
      await admin.end();
    }
  }
  if (opts.pgtap) await installPgTap();
  return withThrowawayServer(async (server) => {
    await prepare(server.url, options, opts);
    return fn(server.url);
  });
}

/** A throwaway embedded PostgreSQL cluster (a new one, set up as initCluster does), removed afterwards. */
export async function withThrowawayServer<T>(fn: (server: PostgresHandle) => Promise<T>): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-db-"));
  const quiet = createLogger("postgres", true);
  try {
    await initCluster(path.join(dir, "pg"), DB_PASSWORD, quiet);
    const server = await startPostgres(path.join(dir, "pg"), await freePort(), DB_PASSWORD, quiet);
    try {
      return await fn(server);
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function prepare(url: string, options: StackOptions, opts: { pgtap?: boolean }) {
  await applyPlatform(url, { authenticatorPassword: DB_PASSWORD });
  await applyMigrations(url, options.workdir, createLogger("migrations", true));
  if (opts.pgtap) {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await c.query("create extension if not exists pgtap with schema extensions");
    } finally {
      await c.end();
    }
  }
}

export async function dbReset(options: StackOptions) {
  if (options.databaseUrl) {
    throw new Error("db-reset rebuilds the embedded database only. With DATABASE_URL, use `supabase db reset --db-url` or recreate the database yourself.");
  }
  const lock = path.join(options.dataDir, "stack.lock");
  if (fs.existsSync(lock)) {
    const pid = Number(JSON.parse(fs.readFileSync(lock, "utf8")).pid);
    if (pid && isAlive(pid)) throw new Error(`A stack is running on ${options.dataDir} (pid ${pid}). Stop it first.`);
  }
  for (const sub of ["postgres", "storage", "mail"]) fs.rmSync(path.join(options.dataDir, sub), { recursive: true, force: true });
  const pgData = path.join(options.dataDir, "postgres");
  await initCluster(pgData, DB_PASSWORD, log);
  const server = await startPostgres(pgData, await freePort(), DB_PASSWORD, log);
  try {
    await applyPlatform(server.url, { authenticatorPassword: DB_PASSWORD });
    await applyMigrations(server.url, options.workdir, log);
    const config = readSupabaseConfig(options.workdir);
    if (config.db?.seed?.enabled !== false) await applySeed(server.url, options.workdir, config.db?.seed?.sql_paths ?? ["./seed.sql"], log);
  } finally {
    await server.stop();
  }
  log.info(`database rebuilt in ${pgData}`);
}

export function listTestFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listTestFiles(p));
    else if (entry.name.endsWith(".sql")) out.push(p);
  }
  return out.sort((a, b) => path.relative(dir, a).localeCompare(path.relative(dir, b)));
}

export interface FileResult {
  passed: number;
  failed: number;
}

/**
 * Runs one pgTAP file as `postgres` (as `supabase test db` does; no superuser on a new
 * cluster) and prints its TAP; a file that errors or falls short of its plan fails.
 */
export async function runTestFile(url: string, file: string, rel: string): Promise<FileResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await becomeMigrationRole(client);
  const notices: string[] = [];
  client.on("notice", (n) => notices.push(n.message ?? ""));
  let passed = 0;
  let failed = 0;
  let planned: number | undefined;
  console.log(`# ${rel}`);
  try {
    const raw = (await client.query(fs.readFileSync(file, "utf8"))) as unknown;
    const results = (Array.isArray(raw) ? raw : [raw]) as pg.QueryResult[];
    for (const r of results) {
      for (const row of r.rows ?? []) {
        const values = Object.values(row);
        if (values.length !== 1 || typeof values[0] !== "string") continue;
        for (const line of (values[0] as string).split("\n")) {
          const plan = /^1\.\.(\d+)/.exec(line);
          if (plan) planned = Number(plan[1]);
          if (/^ok \d+/.test(line)) passed++;
          else if (/^not ok \d+/.test(line)) failed++;
          console.log(line);
        }
      }
    }
    if (planned !== undefined && passed + failed !== planned) {
      console.log(`not ok - planned ${planned} tests but ran ${passed + failed}`);
      failed += Math.max(1, planned - passed - failed);
    }
  } catch (e) {
    const err = e as Error & { where?: string };
    console.log(`not ok - ${rel} failed: ${err.message}${err.where ? ` (${err.where.split("\n")[0]})` : ""}`);
    failed++;
  } finally {
    await client.end().catch(() => {});
  }
  for (const n of notices) if (/^#|^\s/.test(n)) console.log(n);
  return { passed, failed };
}

export async function dbTest(options: StackOptions): Promise<number> {
  const dir = path.join(options.workdir, "supabase", "tests");
  const files = listTestFiles(dir);
  if (!files.length) {
    console.log("0 passed, 0 failed");
    return 0;
  }
  return withFreshDatabase(
    options,
    async (url) => {
      let passed = 0;
      let failed = 0;
      for (const file of files) {
        const r = await runTestFile(url, file, path.relative(options.workdir, file));
        passed += r.passed;
        failed += r.failed;
      }
      console.log(`pgTAP: ${passed} passed, ${failed} failed`);
      return failed ? 1 : 0;
    },
    { pgtap: true },
  );
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { env, maxBuffer: 64 * 1024 * 1024, cwd: repoRoot }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${path.basename(cmd)} ${args[0]} failed: ${stderr || err.message}`));
      else resolve(stdout);
    });
  });
}

/** The one generated Database type; the app and the functions both import it. */
export const TYPES_FILE = "supabase/functions/_shared/database.types.ts";

/** Generates database.types.ts with the Supabase CLI; with check=true, fails when the committed file is stale. */
export async function genTypes(options: StackOptions, check: boolean): Promise<number> {
  const generated = await withFreshDatabase(options, async (url) => {
    const u = new URL(url);
    u.searchParams.set("sslmode", "disable");
    const cli = path.join(packageDir("supabase"), "dist", "supabase.js");
    const raw = await run(process.execPath, [cli, "gen", "types", "typescript", "--remote", u.toString(), "--schema", "public"]);
    const prettier = await import("prettier");
    const header = "// Generated by `npm run gen:types` (Supabase CLI) from supabase/migrations. Do not edit.\n";
    return prettier.format(header + raw, { parser: "typescript", printWidth: 120 });
  });
  return writeOrCheck(options, { [TYPES_FILE]: generated }, check, "npm run gen:types");
}

/** Writes generated files, or with check=true reports each one that differs from what is committed. */
function writeOrCheck(options: StackOptions, files: Record<string, string>, check: boolean, command: string): number {
  let stale = 0;
  for (const [rel, generated] of Object.entries(files)) {
    const file = path.join(options.workdir, rel);
    const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
    if (current === generated) continue;
    if (check) {
      console.error(`${rel} is stale: run \`${command}\` and commit the result.`);
      stale++;
    } else {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, generated);
      console.log(`wrote ${rel}`);
    }
  }
  if (check && !stale) console.log(`${Object.keys(files).join(", ")}: current`);
  return stale ? 1 : 0;
}

/** Writes supabase/schema/*.sql (what is in force, from the catalog); with check=true, fails when they are stale. */
export async function genSchema(options: StackOptions, check: boolean): Promise<number> {
  const { SCHEMA_DIR, schemaSnapshot } = await import("./schema-snapshot.ts");
  const files = await withFreshDatabase(options, async (url) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      return await schemaSnapshot(c);
    } finally {
      await c.end();
    }
  });
  return writeOrCheck(options, Object.fromEntries(Object.entries(files).map(([name, text]) => [`${SCHEMA_DIR}/${name}`, text])), check, "npm run gen:schema");
}
