// Serves supabase/functions/<name>/index.ts with real Deno (the `deno` npm package),
// one process per function started on first use, like Supabase's Edge Runtime.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { childGuard } from "./child.ts";
import type { FunctionConfig } from "./config.ts";
import { forwardBody, sendJson } from "./http.ts";
import type { Logger } from "./log.ts";

import { packageDir } from "./packages.ts";
const bootstrap = path.join(path.dirname(fileURLToPath(import.meta.url)), "functions-bootstrap.ts");

export function denoBinary(): string {
  if (process.env.DENO_BIN) return process.env.DENO_BIN;
  const dir = packageDir("deno");
  const candidates = [path.join(dir, "deno"), path.join(dir, "bin", "deno")];
  for (const c of candidates) if (fs.existsSync(c)) return c;
  // The package's optional platform dependency holds the binary.
  const plat = `@deno/${process.platform}-${process.arch}${process.platform === "linux" ? "-glibc" : ""}`;
  return path.join(packageDir(plat), "deno");
}

/**
 * What a worker inherits from the stack's environment: the basics, plus proxy and
 * certificate settings so Deno can fetch npm: packages behind a proxy or private CA.
 * PARLEY_* settings are the functions' own (e.g. dev allow-lists, provider base URLs).
 * Everything else (the stack's own secrets) stays out, as in the Edge Runtime.
 */
function passThroughEnv(): Record<string, string> {
  const keep = /^(PATH|HOME|TMPDIR|LANG|TZ|HTTPS?_PROXY|NO_PROXY|https?_proxy|no_proxy|SSL_CERT_FILE|SSL_CERT_DIR|DENO_CERT|DENO_TLS_CA_STORE|NPM_CONFIG_REGISTRY|npm_config_registry|PARLEY_[A-Z0-9_]+)$/;
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && keep.test(k)) env[k] = v;
  // Trust the system's CAs too (a corporate proxy's CA is usually installed there).
  env.DENO_TLS_CA_STORE ??= "mozilla,system";
  if (!env.DENO_CERT && process.env.NODE_EXTRA_CA_CERTS) env.DENO_CERT = process.env.NODE_EXTRA_CA_CERTS;
  return env;
}

/** Where a worker listens: its Unix socket, or a loopback port. */
type Address = { socketPath: string } | { host: string; port: number };

interface Worker {
  proc: ChildProcess;
  address: Promise<Address>;
  /** The address once the worker reported it (requests then skip the start-up wait). */
  ready?: Address;
  /** Its Unix socket file, removed when it exits. */
  socket?: string;
  exited: boolean;
}

/**
 * A request body the gateway may send twice: one that came whole with a Content-Length up to
 * this size is read into memory first (JSON calls, chat messages); larger or chunked bodies
 * (uploads) stream through once.
 */
const REPLAYABLE_BODY_BYTES = 256 * 1024;

export interface FunctionsOptions {
  functionsDir: string;
  config: Record<string, FunctionConfig>;
  env: Record<string, string>;
  cacheDir: string;
  log: Logger;
  watch?: boolean;
  /** Wall-clock limit of one request, like the Edge Runtime's. */
  requestTimeoutMs?: number;
  /**
   * A directory (only the stack's user may open it) for the workers' Unix sockets: the gateway
   * reaches them there, which costs both sides less than loopback TCP. Without it (or where the
   * path would be too long for a socket address), each worker listens on a loopback port.
   */
  socketDir?: string;
}

export class FunctionsRuntime {
  private workers = new Map<string, Worker>();
  /** Called when a worker starts, so the stack can record its pid. */
  onWorkerStarted?: () => void;
  private watcher?: fs.FSWatcher;
  private stopped = false;
  private spawned = 0;

  constructor(private readonly o: FunctionsOptions) {
    if (o.watch && fs.existsSync(o.functionsDir)) {
      this.watcher = fs.watch(o.functionsDir, { recursive: true }, () => this.reloadAll());
    }
    // After the stack has wired its callbacks (next tick), boot the visitor's functions.
    setImmediate(() => this.warm());
  }

  /**
   * The functions a visitor's first message needs, booted when the stack starts (and again after
   * a reload) instead of on that message: a Deno worker's cold start takes seconds.
   * PARLEY_WARM_FUNCTIONS: comma-separated names (default "chat"); empty turns warming off.
   */
  private warmNames(): string[] {
    const names = process.env.PARLEY_WARM_FUNCTIONS ?? "chat";
    return names.split(",").map((n) => n.trim()).filter((n) => n && this.exists(n));
  }

  /** Starts the workers of `names` and sends each one preflight request so its handler is loaded too. */
  warm(names = this.warmNames()) {
    for (const name of names) {
      if (this.stopped) return;
      const w = this.worker(name);
      w.address
        .then((address) => {
          const req = http.request({ ...address, method: "OPTIONS", path: `/${name}` }, (res) => res.resume());
          req.on("error", () => {});
          req.end();
        })
        .catch((e: Error) => this.o.log.warn(`warming function ${name} failed`, { error: e.message }));
    }
  }

  list(): string[] {
    if (!fs.existsSync(this.o.functionsDir)) return [];
    return fs
      .readdirSync(this.o.functionsDir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && !d.name.startsWith("_") && !d.name.startsWith("."))
      .filter((d) => fs.existsSync(this.entry(d.name)))
      .map((d) => d.name);
  }

  private entry(name: string): string {
    const custom = this.o.config[name]?.entrypoint;
    return custom ? path.resolve(this.o.functionsDir, "..", custom) : path.join(this.o.functionsDir, name, "index.ts");
  }

  exists(name: string): boolean {
    return /^[A-Za-z0-9_-]+$/.test(name) && !name.startsWith("_") && fs.existsSync(this.entry(name));
  }

  verifyJwt(name: string): boolean {
    return this.o.config[name]?.verify_jwt !== false;
  }

  private reloadTimer?: NodeJS.Timeout;
  private reloadAll() {
    clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => {
      for (const [name, w] of this.workers) {
        this.o.log.info(`reloading function ${name}`);
        w.proc.kill("SIGTERM");
      }
      this.workers.clear();
      this.warm();
    }, 100);
  }

  private spawnWorker(name: string): Worker {
    const log = this.o.log;
    const denoJson = ["deno.json", "deno.jsonc"].map((f) => path.join(this.o.functionsDir, f)).find((f) => fs.existsSync(f));
    const args = ["run", "--allow-all", "--no-prompt", "--quiet", "--node-modules-dir=none"];
    if (denoJson) args.push(`--config=${denoJson}`);
    else args.push("--no-config");
    const envFile = path.join(this.o.functionsDir, ".env");
    if (fs.existsSync(envFile)) args.push(`--env-file=${envFile}`);
    args.push(bootstrap);
    const socket = this.socketFor();
    const proc = spawn(denoBinary(), args, {
      cwd: path.join(this.o.functionsDir, name),
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...passThroughEnv(),
        DENO_DIR: this.o.cacheDir,
        DENO_NO_UPDATE_CHECK: "1",
        NO_COLOR: "1",
        ...this.o.env,
        PARLEY_FUNCTION_ENTRY: "file://" + this.entry(name),
        ...(socket ? { PARLEY_FUNCTION_SOCKET: socket } : {}),
        SB_EXECUTION_ID: name,
      },
    });
    childGuard.watch(proc.pid);
    const worker: Worker = { proc, address: Promise.resolve({ host: "127.0.0.1", port: 0 }), socket, exited: false };
    worker.address = new Promise<Address>((resolve, reject) => {
      let buf = "";
      let errTail = "";
      const onLine = (line: string) => {
        const m = /^PARLEY_FUNCTION_READY (\d+|unix)$/.exec(line.trim());
        if (m) {
          worker.ready = m[1] === "unix" && socket ? { socketPath: socket } : { host: "127.0.0.1", port: Number(m[1]) };
          resolve(worker.ready);
        }
        else if (line.trim() === "PARLEY_FUNCTION_NO_SERVE") reject(new Error(`function ${name} did not call Deno.serve`));
        else if (line.trim()) log.info(`${name}: ${line}`);
      };
      proc.stdout!.on("data", (d: Buffer) => {
        buf += d.toString();
        let i;
        while ((i = buf.indexOf("\n")) >= 0) {
          onLine(buf.slice(0, i));
          buf = buf.slice(i + 1);
        }
      });
      proc.stderr!.on("data", (d: Buffer) => {
        const text = d.toString();
        errTail = (errTail + text).slice(-4000);
        for (const line of text.split("\n")) if (line.trim()) log.warn(`${name}: ${line}`);
      });
      proc.on("exit", (code, signal) => {
        childGuard.forget(proc.pid);
        worker.exited = true;
        if (socket) fs.rmSync(socket, { force: true });
        proc.stdout?.destroy();
        proc.stderr?.destroy();
        if (this.workers.get(name) === worker) this.workers.delete(name);
        reject(new Error(`function ${name} exited (${code ?? signal}) before it was ready${errTail ? ": " + errTail.trim().split("\n").slice(-3).join(" | ") : ""}`));
      });
      proc.on("error", reject);
    });
    worker.address.catch(() => {});
    return worker;
  }

  /** A fresh socket path for a new worker of `name` (none: a loopback port). */
  private socketFor(): string | undefined {
    if (!this.o.socketDir) return undefined;
    const file = path.join(this.o.socketDir, `fn-${process.pid}-${++this.spawned}.sock`);
    if (Buffer.byteLength(file) > 100) return undefined;
    fs.mkdirSync(this.o.socketDir, { recursive: true, mode: 0o700 });
    fs.rmSync(file, { force: true });
    return file;
  }

  private worker(name: string): Worker {
    let w = this.workers.get(name);
    if (!w || w.exited) {
      w = this.spawnWorker(name);
      this.workers.set(name, w);
      this.onWorkerStarted?.();
    }
    return w;
  }

  /** Proxies one request to the function; `subpath` is what follows /functions/v1. */
  async handle(name: string, subpath: string, body: NodeJS.ReadableStream, req: http.IncomingMessage, res: http.ServerResponse, headers: http.OutgoingHttpHeaders) {
    const w = this.worker(name);
    let address: Address;
    try {
      let timer: NodeJS.Timeout | undefined;
      address = w.ready ?? await Promise.race([
        w.address,
        new Promise<Address>((_, reject) => {
          timer = setTimeout(() => reject(new Error("function did not start within 60 s")), 60_000);
        }),
      ]).finally(() => clearTimeout(timer));
    } catch (e) {
      this.o.log.error(`function ${name} failed to start`, { error: (e as Error).message });
      req.resume();
      sendJson(res, 503, { code: "BOOT_ERROR", message: "Function failed to start (please check logs)" });
      return;
    }
    // A small whole body (or none: no Content-Length and not chunked) is read first, so the
    // request can be sent again (below).
    const declared = req.headers["content-length"];
    const length = declared === undefined ? (req.headers["transfer-encoding"] === undefined ? 0 : NaN) : Number(declared);
    let whole: Buffer | null = null;
    if (Number.isInteger(length) && length <= REPLAYABLE_BODY_BYTES) {
      try {
        whole = await readWhole(body);
      } catch {
        if (!res.headersSent) sendJson(res, 400, { code: "BAD_REQUEST", message: "The request body could not be read" });
        return;
      }
    }
    let sent = 0;
    await new Promise<void>((resolve) => {
      const send = () => {
        sent++;
        const upstream = http.request(
          { ...address, method: req.method, path: subpath, headers },
          (up) => {
            res.writeHead(up.statusCode ?? 502, up.headers);
            forwardBody(up, res);
            up.on("end", resolve);
            up.on("error", () => { res.destroy(); resolve(); });
          },
        );
        const timeout = setTimeout(() => {
          upstream.destroy(new Error("wall clock limit reached"));
        }, this.o.requestTimeoutMs ?? 400_000);
        // A limit, not work: a request still open when the stack stops must not keep the process
        // alive until it fires (a browser spec's process lingered 6 1/2 minutes after its tests).
        timeout.unref();
        // The caller went away (a closed tab, an aborted fetch): drop our side of the request. The
        // worker lives on, as on hosted Supabase, where background work (EdgeRuntime.waitUntil)
        // outlives the request: the reset this causes below is ours, not the worker dying.
        let callerGone = false;
        const onClose = () => {
          clearTimeout(timeout);
          if (!res.writableFinished) {
            callerGone = true;
            upstream.destroy();
          }
          resolve();
        };
        res.on("close", onClose);
        upstream.on("error", (e: NodeJS.ErrnoException) => {
          clearTimeout(timeout);
          if (callerGone) return resolve();
          const alive = !w.exited && w.proc.exitCode === null && w.proc.signalCode === null;
          // A kept-alive connection the worker closed just as this request went out (the
          // keep-alive race): nothing reached the function. A body in memory is sent once more
          // on a new connection; the worker is not to blame.
          const raced = alive && upstream.reusedSocket && !res.headersSent && (e.code === "ECONNRESET" || e.code === "EPIPE" || /socket hang up/.test(e.message));
          if (raced && whole && sent < 2) {
            res.off("close", onClose);
            return send();
          }
          this.o.log.warn(`function ${name} request failed`, { error: e.message });
          const reset = e.code === "ECONNRESET" || e.code === "EPIPE" || /socket hang up/.test(e.message);
          // A refused connection means the worker is gone; a reset, that it died or is dying (its
          // exit may not have been reported yet: it gets a moment to be). A dead worker is retired
          // now so the next request starts a fresh one; a live one is kept (the reset was then one
          // connection's end, not the worker's).
          void (reset && alive ? exitsWithin(w.proc, 250) : Promise.resolve(!alive || !reset)).then((gone) => {
            const died = w.exited || e.code === "ECONNREFUSED" || e.code === "ENOENT" || (reset && gone);
            if (died) this.retire(name, w);
            if (!res.headersSent) {
              sendJson(res, died ? 503 : 502, {
                code: died ? "WORKER_ERROR" : "FUNCTION_ERROR",
                message: died ? "Function exited while handling the request" : `Function request failed: ${e.message}`,
              });
            } else res.destroy();
            resolve();
          });
        });
        if (whole) upstream.end(whole);
        else {
          body.on("error", () => upstream.destroy());
          body.pipe(upstream);
        }
      };
      send();
    });
  }

  private retire(name: string, w: Worker) {
    if (this.workers.get(name) === w) this.workers.delete(name);
    w.exited = true;
    w.proc.kill("SIGKILL");
  }

  pids(): number[] {
    return [...this.workers.values()].map((w) => w.proc.pid!).filter(Boolean);
  }

  running(): string[] {
    return [...this.workers.entries()].filter(([, w]) => !w.exited).map(([n]) => n);
  }

  async stop() {
    this.stopped = true;
    this.watcher?.close();
    await Promise.all(
      [...this.workers.values()].map(
        (w) =>
          new Promise<void>((resolve) => {
            if (w.exited) return resolve();
            w.proc.once("exit", () => resolve());
            w.proc.kill("SIGTERM");
            setTimeout(() => { w.proc.kill("SIGKILL"); }, 3000).unref();
          }),
      ),
    );
    this.workers.clear();
  }
}

/** Whether the process exits within `ms`. */
function exitsWithin(proc: ChildProcess, ms: number): Promise<boolean> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => { proc.off("exit", onExit); resolve(false); }, ms);
    const onExit = () => { clearTimeout(timer); resolve(true); };
    proc.once("exit", onExit);
  });
}

function readWhole(body: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    body.on("data", (d: Buffer | string) => parts.push(typeof d === "string" ? Buffer.from(d) : d));
    body.on("end", () => resolve(Buffer.concat(parts)));
    body.on("error", reject);
  });
}
