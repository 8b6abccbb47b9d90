// Many visitors at once (issue 17): VISITORS (200) visitors, each its own anonymous user and
// address, send MESSAGES (3) messages each to one public extractive bot, all starting together;
// each visitor sends its next message (continuing its chat) as soon as the previous answer ended.
// Per message: the status, the first byte (`meta`), the first answer text (`token`) and the whole
// answer. Reports errors, messages per second and p50/p95 of each, and where the time went: CPU
// seconds per process of the stack (Postgres, PostgREST, Deno, the gateway) during the run, and
// what Postgres backends were waiting on (pg_stat_activity sampled every 100 ms).
// Runs under scripts/with-stack.mjs (commands in README.md). Env: VISITORS, MESSAGES, CORPUS
// (synthetic | postgres, corpus.mjs), CHUNKS (synthetic: 1000), WARMUP (0), RESULTS (results-load-<corpus>.md).
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { corpusQuestions } from "./corpus.mjs";
import { connectDb, extractiveBot, visitors } from "./fixtures.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));

const VISITORS = Number(process.env.VISITORS ?? 200);
const MESSAGES = Number(process.env.MESSAGES ?? 3);
const CORPUS = process.env.CORPUS ?? "synthetic";
const CHUNKS = Number(process.env.CHUNKS ?? 1000);
const { SUPABASE_URL: api, SUPABASE_ANON_KEY: anonKey } = process.env;

const db = await connectDb();

// An owner, a team on the business plan (6,000 answers a minute per bot, 100,000 a month), one bot.
const { bot, chunkCount } = await extractiveBot(db, "Load", CORPUS, CHUNKS);
const questions = corpusQuestions(CORPUS);

// The visitors: anonymous users (as signInAnonymously makes them), each with its own address.
const crowd = (await visitors(db, VISITORS)).map((v, i) => ({
  ...v,
  ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
}));

// The load client shares the machine's cores with the stack: node:http with kept-alive
// connections (cheaper than fetch), and the stream scanned only for what is measured.
const target = new URL(`${api}/functions/v1/chat`);
const agent = new http.Agent({ keepAlive: true, maxSockets: VISITORS });

/** One message; the chat id comes back in `meta`. */
function send(visitor, message, chatId) {
  const t0 = performance.now();
  const body = JSON.stringify({ bot_id: bot.id, message, ...(chatId ? { chat_id: chatId } : {}) });
  return new Promise((resolve) => {
    const failed = (e) => resolve({ ok: false, status: 0, error: String(e), chatId, full: performance.now() - t0 });
    const req = http.request(
      target,
      {
        method: "POST",
        agent,
        headers: {
          authorization: `Bearer ${visitor.token}`,
          apikey: anonKey,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          "x-forwarded-for": visitor.ip,
        },
      },
      (res) => {
        res.setEncoding("utf8");
        let text = "";
        let firstByte = null;
        let firstToken = null;
        res.on("data", (chunk) => {
          firstByte ??= performance.now() - t0;
          if (firstToken === null && (text.slice(-16) + chunk).includes("event: token"))
            firstToken = performance.now() - t0;
          text += chunk;
        });
        res.on("error", failed);
        res.on("end", () => {
          const full = performance.now() - t0;
          const ok = res.statusCode === 200 && text.includes("event: done");
          const meta = /event: meta\ndata: (.*)\n/.exec(text);
          // With PARLEY_CHAT_TIMINGS=1 (run it so): the engine's marks, ms from the request's start in the function.
          const timings = /^: timings (.*)$/m.exec(text);
          resolve({
            ok,
            status: res.statusCode,
            // An error after the stream started is an `error` event: its code.
            error: ok
              ? null
              : `${res.statusCode} ${/event: error\ndata: (.*)\n/.exec(text)?.[1] ?? text.replace(/\s+/g, " ").slice(0, 200)}`,
            chatId: meta ? JSON.parse(meta[1]).chat_id : chatId,
            firstByte,
            firstToken,
            full,
            stages: timings ? JSON.parse(timings[1]) : {},
          });
        });
      },
    );
    req.on("error", failed);
    req.end(body);
  });
}

// Where the time goes: CPU seconds of the stack's processes (the siblings under with-stack.mjs).
function stackCpu() {
  const ticks = {};
  const system = {};
  const children = new Map();
  for (const pid of fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const comm = stat.slice(stat.indexOf("(") + 1, close);
      const f = stat.slice(close + 2).split(" ");
      const ppid = Number(f[1]);
      const cpu = Number(f[11]) + Number(f[12]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push({ pid: Number(pid), comm, cpu, sys: Number(f[12]) });
    } catch {
      /* gone */
    }
  }
  const walk = (pid) => {
    for (const c of children.get(pid) ?? []) {
      if (c.pid === process.pid) continue;
      const name = /^postgres(?!t)/.test(c.comm) ? "postgres" : c.comm;
      ticks[name] = (ticks[name] ?? 0) + c.cpu;
      system[name] = (system[name] ?? 0) + c.sys;
      walk(c.pid);
    }
  };
  walk(process.ppid);
  return { ticks, system };
}

// What Postgres backends wait on while the visitors are answered.
const waits = {};
let samples = 0;
let activeSum = 0;
const sampler = await connectDb();
let sampling = true;
const sampling$ = (async () => {
  while (sampling) {
    const { rows } = await sampler.query(
      `select coalesce(wait_event_type || ':' || wait_event, 'CPU') as w, count(*)::int as n from pg_stat_activity
       where state = 'active' and pid <> pg_backend_pid() and backend_type = 'client backend' group by 1`,
    );
    samples++;
    for (const r of rows) {
      waits[r.w] = (waits[r.w] ?? 0) + r.n;
      activeSum += r.n;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
})();

// WARMUP (0 by default): that many other visitors first send one message each, not measured, so
// the run measures warm processes (JIT-compiled code, plan caches, pooled connections) as a
// server that has been up a while has them; 0 measures a stack that has just started.
const WARMUP = Number(process.env.WARMUP ?? 0);
if (WARMUP > 0) {
  const warm = (await visitors(db, WARMUP)).map((v, i) => ({
    ...v,
    ip: `11.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
  }));
  await Promise.all(warm.map((v, i) => send(v, questions[i % questions.length])));
}

// Time spent in each SQL function (self time, ms) while the visitors are answered.
await db.query("alter system set track_functions = 'all'");
await db.query("select pg_reload_conf()");
await new Promise((r) => setTimeout(r, 500));
const functionTimes = async () =>
  Object.fromEntries(
    (
      await db.query(
        "select schemaname || '.' || funcname as f, calls::float8 as calls, self_time::float8 as self, total_time::float8 as total from pg_stat_user_functions",
      )
    ).rows.map((r) => [r.f, r]),
  );
// Transactions (every PostgREST request is one) of the database while the visitors are answered.
const transactions = async () =>
  Number(
    (await db.query("select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()")).rows[0].n,
  );
// WAL flushes to disk (fsync; one per committing transaction unless commits share one).
const walSyncs = async () => Number((await db.query("select wal_sync::float8 as n from pg_stat_wal")).rows[0].n);
await new Promise((r) => setTimeout(r, 1100)); // statistics are flushed at most once a second
const functionsBefore = await functionTimes();
const transactionsBefore = await transactions();
const walSyncsBefore = await walSyncs();
const loadBefore = os.loadavg();
const cpuBefore = stackCpu();
const clientCpuBefore = process.cpuUsage();
const started = performance.now();
const results = await Promise.all(
  crowd.map(async (v, i) => {
    const out = [];
    let chatId = null;
    for (let m = 0; m < MESSAGES; m++) {
      const sentAt = performance.now() - started;
      const r = await send(v, questions[(i + m) % questions.length], chatId);
      chatId = r.chatId ?? chatId;
      out.push({ ...r, m, sentAt });
    }
    return out;
  }),
).then((r) => r.flat());
const wall = (performance.now() - started) / 1000;
const clientCpu = process.cpuUsage(clientCpuBefore);
const cpuAfter = stackCpu();
const loadAfter = os.loadavg();
sampling = false;
await sampling$;
await sampler.end();
await new Promise((r) => setTimeout(r, 1100)); // statistics are flushed at most once a second
const functionsAfter = await functionTimes();
// Less the sampler's own queries and this connection's two reads.
const transactionsRun = (await transactions()) - transactionsBefore - samples - 2;
const walSyncsRun = (await walSyncs()) - walSyncsBefore;
// The counters every turn updates, against what was stored: nothing lost or counted twice
// (where the database has pending counts, issue 17, with them).
const pendingOf = async (table, column, where) =>
  (await db.query(`select to_regclass('private.${table}') is not null as ok`)).rows[0].ok
    ? Number(
        (await db.query(`select coalesce(sum(${column}), 0) as n from private.${table} where ${where}`, [bot.id]))
          .rows[0].n,
      )
    : 0;
const {
  rows: [counts],
} = await db.query(
  `select (select count(*)::int from public.messages m where m.bot_id = $1) as messages,
          (select count(*)::int from public.messages m where m.bot_id = $1 and m.role = 'assistant' and m.error is null) as answers,
          (select c.message_count from public.channels c where c.bot_id = $1 and c.type = 'web') as web_count,
          (select u.messages from public.team_usage u join public.bots b on b.team_id = u.team_id where b.id = $1) as usage`,
  [bot.id],
);
const webPending = await pendingOf(
  "channel_turns_pending",
  "n",
  "channel_id = (select id from public.channels where bot_id = $1 and type = 'web')",
);
const usagePending = await pendingOf(
  "team_usage_pending",
  "messages",
  "team_id = (select team_id from public.bots where id = $1)",
);
await db.end();
agent.destroy();

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
const ok = results.filter((r) => r.ok);
const errors = results.filter((r) => !r.ok);
const row = (label, key) => {
  const xs = ok.map((r) => r[key]).filter((x) => typeof x === "number");
  return xs.length
    ? `| ${label} | ${pct(xs, 50).toFixed(0)} | ${pct(xs, 95).toFixed(0)} | ${Math.max(...xs).toFixed(0)} |`
    : `| ${label} | | | |`;
};
const hz = 100; // USER_HZ
// CPU per message (the steady measure on a shared machine: wall times depend on the other load).
const cpuSeconds = Object.keys(cpuAfter.ticks)
  .map((name) => [
    name,
    ((cpuAfter.ticks[name] ?? 0) - (cpuBefore.ticks[name] ?? 0)) / hz,
    ((cpuAfter.system[name] ?? 0) - (cpuBefore.system[name] ?? 0)) / hz,
  ])
  .filter(([, s]) => s > 0.05)
  .sort((a, b) => b[1] - a[1]);
cpuSeconds.push(["load client (this process)", (clientCpu.user + clientCpu.system) / 1e6, clientCpu.system / 1e6]);
const cpuTotal = cpuSeconds.reduce((t, [, s]) => t + s, 0);
const sysTotal = cpuSeconds.reduce((t, [, , k]) => t + k, 0);
// The kernel's part (system time: sockets, fsync, wake-ups) beside the whole.
const cpuRow = ([name, s, k]) =>
  `| ${name} | ${s.toFixed(1)} | ${((100 * s) / wall).toFixed(0)} % | ${((1000 * s) / results.length).toFixed(1)} | ${((1000 * k) / results.length).toFixed(1)} |`;
const cpuRows = [...cpuSeconds, ["**all**", cpuTotal, sysTotal]].map(cpuRow);
const waitRows = Object.entries(waits)
  .sort((a, b) => b[1] - a[1])
  .slice(0, 10)
  .map(([w, n]) => `| ${w} | ${(n / samples).toFixed(2)} |`);
const fnRows = Object.values(functionsAfter)
  .map((r) => {
    const b = functionsBefore[r.f] ?? { calls: 0, self: 0, total: 0 };
    return { f: r.f, calls: r.calls - b.calls, self: r.self - b.self, total: r.total - b.total };
  })
  .filter((r) => r.calls > 0)
  .sort((a, b) => b.self - a.self)
  .slice(0, 12)
  .map(
    (r) =>
      `| ${r.f} | ${r.calls} | ${(r.self / 1000).toFixed(1)} | ${(r.total / 1000).toFixed(1)} | ${(r.total / r.calls).toFixed(1)} |`,
  );
const byError = {};
for (const e of errors) byError[e.error.slice(0, 80)] = (byError[e.error.slice(0, 80)] ?? 0) + 1;

const report = [
  `Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), Node ${process.version}; load average before ${loadBefore.map((x) => x.toFixed(2)).join(" / ")}, after ${loadAfter.map((x) => x.toFixed(2)).join(" / ")}.`,
  `${VISITORS} visitors × ${MESSAGES} messages (each visitor's next message when its answer ended; one chat per visitor), one extractive bot, corpus ${CORPUS} (${chunkCount} chunks); ${WARMUP ? `after ${WARMUP} other visitors' messages, not measured (WARMUP)` : "on a stack that has just started (WARMUP=0)"}.`,
  "",
  `Messages: ${results.length}, errors: ${errors.length}, wall ${wall.toFixed(1)} s, **${(results.length / wall).toFixed(1)} messages/s**.`,
  ...Object.entries(byError).map(([e, n]) => `- ${n} × ${e}`),
  "",
  "| per message | p50 ms | p95 ms | max ms |",
  "| --- | ---: | ---: | ---: |",
  row("first byte (meta)", "firstByte"),
  row("first answer text (token)", "firstToken"),
  row("whole answer (done)", "full"),
  ...Array.from({ length: MESSAGES }, (_, m) => {
    const xs = ok.filter((r) => r.m === m);
    const sent = xs.map((r) => r.sentAt);
    return `| whole answer, message ${m + 1} of each visitor (sent ${pct(sent, 50).toFixed(0)} / ${pct(sent, 95).toFixed(0)} ms after the start) | ${pct(
      xs.map((r) => r.full),
      50,
    ).toFixed(0)} | ${pct(
      xs.map((r) => r.full),
      95,
    ).toFixed(0)} | ${Math.max(...xs.map((r) => r.full)).toFixed(0)} |`;
  }),
  ...[...new Set(ok.flatMap((r) => Object.keys(r.stages ?? {})))].map((stage) => {
    const xs = ok.map((r) => r.stages?.[stage]).filter((x) => typeof x === "number");
    return `| server: ${stage} done at (${xs.length}) | ${pct(xs, 50).toFixed(0)} | ${pct(xs, 95).toFixed(0)} | ${Math.max(...xs).toFixed(0)} |`;
  }),
  "",
  "| process | CPU s during the run | of one core | CPU ms per message | of which kernel (system) |",
  "| --- | ---: | ---: | ---: | ---: |",
  ...cpuRows,
  "",
  `Postgres transactions per message: ${(transactionsRun / results.length).toFixed(2)} (pg_stat_database, the sampler's queries taken out; every PostgREST request is one); WAL flushes (fsync) per message: ${(walSyncsRun / results.length).toFixed(2)} (pg_stat_wal).`,
  "",
  `Postgres: ${(activeSum / samples).toFixed(1)} active client backends on average (${samples} samples); what they were doing:`,
  "",
  "| wait (CPU = running) | backends on average |",
  "| --- | ---: |",
  ...waitRows,
  "",
  `Counters after the run: the web channel's message_count ${counts.web_count} + ${webPending} pending = ${counts.web_count + webPending} (messages stored: ${counts.messages}); team_usage ${counts.usage} + ${usagePending} pending = ${counts.usage + usagePending} (answers stored: ${counts.answers}).`,
  "",
  "SQL functions (pg_stat_user_functions, track_functions = all): the 12 with the most self time.",
  "",
  "| function | calls | self s | total s | total ms per call |",
  "| --- | ---: | ---: | ---: | ---: |",
  ...fnRows,
].join("\n");
console.log(report);
fs.writeFileSync(path.resolve(here, process.env.RESULTS ?? `results-load-${CORPUS}.md`), report + "\n");
