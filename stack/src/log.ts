// Structured, one-line logs: `{"t":..., "level":..., "svc":..., "msg":...}` when
// PARLEY_LOG=json, a readable line otherwise.
type Level = "debug" | "info" | "warn" | "error";
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const threshold = order[(process.env.PARLEY_LOG_LEVEL as Level) ?? "info"] ?? 20;
const json = process.env.PARLEY_LOG === "json";

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(svc: string): Logger;
}

export function createLogger(svc = "stack", quiet = false): Logger {
  const write = (level: Level, msg: string, fields?: Record<string, unknown>) => {
    if (quiet && level !== "error") return;
    if (order[level] < threshold) return;
    const line = json
      ? JSON.stringify({ t: new Date().toISOString(), level, svc, msg, ...fields })
      : `[${svc}] ${level === "info" ? "" : level.toUpperCase() + " "}${msg}${
          fields && Object.keys(fields).length ? " " + JSON.stringify(fields) : ""
        }`;
    (level === "error" || level === "warn" ? process.stderr : process.stdout).write(line + "\n");
  };
  return {
    debug: (m, f) => write("debug", m, f),
    info: (m, f) => write("info", m, f),
    warn: (m, f) => write("warn", m, f),
    error: (m, f) => write("error", m, f),
    child: (name) => createLogger(name, quiet),
  };
}
