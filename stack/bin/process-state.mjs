// Whether a process is still running, for the child guard and the tests (plain Node, no build).
import fs from "node:fs";

/** True while `pid` runs; an exited child that waits to be reaped (a zombie) no longer does. */
export function isRunning(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true;
  }
}
