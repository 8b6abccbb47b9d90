// The stack as a process: a clean stop leaves no children, a restart keeps
// committed data (also after kill -9), and conflicts give clear errors.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import pg from "pg";
import { isRunning } from "../bin/process-state.mjs";
import { freePort } from "../src/net.ts";
import { fixtureDir } from "./fixture.ts";

const cli = path.resolve(fixtureDir, "../../bin/parley-stack.mjs");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-sup-"));
const children: ChildProcess[] = [];

function startCli(port: number, dbPort: number, dir = dataDir): { child: ChildProcess; ready: Promise<void>; output: () => string; exit: Promise<number | null> } {
  const child = spawn(process.execPath, [cli, "start", "--workdir", fixtureDir, "--port", String(port), "--db-port", String(dbPort), "--data-dir", dir, "--no-seed"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exit = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  const ready = new Promise<void>((resolve, reject) => {
    const t = setInterval(() => {
      if (out.includes("Parley stack is running")) {
        clearInterval(t);
        resolve();
      }
    }, 50);
    exit.then((code) => {
      clearInterval(t);
      reject(new Error(`stack exited (${code}): ${out}`));
    });
  });
  ready.catch(() => {});
  return { child, ready, output: () => out, exit };
}

function runCli(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout!.on("data", (d) => (out += d));
    child.stderr!.on("data", (d) => (out += d));
    child.on("exit", (code) => resolve({ code, out }));
  });
}

function recordedPids(): number[] {
  const lock = JSON.parse(fs.readFileSync(path.join(dataDir, "stack.lock"), "utf8"));
  const pm = Number(fs.readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
  return [pm, ...lock.children];
}

async function waitUntil(check: () => boolean, ms = 15000) {
  const end = Date.now() + ms;
  while (Date.now() < end && !check()) await new Promise((r) => setTimeout(r, 100));
  return check();
}

async function query(dbPort: number, text: string) {
  const c = new pg.Client({ connectionString: `postgresql://postgres:postgres@127.0.0.1:${dbPort}/postgres` });
  await c.connect();
  try {
    return (await c.query(text)).rows;
  } finally {
    await c.end();
  }
}

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("stack supervision", () => {
  it("stops cleanly on SIGTERM, keeps data across restarts and recovers from kill -9", async () => {
    const [port, dbPort] = [await freePort(), await freePort()];
    const first = startCli(port, dbPort);
    await first.ready;
    await fetch(`http://127.0.0.1:${port}/functions/v1/crash`); // start a Deno worker too
    await query(dbPort, "create table if not exists public.kept (v text); insert into public.kept values ('committed')");
    const pids = recordedPids();
    expect(pids.length).toBeGreaterThanOrEqual(3); // postgres, postgrest, deno
    first.child.kill("SIGTERM");
    expect(await first.exit).toBe(0);
    expect(await waitUntil(() => pids.every((p) => !isRunning(p)))).toBe(true);

    const second = startCli(port, dbPort);
    await second.ready;
    expect(await query(dbPort, "select v from public.kept")).toEqual([{ v: "committed" }]);
    await query(dbPort, "insert into public.kept values ('before kill')");
    await fetch(`http://127.0.0.1:${port}/functions/v1/crash`);
    const orphans = recordedPids();
    expect(orphans.length).toBeGreaterThanOrEqual(3); // postgres, postgrest, deno
    second.child.kill("SIGKILL");
    await second.exit;
    // PostgreSQL, PostgREST and the Deno worker die with the stack (its child guard), not at the next start.
    expect(await waitUntil(() => orphans.every((p) => !isRunning(p)), 20_000)).toBe(true);

    // children of the killed stack are cleaned up by the next start (should any survive)
    const third = startCli(port, dbPort);
    await third.ready;
    const rows = await query(dbPort, "select v from public.kept order by v");
    expect(rows.map((r) => r.v)).toEqual(["before kill", "committed"]);
    const health = await (await fetch(`http://127.0.0.1:${port}/health`)).json();
    expect(health.ok).toBe(true);

    // the same data dir cannot be used twice at once
    const clash = startCli(await freePort(), await freePort());
    expect(await clash.exit).not.toBe(0);
    expect(clash.output()).toMatch(/in use by another Parley stack/);

    // a taken port is a clear error
    const portClash = startCli(port, await freePort(), fs.mkdtempSync(path.join(os.tmpdir(), "parley-sup2-")));
    expect(await portClash.exit).not.toBe(0);
    expect(portClash.output()).toMatch(/already in use/);

    // a crashed PostgreSQL is restarted by the running stack; REST works again with the data
    const postmaster = Number(fs.readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
    process.kill(postmaster, "SIGKILL");
    expect(
      await waitUntil(() => {
        try {
          const now = Number(fs.readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
          return now !== postmaster && isRunning(now);
        } catch {
          return false;
        }
      }, 60_000),
    ).toBe(true);
    let healthy = false;
    for (let i = 0; i < 100 && !healthy; i++) {
      healthy = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false);
      if (!healthy) await new Promise((r) => setTimeout(r, 200));
    }
    expect(healthy).toBe(true);
    expect((await query(dbPort, "select count(*)::int as n from public.kept"))[0].n).toBe(2);

    // `status` prints the running stack's URLs and keys, also as env lines
    const status = await runCli(["status", "--data-dir", dataDir, "--env"]);
    expect(status.code).toBe(0);
    expect(status.out).toContain(`SUPABASE_URL=http://127.0.0.1:${port}`);
    expect(status.out).toMatch(/SUPABASE_ANON_KEY=eyJ/);
    // db-reset refuses while the stack runs
    const busy = await runCli(["db-reset", "--workdir", fixtureDir, "--data-dir", dataDir]);
    expect(busy.code).not.toBe(0);
    expect(busy.out).toMatch(/Stop it first/);

    third.child.kill("SIGINT");
    expect(await third.exit).toBe(0);
    const stopped = await runCli(["status", "--data-dir", dataDir]);
    expect(stopped.code).not.toBe(0);

    // db-reset rebuilds from migrations: the table created by hand is gone, the fixture's tables are back
    const reset = await runCli(["db-reset", "--workdir", fixtureDir, "--data-dir", dataDir]);
    expect(reset.code, reset.out).toBe(0);
    const fourth = startCli(port, dbPort);
    await fourth.ready;
    expect(await query(dbPort, "select to_regclass('public.kept') as t, to_regclass('public.notebooks') as n")).toEqual([{ t: null, n: "notebooks" }]);
    fourth.child.kill("SIGTERM");
    expect(await fourth.exit).toBe(0);
  }, 180_000);
});
