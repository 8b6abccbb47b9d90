#!/usr/bin/env node
// Chat benchmark: time to the first streamed byte, to the first token and to
// the full answer through the real stack (gateway -> Deno `chat` -> PostgREST
// -> Postgres), for the extractive default and for a zero-latency local
// OpenAI-compatible server, on a bot with 10,000 generated chunks. Then weighs the
// JavaScript of the chat page, the embed and the widget loader in Chromium (page-weight.ts).
// Run from the repo root: `node bench/chat/run.mjs`
// Env: REQUESTS (50), WARMUP (5), CHUNKS (10000).
// Starts a fresh stack with scripts/with-stack.mjs (per-visitor limits raised so
// the benchmark measures the engine, not the rate limiter).
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const child = spawn(
  process.execPath,
  [path.join(root, "scripts/with-stack.mjs"), "--", process.execPath, path.join(here, "bench.mjs")],
  {
    cwd: root,
    stdio: "inherit",
    // The tool-call scenario's HTTP action calls a fake API on 127.0.0.1 (the dev setting allows it).
    env: {
      ...process.env,
      PARLEY_CHAT_USER_LIMIT: "1000000",
      PARLEY_CHAT_BOT_LIMIT: "1000000",
      PARLEY_FETCH_ALLOW_PRIVATE: "1",
    },
  },
);
child.on("exit", (code) => {
  if (code) process.exit(code);
  const weigh = spawn(process.execPath, ["--import", "tsx", path.join(here, "page-weight.ts")], {
    cwd: root,
    stdio: "inherit",
  });
  weigh.on("exit", (c) => process.exit(c ?? 1));
});
