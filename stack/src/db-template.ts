// A new stack's database from a template: the first stack that needs a database of this
// repository's platform SQL, migrations and seed builds it once (initdb, platform objects,
// migrations, seed, clean shutdown) into a cache folder; every later stack with a new data dir
// copies that cluster (cp -a keeps owners and modes) instead of repeating the work. Test runs
// start dozens of stacks, and this is most of a stack's start-up.
//
// The key covers everything that shapes the database: the PostgreSQL binaries, the platform
// SQL, each migration's name and text, the seed files' text and the UTC day (seeds write times
// relative to now, so yesterday's template is not reused). PARLEY_DB_TEMPLATES=0 turns it off.
import crypto from "node:crypto";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Logger } from "./log.ts";
import { applyMigrations, applyPlatform, applySeed, listMigrations, platformDir } from "./migrations.ts";
import { freePort } from "./net.ts";
import { initCluster, makeTraversable, pgNativeDir, startPostgres } from "./postgres.ts";

export interface TemplateInput {
  workdir: string;
  /** Seed files (relative to supabase/), or null when the stack starts unseeded. */
  seedPaths: string[] | null;
  password: string;
}

const root = () => process.env.PARLEY_DB_TEMPLATE_DIR ?? path.join(os.tmpdir(), "parley-db-templates");

export function templatesEnabled(): boolean {
  return process.env.PARLEY_DB_TEMPLATES !== "0";
}

export function templateKey(input: TemplateInput): string {
  const h = crypto.createHash("sha256");
  h.update(pgNativeDir()).update("\0").update(input.password).update("\0").update(new Date().toISOString().slice(0, 10));
  for (const f of fs.readdirSync(platformDir).filter((f) => f.endsWith(".sql")).sort()) {
    h.update(`\0platform:${f}\0`).update(fs.readFileSync(path.join(platformDir, f)));
  }
  for (const m of listMigrations(input.workdir)) h.update(`\0migration:${m.version}_${m.name}\0`).update(fs.readFileSync(m.file));
  for (const rel of input.seedPaths ?? []) {
    const file = path.resolve(input.workdir, "supabase", rel);
    h.update(`\0seed:${rel}\0`).update(fs.existsSync(file) ? fs.readFileSync(file) : "");
  }
  return h.digest("hex").slice(0, 24);
}

async function build(dir: string, input: TemplateInput, log: Logger): Promise<void> {
  const pgData = path.join(dir, "postgres");
  await initCluster(pgData, input.password, log);
  const pg = await startPostgres(pgData, await freePort(), input.password, log);
  try {
    await applyPlatform(pg.url, { authenticatorPassword: input.password });
    await applyMigrations(pg.url, input.workdir, log);
    if (input.seedPaths) await applySeed(pg.url, input.workdir, input.seedPaths, log);
  } finally {
    await pg.stop();
  }
}

function copyCluster(from: string, to: string) {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  const r = spawnSync("cp", ["-a", from, to], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`copying the database template failed: ${r.stderr || r.error?.message}`);
  makeTraversable(path.dirname(to));
}

/**
 * Puts a ready cluster (platform, migrations and seed applied) at `pgData`, which must not
 * exist yet, building the template first when there is none. Returns false (and leaves
 * `pgData` alone) when templates are off or anything goes wrong: the caller then sets the
 * database up itself, as before.
 */
export async function restoreTemplate(pgData: string, input: TemplateInput, log: Logger): Promise<boolean> {
  if (!templatesEnabled() || fs.existsSync(path.join(pgData, "PG_VERSION"))) return false;
  const key = templateKey(input);
  const ready = path.join(root(), key);
  try {
    if (!fs.existsSync(path.join(ready, "postgres", "PG_VERSION"))) {
      fs.mkdirSync(root(), { recursive: true });
      // Templates from earlier days are dead weight (other checkouts may still use today's).
      for (const old of fs.readdirSync(root())) {
        const at = path.join(root(), old);
        if (old !== key && Date.now() - fs.statSync(at).mtimeMs > 24 * 3600_000) fs.rmSync(at, { recursive: true, force: true });
      }
      const building = path.join(root(), `.building-${process.pid}-${crypto.randomBytes(4).toString("hex")}`);
      log.info("building the database template", { key });
      try {
        await build(building, input, log);
        try {
          fs.renameSync(building, ready);
        } catch {
          // Another stack finished the same template first: use theirs.
        }
      } finally {
        fs.rmSync(building, { recursive: true, force: true });
      }
    }
    fs.rmSync(pgData, { recursive: true, force: true });
    copyCluster(path.join(ready, "postgres"), pgData);
    return true;
  } catch (e) {
    log.warn("database template not used", { error: (e as Error).message });
    fs.rmSync(pgData, { recursive: true, force: true });
    return false;
  }
}
