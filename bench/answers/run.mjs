#!/usr/bin/env node
// Answer-quality benchmark of the extractive default (no model): see README.md.
//   node bench/answers/run.mjs            fresh stack, ingest, retrieve, ask, score
//   node bench/answers/run.mjs --score    score the stored passages.json again (no stack)
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
/** The extractive default before issue 15 (main at the time), scored as the baseline. */
const BASELINE_COMMIT = "1233b6c";

if (!process.argv.includes("--score")) {
  const r = spawnSync(
    process.execPath,
    [path.join(root, "scripts/with-stack.mjs"), "--", process.execPath, path.join(here, "measure.mjs")],
    { cwd: root, stdio: "inherit", env: { ...process.env, PARLEY_CHAT_USER_LIMIT: "1000000", PARLEY_CHAT_IP_LIMIT: "1000000" } },
  );
  if (r.status) process.exit(r.status);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "parley-bench-answers-"));
try {
  const baseline = spawnSync("git", ["show", `${BASELINE_COMMIT}:supabase/functions/_shared/providers/extractive.ts`], {
    cwd: root,
    encoding: "utf8",
  });
  if (baseline.status) throw new Error(baseline.stderr);
  const baselinePath = path.join(tmp, "baseline-extractive.ts");
  fs.writeFileSync(baselinePath, baseline.stdout.replace(/^import type .*$/m, ""));
  const r = spawnSync(
    path.join(root, "node_modules/deno/deno"),
    ["run", "--no-config", "--node-modules-dir=none", "--allow-read", "--allow-write", path.join(here, "score.ts"), baselinePath],
    { cwd: root, stdio: "inherit", env: { ...process.env, DENO_DIR: process.env.DENO_DIR ?? path.join(root, ".cache/deno") } },
  );
  process.exitCode = r.status ?? 1;
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
