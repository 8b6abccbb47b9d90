// Resolves the stack's settings from command-line options, the environment and
// supabase/config.toml (the same file the Supabase CLI reads).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseToml } from "smol-toml";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface StackOptions {
  workdir: string;
  port: number;
  dbPort: number;
  dataDir: string;
  databaseUrl?: string;
  appPort?: number;
  serveApp?: boolean;
  devApp?: boolean;
  watchFunctions?: boolean;
  quiet?: boolean;
  /** Do not run supabase/schedules.json (tests call scheduled functions themselves). */
  noSchedules?: boolean;
  /** Skip seed.sql on a new database (tests seed what they need). */
  noSeed?: boolean;
  /** The app's public URL: overrides [auth] site_url and joins the redirect allow-list (tests on free ports). */
  siteUrl?: string;
  /** Environment given to edge functions on top of supabase/functions/.env. */
  functionEnv?: Record<string, string>;
  /** The dev mailbox's SMTP port on 127.0.0.1 (0 or unset: a free port). */
  smtpPort?: number;
}

export interface FunctionConfig {
  verify_jwt?: boolean;
  entrypoint?: string;
}

export interface SupabaseConfig {
  project_id?: string;
  api?: { schemas?: string[]; extra_search_path?: string[]; max_rows?: number };
  db?: { seed?: { enabled?: boolean; sql_paths?: string[] } };
  auth?: Record<string, unknown>;
  storage?: { file_size_limit?: string };
  functions?: Record<string, FunctionConfig>;
  [key: string]: unknown;
}

/** `env(NAME)` values are resolved from the environment, as the Supabase CLI does. */
function resolveEnvRefs(value: unknown): unknown {
  if (typeof value === "string") {
    const m = /^env\(([A-Za-z_][A-Za-z0-9_]*)\)$/.exec(value);
    return m ? (process.env[m[1]!] ?? "") : value;
  }
  if (Array.isArray(value)) return value.map(resolveEnvRefs);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveEnvRefs(v)]));
  }
  return value;
}

export function readSupabaseConfig(workdir: string): SupabaseConfig {
  const file = path.join(workdir, "supabase", "config.toml");
  if (!fs.existsSync(file)) throw new Error(`No supabase/config.toml in ${workdir}`);
  return resolveEnvRefs(parseToml(fs.readFileSync(file, "utf8"))) as SupabaseConfig;
}

/** "50MiB" / "5MB" / 1024 -> bytes */
export function parseSize(value: string | number | undefined, fallback: number): number {
  if (typeof value === "number") return value;
  if (!value) return fallback;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([KMG]i?B|B)?\s*$/i.exec(value);
  if (!m) return fallback;
  const n = Number(m[1]);
  const unit = (m[2] ?? "B").toUpperCase();
  const mult: Record<string, number> = {
    B: 1, KB: 1e3, MB: 1e6, GB: 1e9, KIB: 1024, MIB: 1024 ** 2, GIB: 1024 ** 3,
  };
  return Math.round(n * (mult[unit] ?? 1));
}

export function parseArgs(argv: string[]): { command: string; options: StackOptions } {
  const [command = "start", ...rest] = argv;
  const get = (name: string): string | undefined => {
    const i = rest.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
    if (i < 0) return undefined;
    const arg = rest[i]!;
    return arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : rest[i + 1];
  };
  const has = (name: string) => rest.includes(`--${name}`);
  const workdir = path.resolve(get("workdir") ?? process.env.PARLEY_WORKDIR ?? repoRoot);
  const num = (v: string | undefined, d: number) => {
    if (v === undefined) return d;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`Invalid port: ${v}`);
    return n;
  };
  return {
    command,
    options: {
      workdir,
      port: num(get("port") ?? process.env.PARLEY_PORT, 54321),
      dbPort: num(get("db-port") ?? process.env.PARLEY_DB_PORT, 54322),
      appPort: num(get("app-port") ?? process.env.PARLEY_APP_PORT, 3000),
      dataDir: path.resolve(workdir, get("data-dir") ?? process.env.PARLEY_DATA_DIR ?? ".data"),
      databaseUrl: process.env.DATABASE_URL || undefined,
      serveApp: has("serve-app"),
      devApp: has("dev-app"),
      watchFunctions: has("dev-app") || has("watch"),
      quiet: has("quiet"),
      noSeed: has("no-seed"),
      noSchedules: has("no-schedules"),
      siteUrl: get("site-url") ?? process.env.PARLEY_SITE_URL ?? undefined,
      smtpPort: num(get("smtp-port") ?? process.env.PARLEY_MAIL_SMTP_PORT, 0),
    },
  };
}
