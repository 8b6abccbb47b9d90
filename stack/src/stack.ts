// Starts and stops the whole local stack: PostgreSQL, platform objects and
// migrations, PostgREST, the stack's own services, Deno functions, the gateway and
// the app server. Children are recorded so a stack killed with -9 leaves nothing
// behind the next start does not clean up.
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { appRuntimeConfig, startAppServer } from "../../frontend/server/app-server.ts";
import { childGuard, Supervised } from "./child.ts";
import { readSupabaseConfig, parseSize, repoRoot, type StackOptions, type SupabaseConfig } from "./config.ts";
import { Db } from "./db.ts";
import { FunctionsRuntime } from "./functions.ts";
import { defaultAllowedHosts, Gateway } from "./gateway.ts";
import { loadKeys, type Keys } from "./keys.ts";
import { createLogger, type Logger } from "./log.ts";
import { restoreTemplate } from "./db-template.ts";
import { applyMigrations, applyPlatform, applySeed } from "./migrations.ts";
import { assertPortFree } from "./net.ts";
import { readSchedules, startSchedules } from "./schedules.ts";
import { initCluster, isAlive, startPostgres, type PostgresHandle } from "./postgres.ts";
import { Postgrest } from "./postgrest.ts";
import type { Service, ServiceContext, ServiceFactory } from "./service.ts";

export const DB_PASSWORD = "postgres";

export interface RunningStack {
  apiUrl: string;
  appUrl?: string;
  dbUrl: string;
  /** The dev mailbox's SMTP door, `smtp://127.0.0.1:<port>`. */
  smtpUrl?: string;
  keys: Keys;
  options: StackOptions;
  config: SupabaseConfig;
  db: Db;
  functions: FunctionsRuntime;
  stop(): Promise<void>;
}

const SERVICE_MODULES = ["mail", "auth", "storage", "realtime"] as const;

async function loadServices(ctx: ServiceContext, log: Logger) {
  for (const name of SERVICE_MODULES) {
    const file = new URL(`./${name}/index.ts`, import.meta.url);
    if (!fs.existsSync(file)) continue;
    const mod = (await import(file.href)) as { createService?: ServiceFactory };
    if (!mod.createService) continue;
    ctx.services.set(name, await mod.createService(ctx));
    log.debug(`service ${name} ready`);
  }
}

interface LockInfo {
  pid: number;
  children: number[];
}

function readLock(file: string): LockInfo | null {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as LockInfo;
  } catch {
    return null;
  }
}

function processCmdline(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
  } catch {
    return "";
  }
}

/** Takes the data dir for this process; kills children a killed predecessor left. */
function takeDataDir(dataDir: string, log: Logger): (children: () => number[]) => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, "stack.lock");
  const prev = readLock(file);
  if (prev && prev.pid !== process.pid && isAlive(prev.pid) && /node|parley/.test(processCmdline(prev.pid) || "node")) {
    throw new Error(`The data dir ${dataDir} is in use by another Parley stack (pid ${prev.pid}). Stop it first, or pass --data-dir.`);
  }
  for (const pid of prev?.children ?? []) {
    const cmd = processCmdline(pid);
    if (isAlive(pid) && /postgrest|deno/.test(cmd)) {
      log.warn("stopping a process left behind by an earlier run", { pid });
      try { process.kill(pid, "SIGKILL"); } catch { /* gone */ }
    }
  }
  // Written whole or not at all (a new file renamed over the old one): a stack starting at the same
  // moment must never read a half-written lock, take it for none, and stop this stack's PostgreSQL
  // as one "left behind" (seen once in CI: the lock is rewritten whenever a worker starts).
  const write = (children: () => number[]) => {
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ pid: process.pid, children: children() }));
    fs.renameSync(tmp, file);
  };
  write(() => []);
  return write;
}

export async function startStack(options: StackOptions): Promise<RunningStack> {
  const log = createLogger("stack", options.quiet);
  const config = readSupabaseConfig(options.workdir);
  if (options.siteUrl) {
    const auth = (config.auth ??= {});
    auth.site_url = options.siteUrl;
    const extra = Array.isArray(auth.additional_redirect_urls) ? (auth.additional_redirect_urls as string[]) : [];
    auth.additional_redirect_urls = [...extra, `${options.siteUrl}/**`];
  }
  const writeLock = takeDataDir(options.dataDir, log);
  const keys = await loadKeys(options.dataDir, config.project_id ?? "parley");
  const cleanup: (() => Promise<unknown> | unknown)[] = [];
  let stopping = false;

  try {
    await assertPortFree(options.port, "API gateway");
    if ((options.serveApp || options.devApp) && options.appPort) await assertPortFree(options.appPort, "app");

    // PostgreSQL -------------------------------------------------------------
    let pg: PostgresHandle | undefined;
    let dbUrl: string;
    let fromTemplate = false;
    if (options.databaseUrl) {
      dbUrl = options.databaseUrl;
    } else {
      const pgData = path.join(options.dataDir, "postgres");
      const seedPaths = !options.noSeed && config.db?.seed?.enabled !== false ? (config.db?.seed?.sql_paths ?? ["./seed.sql"]) : null;
      fromTemplate = await restoreTemplate(pgData, { workdir: options.workdir, seedPaths, password: DB_PASSWORD }, log.child("postgres"));
      if (!fromTemplate) await initCluster(pgData, DB_PASSWORD, log.child("postgres"));
      pg = await startPostgres(pgData, options.dbPort, DB_PASSWORD, log.child("postgres"));
      dbUrl = pg.url;
      const watchPg = (handle: PostgresHandle) => {
        // Should the stack die, the guard asks PostgreSQL for a fast shutdown (SIGINT).
        childGuard.watch(handle.pid, "SIGINT", 15_000);
        handle.exited.then(async (code) => {
          childGuard.forget(handle.pid);
          if (stopping) return;
          log.error(`PostgreSQL exited (${code}); restarting`);
          try {
            pg = await startPostgres(pgData, options.dbPort, DB_PASSWORD, log.child("postgres"));
            watchPg(pg);
          } catch (e) {
            log.error(`PostgreSQL could not be restarted: ${(e as Error).message}`);
          }
        });
      };
      watchPg(pg);
      cleanup.push(() => pg?.stop());
    }

    // A cluster copied from the template has the platform objects; migrations and seed below
    // find nothing left to do.
    if (!fromTemplate) await applyPlatform(dbUrl, { authenticatorPassword: DB_PASSWORD });
    await applyMigrations(dbUrl, options.workdir, log.child("migrations"));
    if (!options.noSeed && config.db?.seed?.enabled !== false) {
      await applySeed(dbUrl, options.workdir, config.db?.seed?.sql_paths ?? ["./seed.sql"], log.child("seed"));
    }
    const db = new Db(dbUrl, 20);
    cleanup.push(() => db.end());

    // PostgREST ---------------------------------------------------------------
    const authenticatorUrl = new URL(dbUrl);
    authenticatorUrl.username = "authenticator";
    authenticatorUrl.password = DB_PASSWORD;
    const postgrest = new Postgrest({
      dbUri: authenticatorUrl.toString(),
      jwtSecret: keys.signing.postgrestSecret(),
      schemas: config.api?.schemas ?? ["public", "graphql_public"],
      extraSearchPath: config.api?.extra_search_path ?? ["public", "extensions"],
      maxRows: config.api?.max_rows ?? 1000,
      log: log.child("postgrest"),
      unixSocket: postgrestSocketPath(options.dataDir),
    });
    await postgrest.start();
    cleanup.push(() => postgrest.stop());

    const apiUrl = `http://127.0.0.1:${options.port}`;

    // Services implemented by the stack ---------------------------------------------
    const services = new Map<string, Service>();
    const ctx: ServiceContext = { options, config, keys, db, log, apiUrl, dbUrl, services };
    await loadServices(ctx, log);
    cleanup.push(() => Promise.all([...services.values()].map((s) => s.stop?.())));

    // Edge functions -----------------------------------------------------------------
    // Their own e-mails (_shared/mail.ts) go to the dev mailbox's SMTP door unless the user
    // configured an SMTP server for them.
    const mailSmtpPort = (services.get("mail") as { smtpPort?: number } | undefined)?.smtpPort;
    const functionsDir = path.join(options.workdir, "supabase", "functions");
    const mailEnv: Record<string, string> = mailSmtpPort && !userFunctionsSmtp(functionsDir, options.functionEnv)
      ? { PARLEY_SMTP_HOST: "127.0.0.1", PARLEY_SMTP_PORT: String(mailSmtpPort), PARLEY_SMTP_INSECURE: "1" }
      : {};
    const functions = new FunctionsRuntime({
      functionsDir,
      config: config.functions ?? {},
      cacheDir: path.resolve(process.env.DENO_DIR ?? path.join(repoRoot, ".cache", "deno")),
      log: log.child("functions"),
      watch: options.watchFunctions,
      // The workers listen on Unix sockets in the data dir (as PostgREST does).
      socketDir: path.join(path.resolve(options.dataDir), "functions"),
      env: {
        SUPABASE_URL: apiUrl,
        SUPABASE_ANON_KEY: keys.anonKey,
        SUPABASE_SERVICE_ROLE_KEY: keys.serviceRoleKey,
        SUPABASE_DB_URL: dbUrl,
        SUPABASE_JWT_SECRET: keys.jwtSecret,
        PARLEY_SITE_URL: String(config.auth?.site_url ?? `http://127.0.0.1:${options.appPort}`),
        ...mailEnv,
        ...options.functionEnv,
      },
    });
    cleanup.push(() => functions.stop());

    // Gateway ---------------------------------------------------------------------------
    const gateway = new Gateway({
      keys, log: log.child("gateway"), functions, services,
      postgrestPort: () => postgrest.port,
      postgrestSocket: () => postgrest.socketPath,
      restAvailable: () => postgrest.healthy,
      maxBodyBytes: parseSize(process.env.PARLEY_MAX_BODY, 10 * 1024 * 1024),
      maxUploadBytes: parseSize(config.storage?.file_size_limit, 50 * 1024 * 1024),
      maxRpcBodyBytes: parseSize(process.env.PARLEY_MAX_RPC_BODY, 64 * 1024),
      maxRpcArgs: envInt("PARLEY_MAX_RPC_ARGS", 64),
      maxSelectItems: envInt("PARLEY_MAX_SELECT_ITEMS", 250),
      functionsJwtGate: functionsJwtGate(process.env.PARLEY_FUNCTIONS_JWT_GATE),
      allowedHosts: defaultAllowedHosts([apiUrl, String(config.auth?.site_url ?? "")]),
      health: async () => {
        const checks: Record<string, boolean> = {};
        checks.postgres = await db.query("select 1").then(() => true, () => false);
        checks.rest = await postgrest.ready();
        for (const name of SERVICE_MODULES) {
          const s = services.get(name);
          checks[name] = s ? ((await s.health?.().catch(() => false)) ?? true) : false;
        }
        checks.functions = true;
        const ok = checks.postgres && checks.rest;
        return { ok, services: checks, functions: functions.list(), running_functions: functions.running() };
      },
    });
    options.port = await gateway.listen(options.port);
    cleanup.push(() => gateway.close());

    // App ---------------------------------------------------------------------------------
    let appUrl: string | undefined;
    const runtimeConfig = () => appRuntimeConfig({
      supabaseUrl: apiUrl,
      supabaseAnonKey: keys.anonKey,
      siteUrl: String(config.auth?.site_url ?? `http://127.0.0.1:${options.appPort}`),
    });
    if (options.serveApp) {
      const dist = path.join(options.workdir, "frontend", "dist");
      const app = await startAppServer({
        distDir: fs.existsSync(dist) ? dist : path.join(repoRoot, "frontend", "dist"),
        port: options.appPort ?? 0,
        config: runtimeConfig,
      });
      options.appPort = app.port;
      appUrl = app.url;
      cleanup.push(() => app.stop());
    } else if (options.devApp) {
      const vite = new Supervised({
        name: "vite",
        cmd: process.execPath,
        args: [path.join(repoRoot, "node_modules", "vite", "bin", "vite.js"), "--host", "127.0.0.1", "--port", String(options.appPort), "--strictPort"],
        options: {
          cwd: path.join(repoRoot, "frontend"),
          stdio: ["ignore", "inherit", "inherit"],
          env: { ...process.env, VITE_SUPABASE_URL: apiUrl, VITE_SUPABASE_ANON_KEY: keys.anonKey },
        },
        log: log.child("vite"),
        restart: true,
      });
      vite.start();
      appUrl = `http://127.0.0.1:${options.appPort}`;
      cleanup.push(() => vite.stop());
    }

    // Schedules (pg_cron's job on hosted Supabase) -------------------------------------
    if (!options.noSchedules) {
      const stopSchedules = startSchedules(readSchedules(options.workdir), apiUrl, keys.serviceRoleKey, (fn) => functions.exists(fn), log.child("schedules"));
      cleanup.push(stopSchedules);
    }

    const children = () => [postgrest.pid, ...functions.pids()].filter((p): p is number => !!p);
    writeLock(children);
    functions.onWorkerStarted = () => writeLock(children);
    const lockTimer = setInterval(() => writeLock(children), 2000);
    lockTimer.unref();

    return {
      apiUrl, appUrl, dbUrl, keys, options, config, db, functions,
      smtpUrl: mailSmtpPort ? `smtp://127.0.0.1:${mailSmtpPort}` : undefined,
      async stop() {
        if (stopping) return;
        stopping = true;
        clearInterval(lockTimer);
        for (const fn of cleanup.reverse()) {
          try { await fn(); } catch (e) { log.warn(`stop: ${(e as Error).message}`); }
        }
        fs.rmSync(path.join(options.dataDir, "stack.lock"), { force: true });
      },
    };
  } catch (e) {
    stopping = true;
    for (const fn of cleanup.reverse()) {
      try { await fn(); } catch { /* already failing */ }
    }
    fs.rmSync(path.join(options.dataDir, "stack.lock"), { force: true });
    throw e;
  }
}

/** True when the user gave the functions an SMTP server of their own (environment, options or supabase/functions/.env). */
export function userFunctionsSmtp(functionsDir: string, functionEnv: Record<string, string> | undefined): boolean {
  if (process.env.PARLEY_SMTP_HOST || functionEnv?.PARLEY_SMTP_HOST) return true;
  try {
    return /^\s*(export\s+)?PARLEY_SMTP_HOST\s*=\s*\S/m.test(fs.readFileSync(path.join(functionsDir, ".env"), "utf8"));
  } catch {
    return false;
  }
}

/**
 * Where PostgREST serves the gateway: a Unix socket in the data dir (only the stack's user may
 * open it), or in the temporary directory when that path is too long for a socket address.
 */
export function postgrestSocketPath(dataDir: string): string {
  const inDataDir = path.join(path.resolve(dataDir), "postgrest.sock");
  if (Buffer.byteLength(inDataDir) <= 100) return inDataDir;
  return path.join(os.tmpdir(), `parley-postgrest-${crypto.createHash("sha256").update(inDataDir).digest("hex").slice(0, 16)}.sock`);
}

function envInt(name: string, fallback: number): number {
  const n = Number(process.env[name]);
  return process.env[name] && Number.isInteger(n) && n > 0 ? n : fallback;
}

/** Fetches a URL on the stack, for the CLI's status command. */
export function httpGetJson(url: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    http.get(url, (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => { try { resolve(JSON.parse(body)); } catch (e) { reject(e); } });
    }).on("error", reject);
  });
}

/** PARLEY_FUNCTIONS_JWT_GATE: "any" (default) or "legacy" (hosted's gate; see the gateway). */
function functionsJwtGate(v: string | undefined): "any" | "legacy" {
  if (!v || v === "any" || v === "legacy") return v === "legacy" ? "legacy" : "any";
  throw new Error(`PARLEY_FUNCTIONS_JWT_GATE must be "any" or "legacy" (got ${JSON.stringify(v)})`);
}
