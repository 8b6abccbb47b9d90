#!/usr/bin/env node
// Test-run benchmark: the wall time of a 100-case run of the `tests` function with the extractive
// default, on a fresh stack (scripts/with-stack.mjs). Method and results: README.md, results.md.
// Run from the repo root: `node bench/tests/run.mjs`. Env: CASES (100), RUNS (3), CHUNKS (200).
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const deno = path.join(root, "node_modules", "deno", "deno");
const child = spawn(
  process.execPath,
  [path.join(root, "scripts/with-stack.mjs"), "--", deno, "run", "--no-config", "--node-modules-dir=none", "--allow-all", path.join(here, "bench.ts")],
  { cwd: root, stdio: "inherit", env: { ...process.env, DENO_DIR: process.env.DENO_DIR ?? path.join(root, ".cache", "deno"), NO_COLOR: "1" } },
);
child.on("exit", (code) => process.exit(code ?? 1));
