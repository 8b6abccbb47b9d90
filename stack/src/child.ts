// A supervised child process: output to the log, restarted when it dies unexpectedly,
// stopped with SIGTERM then SIGKILL.
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import type { Logger } from "./log.ts";

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
