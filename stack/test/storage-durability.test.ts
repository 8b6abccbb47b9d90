// Storage durability: files survive a restart, and a stack killed with -9 in the
// middle of an upload comes back with neither a row nor a (partial) file for it.
// Each test runs its own stack on its own data dir, besides the shared one.
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createClient } from "@supabase/supabase-js";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { loadKeys } from "../src/keys.ts";
import { freePort } from "../src/net.ts";
import { startStack, type RunningStack } from "../src/stack.ts";
import { fixtureDir, nodeClientOptions } from "./helpers.ts";

const cli = fileURLToPath(new URL("../bin/parley-stack.mjs", import.meta.url));
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

function tempDataDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-storage-"));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function start(dataDir: string): Promise<RunningStack> {
  const stack = await startStack({ workdir: fixtureDir, port: await freePort(), dbPort: await freePort(), dataDir, quiet: true, noSeed: true });
  cleanups.push(() => stack.stop());
  return stack;
}

function serviceFor(apiUrl: string, serviceRoleKey: string) {
  return createClient(apiUrl, serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false }, ...nodeClientOptions });
}

async function query<R extends pg.QueryResultRow>(dbUrl: string, text: string, values?: unknown[]) {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

async function until<T>(what: string, fn: () => Promise<T | undefined> | T | undefined, ms = 90_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("storage durability", () => {
  it("keeps files across a restart and sweeps what a crash left behind", async () => {
    const dataDir = tempDataDir();
    const bytes = crypto.randomBytes(256 * 1024);
    let stack = await start(dataDir);
    let client = serviceFor(stack.apiUrl, stack.keys.serviceRoleKey);
    expect((await client.storage.createBucket("keep", { public: false })).error).toBeNull();
    expect((await client.storage.from("keep").upload("dir/file.bin", bytes, { contentType: "application/octet-stream" })).error).toBeNull();
    await stack.stop();

    // what an interrupted upload and an uncommitted version look like on disk
    const keyDir = path.join(dataDir, "storage", "keep", "dir", "file.bin");
    const temp = path.join(keyDir, `.${crypto.randomUUID()}.part`);
    const orphan = path.join(keyDir, crypto.randomUUID());
    const strayDir = path.join(dataDir, "storage", "keep", "never", "committed.bin");
    fs.writeFileSync(temp, "half a file");
    fs.writeFileSync(orphan, "a version no row points at");
    fs.mkdirSync(strayDir, { recursive: true });
    fs.writeFileSync(path.join(strayDir, `.${crypto.randomUUID()}.part`), "x");

    stack = await start(dataDir);
    client = serviceFor(stack.apiUrl, stack.keys.serviceRoleKey);
    const down = await client.storage.from("keep").download("dir/file.bin");
    expect(down.error).toBeNull();
    expect(Buffer.from(await down.data!.arrayBuffer()).equals(bytes)).toBe(true);
    expect(fs.existsSync(temp)).toBe(false);
    expect(fs.existsSync(orphan)).toBe(false);
    expect(fs.existsSync(path.join(dataDir, "storage", "keep", "never"))).toBe(false);
    expect(fs.readdirSync(keyDir)).toHaveLength(1);
  }, 180_000);

  it("a kill -9 in the middle of an upload leaves no row and no file for it", async () => {
    const dataDir = tempDataDir();
    const port = await freePort();
    const dbPort = await freePort();
    let child: ChildProcess | null = spawn(
      process.execPath,
      [cli, "start", "--workdir", fixtureDir, "--port", String(port), "--db-port", String(dbPort), "--data-dir", dataDir, "--quiet", "--no-seed"],
      { stdio: "ignore" },
    );
    cleanups.push(() => {
      if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    });
    const apiUrl = `http://127.0.0.1:${port}`;
    await until("the stack to be healthy", async () => {
      const res = await fetch(`${apiUrl}/health`).catch(() => null);
      return res?.ok ? true : undefined;
    });
    const keys = await loadKeys(dataDir, "parley");
    const client = serviceFor(apiUrl, keys.serviceRoleKey);
    expect((await client.storage.createBucket("crash", { public: false })).error).toBeNull();
    expect((await client.storage.from("crash").upload("done.txt", Buffer.from("committed"), { contentType: "text/plain" })).error).toBeNull();

    // A slow streamed upload: one chunk now, the rest never comes.
    const req = http.request({
      host: "127.0.0.1", port, method: "POST", path: "/storage/v1/object/crash/big/upload.bin",
      headers: { apikey: keys.serviceRoleKey, authorization: `Bearer ${keys.serviceRoleKey}`, "content-type": "application/octet-stream", "transfer-encoding": "chunked" },
    });
    req.on("error", () => {});
    req.write(crypto.randomBytes(64 * 1024));
    const keyDir = path.join(dataDir, "storage", "crash", "big", "upload.bin");
    await until("the upload's temp file", () => filesUnder(keyDir).find((f) => f.endsWith(".part") && fs.statSync(f).size > 0));

    child.kill("SIGKILL");
    await new Promise<void>((r) => (child!.exitCode !== null || child!.signalCode !== null ? r() : child!.once("exit", () => r())));
    child = null;
    req.destroy();

    const stack = await start(dataDir);
    const rows = await query(stack.dbUrl, "select name from storage.objects where bucket_id = 'crash' order by name");
    expect(rows).toEqual([{ name: "done.txt" }]);
    expect(fs.existsSync(path.join(dataDir, "storage", "crash", "big"))).toBe(false);
    expect(filesUnder(path.join(dataDir, "storage")).filter((f) => f.endsWith(".part"))).toEqual([]);
    const done = await serviceFor(stack.apiUrl, stack.keys.serviceRoleKey).storage.from("crash").download("done.txt");
    expect(await done.data!.text()).toBe("committed");
  }, 180_000);
});
