#!/usr/bin/env node
// Runs a command against a fresh stack of this repository (free ports, temporary
// data dir), with SUPABASE_URL, SUPABASE_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY,
// SUPABASE_DB_URL, SUPABASE_JWT_SECRET and PARLEY_MAILBOX_URL in its environment.
//   node scripts/with-stack.mjs -- <command> [args...]
// Extra environment for the stack's functions: variables named PARLEY_* pass through.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const sep = process.argv.indexOf("--");
const cmd = process.argv.slice(sep >= 0 ? sep + 1 : 2);
if (!cmd.length) {
  console.error("usage: node scripts/with-stack.mjs -- <command> [args...]");
  process.exit(2);
}

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-with-stack-"));
const [port, dbPort] = [await freePort(), await freePort()];
// PARLEY_STACK_NODE_ARGS: extra Node flags for the stack's process only (e.g. "--cpu-prof
// --cpu-prof-dir=/tmp/prof" to profile the gateway under a benchmark; NODE_OPTIONS refuses --cpu-prof).
const nodeArgs = (process.env.PARLEY_STACK_NODE_ARGS ?? "").split(/\s+/).filter(Boolean);
const stack = spawn(process.execPath, [...nodeArgs, path.join(root, "stack/bin/parley-stack.mjs"), "start", "--port", String(port), "--db-port", String(dbPort), "--data-dir", dataDir, "--quiet"], {
  cwd: root,
  stdio: ["ignore", "pipe", "inherit"],
});
let out = "";
stack.stdout.on("data", (d) => (out += d));
const ready = await new Promise((resolve) => {
  const t = setInterval(() => {
    if (out.includes("Parley stack is running")) {
      clearInterval(t);
      resolve(true);
    }
  }, 50);
  stack.on("exit", () => {
    clearInterval(t);
    resolve(false);
  });
});
if (!ready) {
  console.error(`the stack did not start:\n${out}`);
  process.exit(1);
}
const field = (label) => new RegExp(`${label}: (\\S+)`).exec(out)?.[1] ?? "";
const env = {
  SUPABASE_URL: field("API URL"),
  SUPABASE_ANON_KEY: field("anon key"),
  SUPABASE_SERVICE_ROLE_KEY: field("service_role key"),
  SUPABASE_DB_URL: field("DB URL"),
  SUPABASE_JWT_SECRET: field("JWT secret"),
  PARLEY_MAILBOX_URL: `${field("API URL")}/mail`,
};
const child = spawn(cmd[0], cmd.slice(1), { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
const code = await new Promise((resolve) => child.on("exit", (c) => resolve(c ?? 1)));
stack.kill("SIGTERM");
await new Promise((resolve) => stack.on("exit", resolve));
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(code);
