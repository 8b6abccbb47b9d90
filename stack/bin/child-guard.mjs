#!/usr/bin/env node
// Kills the stack's children when the stack dies, however it dies (kill -9 included).
// The stack starts one guard with a pipe on its stdin and tells it, one line each,
// which processes to stop and how:
//   watch <pid> <signal> <grace ms>   stop <pid> with <signal>, SIGKILL after <grace ms>
//   forget <pid>                      the process has ended or was stopped by the stack
// When the pipe closes (the stack has exited: the kernel closes its end) the guard stops
// every watched process and exits. It uses no modules beyond Node's own and starts
// detached in its own process group, so a Ctrl-C meant for the stack does not end it first.
import { isRunning } from "./process-state.mjs";

const watched = new Map();
const parent = process.ppid;

for (const sig of ["SIGINT", "SIGHUP"]) process.on(sig, () => {});

let buf = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buf += chunk;
  let i;
  while ((i = buf.indexOf("\n")) >= 0) {
    const [cmd, pidText, signal, grace] = buf.slice(0, i).trim().split(/\s+/);
    buf = buf.slice(i + 1);
    const pid = Number(pidText);
    if (!Number.isInteger(pid) || pid <= 1) continue;
    if (cmd === "watch") watched.set(pid, { signal: signal || "SIGTERM", grace: Number(grace) || 5000 });
    else if (cmd === "forget") watched.delete(pid);
  }
});
process.stdin.on("end", stopAll);
process.stdin.on("close", stopAll);
process.stdin.on("error", stopAll);
// Should the pipe stay open for another reason, a new parent means the stack is gone.
setInterval(() => {
  if (process.ppid !== parent) stopAll();
}, 1000).unref();

let stopping = false;
function stopAll() {
  if (stopping) return;
  stopping = true;
  const started = Date.now();
  for (const [pid, w] of watched) {
    try {
      process.kill(pid, w.signal);
    } catch {
      watched.delete(pid);
    }
  }
  const timer = setInterval(() => {
    for (const [pid, w] of watched) {
      if (!isRunning(pid)) watched.delete(pid);
      else if (Date.now() - started >= w.grace) {
        try {
          process.kill(pid, "SIGKILL");
        } catch { /* gone */ }
        watched.delete(pid);
      }
    }
    if (watched.size === 0) {
      clearInterval(timer);
      process.exit(0);
    }
  }, 50);
}
