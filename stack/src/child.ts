// A supervised child process: output to the log, restarted when it dies unexpectedly,
// stopped with SIGTERM then SIGKILL. Every child is also watched by the child guard
// (bin/child-guard.mjs), which stops it should the stack die without stopping it.
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import type { Socket } from "node:net";
import { fileURLToPath } from "node:url";
import type { Logger } from "./log.ts";

const GUARD_SCRIPT = fileURLToPath(new URL("../bin/child-guard.mjs", import.meta.url));

/**
 * One small guard process per stack process: it reads a pipe from this process and, when
 * the pipe closes (this process has exited, kill -9 included), stops every child it was
 * told about. Children are registered by pid with the signal that stops them cleanly.
 */
export class ChildGuard {
  private proc?: ChildProcess;
  private readonly watched = new Map<number, string>();

  /** Has the guard stop `pid` with `signal` (SIGKILL after `graceMs`) should this process die. */
  watch(pid: number | undefined, signal: NodeJS.Signals = "SIGTERM", graceMs = 5000) {
    if (!pid) return;
    const line = `watch ${pid} ${signal} ${graceMs}\n`;
    this.watched.set(pid, line);
    this.send(line);
  }

  /** The child has ended (or the stack stopped it): the guard must not signal its pid again. */
  forget(pid: number | undefined) {
    if (!pid || !this.watched.delete(pid)) return;
    this.send(`forget ${pid}\n`);
  }

  get pid(): number | undefined {
    return this.proc?.pid;
  }

  private send(line: string) {
    if (!this.proc) this.start();
    this.proc?.stdin?.write(line);
  }

  private start() {
    const proc = spawn(process.execPath, [GUARD_SCRIPT], { stdio: ["pipe", "ignore", "ignore"], detached: true });
    this.proc = proc;
    // Neither the guard nor its pipe may keep this process alive.
    proc.unref();
    (proc.stdin as Socket | null)?.unref();
    proc.stdin?.on("error", () => {});
    proc.on("exit", () => {
      if (this.proc !== proc) return;
      this.proc = undefined;
      // The guard was killed on its own: start another and tell it everything again.
      if (this.watched.size) for (const line of this.watched.values()) this.send(line);
    });
  }
}

export const childGuard = new ChildGuard();

export interface SupervisedOptions {
  name: string;
  cmd: string;
  args: string[];
  options?: SpawnOptions;
  log: Logger;
  restart?: boolean;
  onExit?: (code: number | null, signal: NodeJS.Signals | null) => void;
  onLine?: (line: string, stream: "stdout" | "stderr") => void;
}

export class Supervised {
  child?: ChildProcess;
  private stopping = false;
  private restarts: number[] = [];
  constructor(private readonly o: SupervisedOptions) {}

  start(): ChildProcess {
    const child = spawn(this.o.cmd, this.o.args, { stdio: ["ignore", "pipe", "pipe"], ...this.o.options });
    this.child = child;
    childGuard.watch(child.pid);
    for (const stream of ["stdout", "stderr"] as const) {
      let buf = "";
      // Inherited stdio (Vite in dev) has no pipe to read.
      child[stream]?.on("data", (d: Buffer) => {
        buf += d.toString();
        let i;
        while ((i = buf.indexOf("\n")) >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          this.o.onLine?.(line, stream);
          if (line.trim()) this.o.log.debug(line);
        }
      });
    }
    child.on("error", (e) => this.o.log.error(`${this.o.name} could not start: ${e.message}`));
    child.on("exit", (code, signal) => {
      childGuard.forget(child.pid);
      child.stdout?.destroy();
      child.stderr?.destroy();
      this.o.onExit?.(code, signal);
      if (this.stopping || !this.o.restart) return;
      const now = Date.now();
      this.restarts = this.restarts.filter((t) => now - t < 60_000);
      this.restarts.push(now);
      if (this.restarts.length > 5) {
        this.o.log.error(`${this.o.name} keeps crashing (exit ${code ?? signal}); not restarting`);
        return;
      }
      this.o.log.warn(`${this.o.name} exited (${code ?? signal}); restarting`);
      setTimeout(() => !this.stopping && this.start(), 500);
    });
    return child;
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once("exit", () => r()));
    child.kill("SIGTERM");
    const t = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(t);
  }
}
