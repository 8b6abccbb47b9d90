#!/usr/bin/env node
// `npm run bench -- <name> [args]`: runs one benchmark (each writes its own report).
//   gateway   REST under RLS vs direct SQL          bench/gateway/README.md
//   realtime  commit → delivery, 200 subscribers    bench/realtime/REPORT.md
//   ingest    crawl pages/s and recall@5            bench/ingest/REPORT.md
//   chat      first byte / full answer, 10k chunks  bench/chat/REPORT.md
//   channels  inbound event → reply, Slack/Telegram  bench/channels/README.md
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const names = fs.readdirSync(here).filter((d) => fs.existsSync(path.join(here, d, "run.mjs")));
const [name, ...args] = process.argv.slice(2);
if (!name || !names.includes(name)) {
  console.error(`usage: npm run bench -- <${names.join("|")}> [args]`);
  process.exit(2);
}
const r = spawnSync(process.execPath, [path.join(here, name, "run.mjs"), ...args], { stdio: "inherit", cwd: path.resolve(here, "..") });
process.exit(r.status ?? 1);
