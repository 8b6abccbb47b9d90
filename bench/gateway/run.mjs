#!/usr/bin/env node
// Requests per second of a typical owner query under RLS: through the stack's
// gateway (gateway → PostgREST → Postgres) against the same SQL sent straight
// through `pg` with the same role and JWT claims. See README.md for the method.
//   node bench/gateway/run.mjs [--seconds 10] [--concurrency 16]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { register } from "tsx/esm/api";
register();

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const arg = (name, d) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : d;
};
const seconds = arg("seconds", 10);
const concurrency = arg("concurrency", 16);

const { startStack } = await import(path.join(root, "stack/src/stack.ts"));
const { freePort } = await import(path.join(root, "stack/src/net.ts"));
const { signJwt } = await import(path.join(root, "stack/src/keys.ts"));
const pg = (await import("pg")).default;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-bench-gw-"));
const stack = await startStack({
  workdir: root,
  port: await freePort(),
  dbPort: await freePort(),
  dataDir,
  quiet: true,
  noSchedules: true,
});

// The seeded owner and their team (supabase/seed.sql).
const admin = new pg.Client({ connectionString: stack.dbUrl });
await admin.connect();
const owner = (await admin.query("select id, email from auth.users where email = 'owner@parley.test'")).rows[0];
const team = (
  await admin.query(
    "select team_id from public.team_members where user_id = $1 and role = 'owner' order by created_at limit 1",
    [owner.id],
  )
).rows[0];
// A realistic amount of data: 200 bots in the owner's team, 2,000 in other teams (on the
// business plan, which sets no bot limit: the free plan would stop at 3).
await admin.query("update public.teams set plan_id = 'business' where id = $1", [team.team_id]);
await admin.query(
  `insert into public.bots (team_id, name, description)
  select $1, 'Bench bot ' || g, 'Benchmark bot' from generate_series(1, 200) g`,
  [team.team_id],
);
await admin.query(`with t as (insert into public.teams (name, slug, plan_id) select 'Other ' || g, 'other-' || g, 'business' from generate_series(1, 100) g returning id)
  insert into public.bots (team_id, name) select t.id, 'Foreign bot ' || g from t, generate_series(1, 20) g`);
await admin.query("analyze");
await admin.end();

const claims = { sub: owner.id, role: "authenticated", aud: "authenticated", email: owner.email };
const token = await signJwt(stack.keys.jwtSecret, claims, 3600);
const restPath = `/rest/v1/bots?select=id,name,visibility,updated_at&team_id=eq.${team.team_id}&order=updated_at.desc&limit=50`;
const sql =
  "select id, name, visibility, updated_at from public.bots where team_id = $1 order by updated_at desc limit 50";

/**
 * CPU time (ms) the stack's processes used, from /proc: the bench's main thread (the gateway and
 * the rest of the stack's Node side; the load thread is not counted), PostgREST, and Postgres (the
 * postmaster and every backend). Busy time per request does not depend on what else the machine
 * runs the way requests per second do.
 */
function cpuMs() {
  const tick = 1000 / 100; // USER_HZ
  const stat = (file) => {
    const s = fs.readFileSync(file, "utf8");
    const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
    return {
      ppid: Number(f[1]),
      cpu: (Number(f[11]) + Number(f[12])) * tick,
      name: s.slice(s.indexOf("(") + 1, s.lastIndexOf(")")),
    };
  };
  const procs = new Map();
  for (const d of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      procs.set(Number(d), stat(`/proc/${d}/stat`));
    } catch {
      // gone meanwhile
    }
  }
  const out = { gateway: stat(`/proc/${process.pid}/task/${process.pid}/stat`).cpu, postgrest: 0, postgres: 0 };
  const under = (pid, root) => {
    for (let p = pid; p > 1; p = procs.get(p)?.ppid ?? 0) if (p === root) return true;
    return false;
  };
  for (const [pid, p] of procs) {
    if (!under(pid, process.pid) || pid === process.pid) continue;
    if (p.name === "postgrest") out.postgrest += p.cpu;
    else if (p.name.startsWith("postgres")) out.postgres += p.cpu;
  }
  return out;
}

/** Runs one phase in the load thread (load.mjs): 2 s warm-up, then `seconds` counted. */
function runFor(label, data) {
  return new Promise((resolve, reject) => {
    const w = new Worker(path.join(here, "load.mjs"), {
      workerData: { ...data, concurrency, warmupMs: 2000, measureMs: seconds * 1000 },
    });
    let before;
    w.on("message", (m) => {
      if (m.measuring) {
        before = cpuMs();
        return;
      }
      if (m.closed) return;
      const after = cpuMs();
      const { n, rows } = m;
      const rps = n / seconds;
      const perK = Object.fromEntries(
        Object.keys(after).map((k) => [k, Math.round(((after[k] - before[k]) / n) * 1000)]),
      );
      console.log(
        `${label}: ${rps.toFixed(0)} req/s (${n} requests, ${rows} rows each); CPU ms per 1,000 requests: ${JSON.stringify(perK)}`,
      );
      w.postMessage("close");
      w.once("exit", () => resolve({ rps, rows, cpuPerThousand: perK }));
    });
    w.once("error", reject);
  });
}

const g = await runFor("gateway (PostgREST, RLS)", {
  mode: "gateway",
  apiUrl: stack.apiUrl,
  path: restPath,
  headers: { apikey: stack.keys.anonKey, authorization: `Bearer ${token}` },
});
const d = await runFor("direct pg (same role + claims)", {
  mode: "direct",
  dbUrl: stack.dbUrl,
  sql,
  params: [team.team_id],
  claims,
});
await stack.stop();
fs.rmSync(dataDir, { recursive: true, force: true });

if (g.rows !== d.rows) throw new Error(`row counts differ: gateway ${g.rows}, direct ${d.rows}`);
const ratio = g.rps / d.rps;
const result = {
  date: new Date().toISOString(),
  cpus: os.cpus().length,
  cpu: os.cpus()[0]?.model,
  node: process.version,
  seconds,
  concurrency,
  gateway_rps: Math.round(g.rps),
  direct_rps: Math.round(d.rps),
  gateway_cpu_ms_per_1000: g.cpuPerThousand,
  direct_cpu_ms_per_1000: d.cpuPerThousand,
  load_average: os.loadavg().map((l) => Number(l.toFixed(2))),
  ratio: Number(ratio.toFixed(2)),
  target: 0.6,
  met: ratio >= 0.6,
};
console.log(JSON.stringify(result, null, 2));
fs.mkdirSync(path.join(here, "results"), { recursive: true });
fs.writeFileSync(path.join(here, "results", "latest.json"), JSON.stringify(result, null, 2) + "\n");
