// The `hosted-fidelity` test suite (`npm test -- hosted-fidelity`): a throwaway
// database set up the way a new hosted Supabase project is (as far as the stand-in
// reproduces it: roles, grants, `postgres` without superuser, only hosted's
// extensions, storage's delete triggers, realtime.messages partitioned by day),
// checked to be that; the migrations pushed to it by the Supabase CLI (`db push
// --remote=<url>`, as postgres) in two pushes, the second in a new connection (see PUSHES);
// every function they define re-created by postgres in a fresh connection (what a
// later push or a restore does); then pgTAP, on a seeded and on an empty database.
// Prints TAP and one last line `hosted-fidelity: N passed, N failed`.
//
//   node --import tsx stack/src/hosted-fidelity.ts [--workdir DIR]
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { repoRoot } from "./config.ts";
import { listTestFiles, runTestFile, withThrowawayServer } from "./db-tools.ts";
import { applyPlatform, listMigrations, withClient } from "./migrations.ts";
import { packageDir } from "./packages.ts";
import { installPgTap } from "./postgres.ts";
import { DB_PASSWORD } from "./stack.ts";

/**
 * Two incremental pushes, each second push in a new connection. Seeded database: a project
 * that pushed up to 20261121010000 before 20261121000050 existed (pg_trgm enabled by hand),
 * then pushes the rest with --include-all: 20261121000050 first, then 20261121010100 and
 * 20261121011000, whose SET clauses need pg_trgm's library loaded in that connection.
 * Empty database: everything up to 20261121011000, then the rest.
 */
const PUSHES = {
  seeded: { first: (v: string) => v <= "20261121010000" && v !== "20261121000050", until: "20261121010000 without 20261121000050", includeAll: true },
  empty: { first: (v: string) => v <= "20261121011000", until: "20261121011000", includeAll: false },
};

/** What a new hosted project has installed before any migration runs. */
const HOSTED_EXTENSIONS = ["pg_stat_statements", "pgcrypto", "plpgsql", "uuid-ossp"];

let passed = 0;
let failed = 0;
let n = 0;

function report(ok: boolean, name: string, detail?: string) {
  n++;
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? "ok" : "not ok"} ${n} - ${name}`);
  if (!ok && detail) for (const line of detail.trim().split("\n")) console.log(`#   ${line}`);
}

/** The error code a statement fails with inside a rolled-back transaction, or null when it runs. */
async function failsWith(c: pg.Client, sql: string): Promise<string | null> {
  await c.query("begin");
  try {
    await c.query(sql);
    return null;
  } catch (e) {
    return (e as { code?: string }).code ?? "error";
  } finally {
    await c.query("rollback");
  }
}

/** The new project itself, before any migration: roles, extensions, storage and realtime as hosted has them. */
async function checkNewProject(postgresUrl: string) {
  await withClient(postgresUrl, async (c) => {
    const role = (await c.query("select rolsuper, rolbypassrls, rolcreaterole, rolcreatedb, rolreplication from pg_roles where rolname = current_user")).rows[0];
    report(
      c.user === "postgres" && role && !role.rolsuper && role.rolbypassrls && role.rolcreaterole && role.rolcreatedb && role.rolreplication,
      "postgres is no superuser; it bypasses RLS, creates roles and databases, replicates",
      JSON.stringify(role),
    );
    const exts = (await c.query<{ extname: string }>("select extname from pg_extension order by extname")).rows.map((r) => r.extname);
    report(JSON.stringify(exts) === JSON.stringify(HOSTED_EXTENSIONS), `only ${HOSTED_EXTENSIONS.join(", ")} are installed`, `installed: ${exts.join(", ")}`);
    for (const table of ["storage.objects", "storage.buckets"]) {
      const code = await failsWith(c, `delete from ${table}`);
      report(code === "42501", `a direct delete from ${table} is refused (42501)`, `got ${code ?? "no error"}`);
    }
    for (const table of ["storage.objects", "realtime.messages"]) {
      const code = await failsWith(c, `create policy fidelity_probe on ${table} for select to authenticated using (false)`);
      report(code === null, `postgres may create policies on ${table}`, `got ${code}`);
    }
    for (const ddl of ["alter table storage.objects disable trigger protect_objects_delete", "drop trigger protect_objects_delete on storage.objects",
      "alter table realtime.messages add column extra text", "drop table storage.buckets cascade"]) {
      const code = await failsWith(c, ddl);
      report(code === "42501", `postgres may not: ${ddl}`, `got ${code ?? "no error"}`);
    }
    const rt = (await c.query(
      `select c.relkind, exists (select 1 from pg_inherits i join pg_class p on p.oid = i.inhrelid
                                  where i.inhparent = c.oid and p.relname = 'messages_' || to_char(now(), 'YYYY_MM_DD')) as today
         from pg_class c where c.oid = 'realtime.messages'::regclass`,
    )).rows[0];
    report(rt?.relkind === "p" && rt.today, "realtime.messages is partitioned by day, with today's partition", JSON.stringify(rt));
  });
}

/** A folder holding supabase/ with config.toml, seed.sql and the migrations `only` keeps (all when omitted). */
function pushWorkdir(workdir: string, only?: (version: string) => boolean): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-push-"));
  const src = path.join(workdir, "supabase");
  fs.mkdirSync(path.join(dir, "supabase", "migrations"), { recursive: true });
  for (const f of ["config.toml", "seed.sql"]) if (fs.existsSync(path.join(src, f))) fs.copyFileSync(path.join(src, f), path.join(dir, "supabase", f));
  // config.toml names files (the auth e-mail templates) that the CLI reads when it loads the config.
  if (fs.existsSync(path.join(src, "templates"))) fs.cpSync(path.join(src, "templates"), path.join(dir, "supabase", "templates"), { recursive: true });
  for (const m of listMigrations(workdir)) {
    if (only && !only(m.version)) continue;
    fs.copyFileSync(m.file, path.join(dir, "supabase", "migrations", path.basename(m.file)));
  }
  return dir;
}

function supabaseCli(args: string[], cwd: string): Promise<{ code: number; out: string }> {
  const cli = path.join(packageDir("supabase"), "dist", "supabase.js");
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, SUPABASE_YES: "1", DO_NOT_TRACK: "1" } }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` });
    });
  });
}

/** `supabase db push --remote=<url>` from a folder holding the given migrations. */
async function push(postgresUrl: string, workdir: string, name: string, opts: { only?: (version: string) => boolean; seed?: boolean; includeAll?: boolean } = {}) {
  const dir = pushWorkdir(workdir, opts.only);
  try {
    const url = new URL(postgresUrl);
    url.searchParams.set("sslmode", "disable");
    const args = ["db", "push", `--remote=${url}`, "--workdir", dir, "--skip-vault", "--yes", ...(opts.seed ? ["--include-seed"] : []), ...(opts.includeAll ? ["--include-all"] : [])];
    const { code, out } = await supabaseCli(args, dir);
    report(code === 0, name, out.split("\n").filter((l) => /error|fail|ERROR/i.test(l)).slice(-8).join("\n") || out.slice(-2000));
    return code === 0;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Every function the migrations defined, re-created by postgres in a new connection (no
 * extension library loaded yet), as a later push, a squash or a restore does. A SET clause
 * for an extension's setting fails here on hosted Supabase.
 */
async function checkDefinitionsReplay(postgresUrl: string) {
  await withClient(postgresUrl, async (c) => {
    const code = await failsWith(c, "create function pg_temp.probe() returns int language sql set pg_trgm.word_similarity_threshold = 0.3 as 'select 1'");
    report(code === "42501", "as on hosted, postgres may not put an unloaded extension's setting in a function's SET clause", `got ${code ?? "no error"}`);
    const { rows } = await c.query<{ name: string; def: string }>(
      `select p.oid::regprocedure::text as name, pg_get_functiondef(p.oid) as def
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname in ('public', 'private') and p.prokind in ('f', 'p')
          and pg_get_userbyid(p.proowner) = 'postgres'
          and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
        order by 1`,
    );
    const broken: string[] = [];
    await c.query("begin");
    try {
      for (const r of rows) {
        await c.query("savepoint f");
        try {
          await c.query(r.def);
          await c.query("release savepoint f");
        } catch (e) {
          await c.query("rollback to savepoint f");
          broken.push(`${r.name}: ${(e as Error).message}`);
        }
      }
    } finally {
      await c.query("rollback");
    }
    report(rows.length > 0 && broken.length === 0, `postgres re-creates all ${rows.length} functions of the migrations in a new connection`, broken.join("\n"));
  });
}

async function checkHistory(postgresUrl: string, workdir: string) {
  const want = listMigrations(workdir).map((m) => m.version);
  const have = await withClient(postgresUrl, async (c) =>
    (await c.query<{ version: string }>("select version from supabase_migrations.schema_migrations order by version")).rows.map((r) => r.version));
  report(JSON.stringify(have) === JSON.stringify(want), `the CLI recorded all ${want.length} migrations`, `have ${have.length}: missing ${want.filter((v) => !have.includes(v)).join(", ")}`);
}

async function runPgTap(superUrl: string, postgresUrl: string, workdir: string, label: string) {
  await withClient(superUrl, (c) => c.query("create extension if not exists pgtap with schema extensions"));
  const dir = path.join(workdir, "supabase", "tests");
  let p = 0;
  let f = 0;
  for (const file of listTestFiles(dir)) {
    const r = await runTestFile(postgresUrl, file, `${label}: ${path.relative(workdir, file)}`);
    p += r.passed;
    f += r.failed;
  }
  passed += p;
  failed += f;
  console.log(`# pgTAP on the ${label} database: ${p} passed, ${f} failed`);
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = "/" + name;
  return u.toString();
}

export async function hostedFidelity(workdir: string): Promise<number> {
  await installPgTap();
  await withThrowawayServer(async (server) => {
    for (const [label, database, seeded] of [["seeded", "postgres", true], ["empty", "parley_empty", false]] as const) {
      console.log(`# ${label} database`);
      if (database !== "postgres") await withClient(server.url, (c) => c.query(`create database ${database}`));
      const superUrl = withDatabase(server.url, database);
      const postgresUrl = withDatabase(server.postgresUrl, database);
      await applyPlatform(superUrl, { authenticatorPassword: DB_PASSWORD });
      await checkNewProject(postgresUrl);
      const plan = PUSHES[label];
      if (label === "seeded") await withClient(postgresUrl, (c) => c.query("create extension pg_trgm with schema extensions"));
      const first = await push(postgresUrl, workdir, `${label}: supabase db push of the migrations up to ${plan.until}`, { only: plan.first });
      const rest = first && (await push(postgresUrl, workdir,
        `${label}: supabase db push of the rest${plan.includeAll ? " (--include-all)" : ""}${seeded ? " and the seed" : ""}, in a new connection`,
        { seed: seeded, includeAll: plan.includeAll }));
      if (!rest) continue;
      await checkHistory(postgresUrl, workdir);
      await checkDefinitionsReplay(postgresUrl);
      await runPgTap(superUrl, postgresUrl, workdir, label);
    }
  });
  console.log(`hosted-fidelity: ${passed} passed, ${failed} failed`);
  return failed || !passed ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const i = process.argv.indexOf("--workdir");
  const workdir = i > 0 ? path.resolve(process.argv[i + 1]!) : repoRoot;
  hostedFidelity(workdir).then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(`hosted-fidelity: ${(e as Error).message}`);
      process.exit(1);
    },
  );
}
