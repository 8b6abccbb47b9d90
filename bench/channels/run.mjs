#!/usr/bin/env node
// node bench/channels/run.mjs: runs bench.ts with the repository's Deno (see README.md).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const deno = path.join(root, "node_modules", "deno", "deno");
const r = spawnSync(deno, ["run", "--no-config", "--node-modules-dir=none", "--allow-all", "bench/channels/bench.ts"], {
  cwd: root,
  stdio: "inherit",
  env: { DENO_DIR: path.join(root, ".cache", "deno"), NO_COLOR: "1", ...process.env },
});
process.exit(r.status ?? 1);
