#!/usr/bin/env node
// bench/ingest's questions as a Parley test suite (ingest-suite.ts) on a fresh stack
// (scripts/with-stack.mjs); the functions may fetch 127.0.0.1, where the documentation is served.
// Run from the repo root: `node bench/tests/ingest-suite.mjs`. Env: DOCS, TOP_K (5). Method: README.md.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const deno = path.join(root, "node_modules", "deno", "deno");
const child = spawn(
  process.execPath,
  [path.join(root, "scripts/with-stack.mjs"), "--", deno, "run", "--no-config", "--node-modules-dir=none", "--allow-all", path.join(here, "ingest-suite.ts")],
  {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, PARLEY_FETCH_ALLOW_PRIVATE: "1", DENO_DIR: process.env.DENO_DIR ?? path.join(root, ".cache", "deno"), NO_COLOR: "1" },
  },
);
child.on("exit", (code) => process.exit(code ?? 1));
