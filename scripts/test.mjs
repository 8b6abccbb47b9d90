#!/usr/bin/env node
// `npm test`: installs what the tests need (Debian's chromium for browser tests,
// pgTAP from npm), then runs every suite against the real stack and prints one
// closing line "N passed, N failed". Exit code is non-zero when anything fails.
//
//   npm test                 all suites
//   npm test -- stack e2e    only the named suites (see SUITES below)
import { AsyncLocalStorage } from "node:async_hooks";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "parley-test-run-"));
const deno = path.join(root, "node_modules", "deno", "deno");
const denoEnv = {
  DENO_DIR: path.resolve(process.env.DENO_DIR ?? path.join(root, ".cache", "deno")),
  DENO_TLS_CA_STORE: process.env.DENO_TLS_CA_STORE ?? "mozilla,system",
  ...(process.env.NODE_EXTRA_CA_CERTS && !process.env.DENO_CERT ? { DENO_CERT: process.env.NODE_EXTRA_CA_CERTS } : {}),
  NO_COLOR: "1",
};

/** Stripe settings for the functions suite: a free local port the billing tests serve the fake Stripe on. */
async function stripeTestEnv() {
  const { createServer } = await import("node:net");
  const port = await new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
  return {
    PARLEY_STRIPE_API_BASE: `http://127.0.0.1:${port}`,
    PARLEY_STRIPE_SECRET_KEY: "sk_test_parley_functions",
    PARLEY_STRIPE_WEBHOOK_SECRET: "whsec_test_parley_functions",
  };
}

// While suites run side by side, each one's output is kept and printed whole when it ends.
const suiteOutput = new AsyncLocalStorage();

function run(cmd, args, { cwd = root, env = {}, capture = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    const onData = (stream) => (d) => {
      out += d;
      if (capture) return;
      const kept = suiteOutput.getStore();
      if (kept) kept.push(String(d));
      else stream.write(d);
    };
    child.stdout.on("data", onData(process.stdout));
    child.stderr.on("data", onData(process.stderr));
    child.on("close", (code, signal) => {
      if (code !== 0) {
        const line = `${path.basename(cmd)} ${args.filter((a) => !a.includes("/")).join(" ")}: exit ${code ?? signal}\n`;
        const kept = suiteOutput.getStore();
        if (kept) kept.push(line);
        else process.stderr.write(line);
      }
      resolve({ code, out });
    });
    child.on("error", (e) => resolve({ code: 1, out: String(e) }));
  });
}

function vitestCounts(file) {
  try {
    const r = JSON.parse(fs.readFileSync(file, "utf8"));
    return { passed: r.numPassedTests, failed: r.numFailedTests + (r.numTotalTestSuites && r.testResults.some((t) => t.status === "failed" && !t.assertionResults.length) ? 1 : 0) };
  } catch {
    return null;
  }
}

const vitest = (workspace) => async () => {
  const json = path.join(tmp, `${workspace}-vitest.json`);
  const { code } = await run(process.execPath, [path.join(root, "node_modules", "vitest", "vitest.mjs"), "run"], {
    cwd: path.join(root, workspace),
    env: { VITEST_JSON: json, ...denoEnv },
  });
  const counts = vitestCounts(json) ?? { passed: 0, failed: 1 };
  if (code !== 0 && counts.failed === 0) counts.failed = 1;
  return counts;
};

function ensureChromium() {
  const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(Boolean);
  if (candidates.some((c) => fs.existsSync(c))) return;
  console.log("Installing Debian's chromium for browser tests (apt-get)...");
  const sudo = process.getuid?.() === 0 ? [] : ["sudo"];
  const opts = { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } };
  const upd = spawnSync(sudo[0] ?? "apt-get", [...sudo.slice(1), ...(sudo.length ? ["apt-get"] : []), "update"], opts);
  const inst = spawnSync(sudo[0] ?? "apt-get", [...sudo.slice(1), ...(sudo.length ? ["apt-get"] : []), "install", "-y", "--no-install-recommends", "chromium", "fonts-noto-cjk", "fonts-dejavu-core"], opts);
  if (upd.status !== 0 || inst.status !== 0 || !fs.existsSync("/usr/bin/chromium")) {
    throw new Error("Could not install chromium. Install Debian's `chromium` package (or set CHROMIUM_PATH) and run again.");
  }
}

/** The `index.ts` of every function under the given folders (not `_shared`). */
function functionEntries(...dirs) {
  const entries = [];
  for (const dir of dirs) {
    for (const name of fs.existsSync(path.join(root, dir)) ? fs.readdirSync(path.join(root, dir)) : []) {
      const entry = path.join(dir, name, "index.ts");
      if (!name.startsWith("_") && fs.existsSync(path.join(root, entry))) entries.push(entry);
    }
  }
  return entries;
}

/**
 * Downloads every function's npm: packages into the Deno cache before the suites run, so
 * a fresh clone's first function call does not spend its start-up time on downloads.
 */
let denoWarm = null;
function warmDenoCache() {
  denoWarm ??= warmDenoCacheOnce();
  return denoWarm;
}
async function warmDenoCacheOnce() {
  const entries = functionEntries("supabase/functions", "stack/test/fixture/supabase/functions");
  const { code } = await run(deno, ["cache", "--no-config", "--node-modules-dir=none", ...entries], { env: denoEnv, capture: true });
  if (code !== 0) console.log("(deno cache reported a problem; functions will fetch what is missing on first use)");
}

// Browser specs: each file runs in its own `node --test` process with its own stack, taken
// from one queue. The e2e lane works through it; the other lane joins in when its own suites
// are done, so both cores stay busy to the end.
const e2e = {
  queue: null,
  opened: null,
  openedResolve: null,
  helpers: [],
  out: [],
  passed: 0,
  failed: 0,
  open(files) {
    this.queue = files;
    this.openedResolve?.();
  },
  whenOpen() {
    if (this.queue) return Promise.resolve();
    this.opened ??= new Promise((resolve) => (this.openedResolve = resolve));
    return this.opened;
  },
  flaky: [],
  async work() {
    for (let file = this.queue?.shift(); file; file = this.queue?.shift()) {
      let r = await this.runSpec(file);
      // A browser spec that fails runs once more on a fresh stack (CI=true or PARLEY_E2E_RETRY=1),
      // as Playwright's `retries` does; it counts as passed only if the whole file passes then, and
      // the first failure is printed and named in the summary as flaky, never hidden.
      if (r.failed && (process.env.CI === "true" || process.env.PARLEY_E2E_RETRY === "1")) {
        this.out.push(`\n--- ${file} (failed; running it once more)\n${r.out}`);
        this.flaky.push(file);
        r = await this.runSpec(file);
      }
      this.passed += r.passed;
      this.failed += r.failed;
      this.out.push(`\n--- ${file}\n${r.out}`);
    }
  },
  async runSpec(file) {
    const { code, out } = await run(process.execPath, ["--import", "tsx", "--test", "--test-reporter=spec", file], { env: denoEnv, capture: true });
    const passed = Number(/ℹ pass (\d+)/.exec(out)?.[1] ?? 0);
    const fail = Number(/ℹ fail (\d+)/.exec(out)?.[1] ?? (code === 0 ? 0 : 1));
    return { passed, failed: fail || (code !== 0 ? 1 : 0), out: `${out}${code !== 0 ? `${file}: exit ${code}\n` : ""}` };
  },
  /** The other lane's share: waits for the build, then takes files until none are left. */
  join() {
    const helper = this.whenOpen().then(() => this.work());
    this.helpers.push(helper);
    return helper;
  },
};

const SUITES = {
  // The committed generated files match the migrations: the Database type and the schema snapshot.
  types: async () => {
    let passed = 0;
    let failed = 0;
    for (const command of ["gen-types", "gen-schema"]) {
      const { code } = await run(process.execPath, ["stack/bin/parley-stack.mjs", command, "--check"]);
      if (code === 0) passed++;
      else failed++;
    }
    return { passed, failed };
  },
  typecheck: async () => {
    let failed = 0;
    for (const project of ["stack", "frontend"]) {
      if (!fs.existsSync(path.join(root, project, "tsconfig.json"))) continue;
      const { code } = await run(process.execPath, [path.join(root, "node_modules", "typescript", "bin", "tsc"), "-p", project]);
      if (code !== 0) failed++;
    }
    // The SDK (its tsconfig emits declarations for the package; here only checked).
    if ((await run(process.execPath, [path.join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "sdk", "--noEmit", "--emitDeclarationOnly", "false"])).code !== 0) failed++;
    // The edge functions, as Deno type-checks them (every entry point and what it imports).
    const { code } = await run(deno, ["check", "--no-config", "--node-modules-dir=none", "--quiet", ...functionEntries("supabase/functions")], { env: denoEnv });
    if (code !== 0) failed++;
    return { passed: failed ? 0 : 1, failed };
  },
  lint: async () => {
    const { code } = await run(process.execPath, [path.join(root, "node_modules", "eslint", "bin", "eslint.js"), "."]);
    return { passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1 };
  },
  pgtap: async () => {
    const { code, out } = await run(process.execPath, ["stack/bin/parley-stack.mjs", "db-test"]);
    const m = /pgTAP: (\d+) passed, (\d+) failed/.exec(out);
    return m ? { passed: Number(m[1]), failed: Number(m[2]) + (code !== 0 && m[2] === "0" ? 1 : 0) } : { passed: 0, failed: 1 };
  },
  // A database set up like a new hosted Supabase project; migrations pushed with the
  // Supabase CLI; pgTAP on a seeded and an empty database (stack/src/hosted-fidelity.ts).
  "hosted-fidelity": async () => {
    const { code, out } = await run(process.execPath, ["--import", "tsx", "stack/src/hosted-fidelity.ts"]);
    const m = /hosted-fidelity: (\d+) passed, (\d+) failed/.exec(out);
    return m ? { passed: Number(m[1]), failed: Number(m[2]) + (code !== 0 && m[2] === "0" ? 1 : 0) } : { passed: 0, failed: 1 };
  },
  stack: async () => {
    await warmDenoCache();
    return vitest("stack")();
  },
  functions: async () => {
    await warmDenoCache();
    // Function tests call the real functions on a fresh stack of this repository.
    const { code, out } = await run(process.execPath, ["scripts/with-stack.mjs", "--", deno, "test", "--no-config", "--node-modules-dir=none", "--allow-all", "--ignore=**/.cache,**/node_modules", "supabase/functions"], {
      env: { ...denoEnv, PARLEY_FETCH_ALLOW_PRIVATE: "1", PARLEY_ANALYTICS_RATE_LIMIT: "10000", PARLEY_TRUST_FORWARDED_FOR: "1", PARLEY_AUTH_RATE_LIMIT_HEADER: "x-forwarded-for",
        // A platform key that must never reach a team's own base URL (chat.test.ts checks).
        PARLEY_OPENAI_API_KEY: "sk-platform-test-only",
        // Stripe for billing's tests: the fake (e2e/lib/fakes/stripe.ts) the tests serve on this port.
        ...(await stripeTestEnv()) },
    });
    // Deno's last line: "ok | 184 passed (14 steps) | 0 failed (2m24s)" (steps are inside tests).
    const last = (out.split("\n").reverse().find((l) => /passed.*failed/.test(l)) ?? "").replace(/\(\d+ steps?\)/g, "");
    const m = /(\d+) passed[^\d]+(\d+) failed/.exec(last);
    return m ? { passed: Number(m[1]), failed: Number(m[2]) + (code !== 0 && m[2] === "0" ? 1 : 0) } : { passed: 0, failed: 1 };
  },
  frontend: vitest("frontend"),
  // @parley/sdk in Node against a local server speaking the API's wire format (the real-stack
  // SDK tests are Deno tests in supabase/functions/api, run by the functions suite).
  sdk: async () => {
    const files = fs.readdirSync(path.join(root, "sdk", "test")).filter((f) => f.endsWith(".test.ts")).map((f) => path.join("sdk", "test", f));
    const { code, out } = await run(process.execPath, ["--import", "tsx", "--test", "--test-reporter=spec", ...files]);
    const pass = Number(/ℹ pass (\d+)/.exec(out)?.[1] ?? 0);
    const fail = Number(/ℹ fail (\d+)/.exec(out)?.[1] ?? (code === 0 ? 0 : 1));
    return { passed: pass, failed: fail || (code !== 0 ? 1 : 0) };
  },
  e2e: async () => {
    if (!fs.existsSync(path.join(root, "e2e")) || !fs.readdirSync(path.join(root, "e2e")).some((f) => f.endsWith(".spec.ts"))) {
      return { passed: 0, failed: 0 };
    }
    ensureChromium();
    await warmDenoCache();
    const build = await run("npm", ["run", "build", "--workspace", "frontend"]);
    if (build.code !== 0) {
      e2e.open([]);
      return { passed: 0, failed: 1 };
    }
    // The longest specs first (by size), so the last ones to finish are short.
    const files = fs.readdirSync(path.join(root, "e2e")).filter((f) => f.endsWith(".spec.ts")).map((f) => path.join("e2e", f));
    // PARLEY_E2E_FILTER (a regular expression on the file name) narrows the run while developing.
    if (process.env.PARLEY_E2E_FILTER) files.splice(0, files.length, ...files.filter((f) => new RegExp(process.env.PARLEY_E2E_FILTER).test(f)));
    files.sort((a, b) => fs.statSync(path.join(root, b)).size - fs.statSync(path.join(root, a)).size);
    e2e.open(files);
    await e2e.work();
    // Wait for the other lane's share, if it joined.
    await Promise.all(e2e.helpers);
    const kept = suiteOutput.getStore();
    for (const chunk of e2e.out) {
      if (kept) kept.push(chunk);
      else process.stdout.write(chunk);
    }
    return { passed: e2e.passed, failed: e2e.failed };
  },
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith("-"));
const names = wanted.length ? wanted : Object.keys(SUITES);
for (const n of names) if (!SUITES[n]) {
  console.error(`Unknown suite "${n}". Suites: ${Object.keys(SUITES).join(", ")}`);
  process.exit(2);
}

// Two lanes side by side (PARLEY_TEST_SERIAL=1 runs one after another): the browser suite,
// which mostly waits on Chromium, beside everything else in order; when the other lane is
// done it takes browser specs from the same queue. Each suite's output is
// printed whole when it ends, so logs stay readable.
const serial = process.env.PARLEY_TEST_SERIAL === "1" || names.length < 2 || !names.includes("e2e");
const lanes = serial ? [names] : [names.filter((n) => n !== "e2e"), ["e2e"]];
const results = [];
let passed = 0;
let failed = 0;
const started = Date.now();

async function runSuite(name) {
  const t0 = Date.now();
  const kept = serial ? null : [];
  if (serial) console.log(`\n=== ${name} ===`);
  let r;
  try {
    r = await suiteOutput.run(kept, () => SUITES[name]());
  } catch (e) {
    (kept ?? []).push(`${name}: ${e.message}\n`);
    if (serial) console.error(`${name}: ${e.message}`);
    r = { passed: 0, failed: 1 };
  }
  if (kept) process.stdout.write(`\n=== ${name} ===\n${kept.join("")}`);
  results.push({ name, ...r, seconds: Math.round((Date.now() - t0) / 1000) });
  passed += r.passed;
  failed += r.failed;
}
await Promise.all(lanes.map(async (lane) => {
  for (const name of lane) await runSuite(name);
  if (!serial && !lane.includes("e2e")) await e2e.join();
}));
results.sort((a, b) => names.indexOf(a.name) - names.indexOf(b.name));
fs.rmSync(tmp, { recursive: true, force: true });
console.log("\nsuite            passed  failed  seconds");
for (const r of results) console.log(`${r.name.padEnd(15)} ${String(r.passed).padStart(7)} ${String(r.failed).padStart(7)} ${String(r.seconds).padStart(8)}`);
console.log(`total time ${Math.round((Date.now() - started) / 1000)} s\n`);
if (e2e.flaky.length) console.log(`flaky (failed once, then passed or failed again on a fresh stack; output above): ${e2e.flaky.join(", ")}\n`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed || passed === 0 ? 1 : 0);
