#!/usr/bin/env node
// Ingestion benchmark: crawl and index the PostgreSQL 15 HTML documentation
// (Debian's postgresql-doc-15, ~1,170 pages) served on 127.0.0.1 through the
// real `ingest` edge function of a fresh stack, then measure recall@5 of
// public.match_chunks on bench/ingest/questions.json. Writes
// bench/ingest/results.json. Then re-syncs the unchanged site twice: once with a server that
// ignores conditional requests (every page downloaded again, as before issue 17), once with
// one that answers them like nginx (ETag / Last-Modified, 304). Not part of `npm test`.
//   node bench/ingest/run.mjs [--max-pages N] [--delay-ms N] [--concurrency N] [--crawl-only]
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { evaluate } from "./retrieval.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const require = createRequire(path.join(root, "stack/package.json"));
const pg = require("pg");
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const MAX_PAGES = arg("max-pages", 2000);
const DELAY_MS = arg("delay-ms", 0);
const CONCURRENCY = arg("concurrency", 2);
const loadAvg = () => os.loadavg().map((l) => Number(l.toFixed(2)));
const loadAtStart = loadAvg();
const DOCS = "/usr/share/doc/postgresql-doc-15/html";

// 1. the documentation ---------------------------------------------------------
if (!fs.existsSync(path.join(DOCS, "index.html"))) {
  console.log("installing postgresql-doc-15 (Debian) ...");
  const show = spawnSync("apt-cache", ["show", "postgresql-doc-15"], { stdio: "ignore" });
  if (show.status !== 0) throw new Error("postgresql-doc-15 is not available from apt");
  const r = spawnSync("apt-get", ["install", "-y", "-q", "postgresql-doc-15"], {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  if (r.status !== 0) throw new Error("apt-get install postgresql-doc-15 failed");
}
const types = { ".html": "text/html; charset=utf-8", ".css": "text/css", ".svg": "image/svg+xml", ".png": "image/png" };
// What the site served: full answers, 304s and body bytes. `conditional` off: the server
// ignores If-None-Match / If-Modified-Since (still sending its validators).
const served = { full: 0, notModified: 0, bytes: 0, conditional: true };
const site = http.createServer((req, res) => {
  const p = decodeURIComponent(new URL(req.url, "http://x").pathname);
  const file = path.join(DOCS, path.normalize(p === "/" ? "/index.html" : p));
  if (!file.startsWith(DOCS) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
    res.writeHead(404).end("not found");
    return;
  }
  const stat = fs.statSync(file);
  // nginx's validators: ETag "<mtime hex>-<size hex>", Last-Modified at one-second precision
  const etag = `"${Math.floor(stat.mtimeMs / 1000).toString(16)}-${stat.size.toString(16)}"`;
  const lastModified = new Date(Math.floor(stat.mtimeMs / 1000) * 1000).toUTCString();
  const since = Date.parse(req.headers["if-modified-since"] ?? "");
  const fresh = req.headers["if-none-match"]
    ? req.headers["if-none-match"] === etag
    : !Number.isNaN(since) && since >= Math.floor(stat.mtimeMs / 1000) * 1000;
  const headers = { etag, "last-modified": lastModified };
  if (served.conditional && fresh) {
    served.notModified++;
    res.writeHead(304, headers).end();
    return;
  }
  served.full++;
  served.bytes += stat.size;
  res.writeHead(200, { ...headers, "content-type": types[path.extname(file)] ?? "application/octet-stream" });
  fs.createReadStream(file).pipe(res);
});
await new Promise((r) => site.listen(0, "127.0.0.1", r));
const siteUrl = `http://127.0.0.1:${site.address().port}`;

// 2. a fresh stack -----------------------------------------------------------
const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-bench-ingest-"));
const [port, dbPort] = [await freePort(), await freePort()];
const stack = spawn(
  process.execPath,
  [
    path.join(root, "stack/bin/parley-stack.mjs"),
    "start",
    "--port",
    String(port),
    "--db-port",
    String(dbPort),
    "--data-dir",
    dataDir,
    "--quiet",
  ],
  {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, PARLEY_FETCH_ALLOW_PRIVATE: "1" },
  },
);
let out = "";
stack.stdout.on("data", (d) => (out += d));
const cleanup = () => {
  stack.kill("SIGTERM");
  site.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
};
process.on("SIGINT", () => {
  cleanup();
  process.exit(130);
});
for (let i = 0; !out.includes("Parley stack is running"); i++) {
  if (i > 1200 || stack.exitCode !== null) throw new Error(`the stack did not start:\n${out}`);
  await new Promise((r) => setTimeout(r, 50));
}
const field = (label) => new RegExp(`${label}: (\\S+)`).exec(out)?.[1] ?? "";
const api = field("API URL");
const anonKey = field("anon key");
const serviceKey = field("service_role key");
const dbUrl = field("DB URL");

// CPU time (ms, user + system, from /proc) of the stack's processes by role: the ingest worker
// (the Deno process serving supabase/functions/ingest), postgres, postgrest, the rest. On a
// shared machine CPU time per page separates the code's cost from the wait for a core.
const TICK_MS = 1000 / 100; // USER_HZ
function stackCpu() {
  const procs = new Map();
  for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
      const cwd = fs.readlinkSync(`/proc/${pid}/cwd`); // a function's worker runs in its folder
      procs.set(Number(pid), { ppid: Number(f[1]), ms: (Number(f[11]) + Number(f[12])) * TICK_MS, cmd, cwd });
    } catch {
      // gone meanwhile
    }
  }
  const under = (pid) => {
    for (let p = pid; p > 1; p = procs.get(p)?.ppid ?? 0) if (p === stack.pid) return true;
    return false;
  };
  const cpu = { ingest: 0, postgres: 0, postgrest: 0, other: 0 };
  for (const [pid, p] of procs) {
    if (!under(pid)) continue;
    const role = /functions\/ingest$/.test(p.cwd)
      ? "ingest"
      : /postgres[:\s]|bin\/postgres/.test(p.cmd) && !/postgrest/.test(p.cmd)
        ? "postgres"
        : /postgrest/.test(p.cmd)
          ? "postgrest"
          : "other";
    cpu[role] += p.ms;
  }
  return cpu;
}
const cpuSince = (before) =>
  Object.fromEntries(Object.entries(stackCpu()).map(([k, v]) => [k, Math.round(v - before[k])]));

async function call(method, p, { token = anonKey, body, prefer } = {}) {
  const res = await fetch(`${api}${p}`, {
    method,
    headers: {
      apikey: anonKey,
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      ...(prefer ? { prefer } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const data = text ? JSON.parse(text) : null;
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return data;
}

try {
  // 3. an owner, a team, a bot and a web source --------------------------------
  const email = `bench-${Date.now()}@parley.test`;
  const password = "bench-password-123";
  await call("POST", "/auth/v1/admin/users", { token: serviceKey, body: { email, password, email_confirm: true } });
  const session = await call("POST", "/auth/v1/token?grant_type=password", { body: { email, password } });
  const token = session.access_token;
  const team = await call("POST", "/rest/v1/rpc/create_team", { token, body: { name: "Bench" } });
  // the free plan stores 1,000,000 characters (PT402 past it); the docs need ~16 MB: business has no limit
  await call("PATCH", `/rest/v1/teams?id=eq.${team.id}`, { token: serviceKey, body: { plan_id: "business" } });
  const [bot] = await call("POST", "/rest/v1/bots", {
    token,
    body: { team_id: team.id, name: "PostgreSQL docs", language: "en" },
    prefer: "return=representation",
  });
  const [source] = await call("POST", "/rest/v1/data_sources", {
    token,
    prefer: "return=representation",
    body: {
      bot_id: bot.id,
      type: "web",
      name: "PostgreSQL 15 documentation",
      settings: {
        url: `${siteUrl}/index.html`,
        max_depth: 10,
        max_pages: MAX_PAGES,
        delay_ms: DELAY_MS,
        concurrency: CONCURRENCY,
        use_sitemap: false,
      },
    },
  });

  // 4. crawl + index, timed --------------------------------------------------------
  console.log(`crawling ${siteUrl} (max ${MAX_PAGES} pages, delay ${DELAY_MS} ms, concurrency ${CONCURRENCY}) ...`);
  const sync = async () => {
    const cpu0 = stackCpu();
    const t0 = performance.now();
    const { job_id } = await call("POST", `/functions/v1/ingest/sources/${source.id}/sync`, { token, body: {} });
    let job;
    for (;;) {
      [job] = await call("GET", `/rest/v1/ingestion_jobs?id=eq.${job_id}&select=*`, { token: serviceKey });
      if (!["queued", "running"].includes(job.status)) break;
      process.stdout.write(`\r  ${job.progress_done}/${job.progress_total} pages`);
      await new Promise((r) => setTimeout(r, 250));
    }
    return { job, seconds: (performance.now() - t0) / 1000, cpu_ms: cpuSince(cpu0), load_avg: loadAvg() };
  };
  const { job, seconds, cpu_ms, load_avg } = await sync();
  const firstServed = { full: served.full, bytes: served.bytes };
  const [src] = await call("GET", `/rest/v1/data_sources?id=eq.${source.id}&select=document_count,chunk_count,status`, {
    token: serviceKey,
  });
  console.log(
    `\n  job ${job.status}: ${src.document_count} documents, ${src.chunk_count} chunks in ${seconds.toFixed(1)} s`,
  );
  for (const e of job.errors.filter((e) => e.level === "error").slice(0, 5)) console.log(`  error: ${JSON.stringify(e)}`);

  // 4b. re-sync of the unchanged site: without and with conditional requests --------------
  const resync = {};
  for (const conditional of [false, true]) {
    Object.assign(served, { full: 0, notModified: 0, bytes: 0, conditional });
    const run = await sync();
    const label = conditional ? "conditional" : "unconditional";
    resync[label] = {
      status: run.job.status,
      seconds: Number(run.seconds.toFixed(1)),
      share_of_first_crawl: Number((run.seconds / seconds).toFixed(3)),
      cpu_ms: run.cpu_ms,
      full_downloads: served.full,
      not_modified: served.notModified,
      bytes: served.bytes,
    };
    console.log(`\n  re-sync (${label}): ${JSON.stringify(resync[label])}`);
  }

  const crawl = {
    pages_requested_max: MAX_PAGES,
    delay_ms: DELAY_MS,
    concurrency: CONCURRENCY,
    bytes_served: firstServed.bytes,
    status: job.status,
    documents: src.document_count,
    chunks: src.chunk_count,
    seconds: Number(seconds.toFixed(1)),
    pages_per_second: Number((src.document_count / seconds).toFixed(2)),
    // pages per second of the ingest worker's own CPU time (what the code costs, load aside)
    pages_per_worker_cpu_second: Number((src.document_count / (cpu_ms.ingest / 1000)).toFixed(1)),
    cpu_ms,
    load_avg_at_end: load_avg,
    job_errors: job.errors.length,
  };
  console.log(`  crawl: ${JSON.stringify(crawl)}`);
  if (process.argv.includes("--crawl-only")) {
    // the crawl and re-sync measures alone (no retrieval, results.json untouched)
    const out = {
      date: new Date().toISOString(),
      machine: { cpus: os.cpus().length, load_avg_start: loadAtStart, load_avg_end: loadAvg() },
      crawl,
      resync,
    };
    fs.writeFileSync(path.join(root, "bench/ingest/crawl.json"), JSON.stringify(out, null, 2) + "\n");
    console.log("  wrote bench/ingest/crawl.json");
    cleanup();
    process.exit(0);
  }

  // 5. retrieval quality (retrieval.mjs) ----------------------------------------------------
  const retrieval = await evaluate((q) =>
    call("POST", "/rest/v1/rpc/match_chunks", { token, body: { p_bot_id: bot.id, p_query: q, p_match_count: 20 } }),
  );
  console.log(
    `  recall@5 ${retrieval.recall_at_5}, first place ${retrieval.first_place}, MRR ${retrieval.mrr_at_20} (${retrieval.questions} questions), match_chunks p50 ${retrieval.latency_ms_p50} ms`,
  );
  for (const [group, r] of Object.entries(retrieval.groups)) console.log(`    ${group}: ${JSON.stringify(r)}`);
  if (retrieval.judged)
    console.log(
      `  judged (judgments.json): recall@5 ${retrieval.judged.recall_at_5}, first place ${retrieval.judged.first_place}, MRR ${retrieval.judged.mrr_at_20}`,
    );

  // 6. the plans of the two ranked lists (indexes used?) ---------------------------------
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  const plan = async (sql, params) =>
    (await client.query(`explain (analyze, costs off, timing off, summary on) ${sql}`, params)).rows
      .map((r) => r["QUERY PLAN"])
      .join("\n");
  await client.query("set pg_trgm.word_similarity_threshold = 0.3");
  const q = "recursive common table expressions";
  const ftsPlan = await plan(
    `select c.id from public.chunks c where c.bot_id = $1 and c.fts @@ (select string_agg(quote_literal(l), ' | ')::tsquery from unnest(tsvector_to_array(to_tsvector('english', $2))) l)
     order by ts_rank_cd(c.fts, to_tsquery('english', 'recurs | common | tabl | express'), 32) desc limit 50`,
    [bot.id, q],
  );
  const trgmPlan = await plan(
    `select c.id from public.chunks c where c.bot_id = $1 and $2 operator(extensions.<%) c.content order by extensions.word_similarity($2, c.content) desc limit 50`,
    [bot.id, q],
  );
  await client.end();

  const results = {
    date: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      model: os.cpus()[0]?.model,
      memory_gb: Math.round(os.totalmem() / 1e9),
      load_avg_start: loadAtStart,
      load_avg_end: loadAvg(),
    },
    crawl,
    resync,
    retrieval,
    plans: { full_text: ftsPlan, trigram: trgmPlan },
  };
  fs.writeFileSync(path.join(root, "bench/ingest/results.json"), JSON.stringify(results, null, 2) + "\n");
  console.log("  wrote bench/ingest/results.json");
  if (process.argv.includes("--hold")) {
    // keep the stack and the site up (for tuning against the same index) until Ctrl-C
    const info = { api, anonKey, serviceKey, dbUrl, token, bot_id: bot.id, source_id: source.id, site: siteUrl };
    fs.writeFileSync("/tmp/bench-ingest-hold.json", JSON.stringify(info, null, 2));
    console.log("  holding; connection details in /tmp/bench-ingest-hold.json (Ctrl-C ends)");
    await new Promise(() => {});
  }
} finally {
  cleanup();
}
