// One structured logger for every function: one JSON line per event on stderr, with the
// level, the function, the request id and the event's own fields. Hosted Supabase collects
// these lines in the function's logs; the local stack prints them.
export type LogLevel = "debug" | "info" | "warn" | "error";

export interface Logger {
  readonly fn: string;
  readonly requestId: string;
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** The same logger with fields added to every line (e.g. a job id). */
  with(fields: Record<string, unknown>): Logger;
}

/** The request id the platform gave the request (sb-request-id, x-request-id), else a new one. */
export function requestIdOf(req: Request | null): string {
  return req?.headers.get("sb-request-id")?.slice(0, 100) || req?.headers.get("x-request-id")?.slice(0, 100) ||
    crypto.randomUUID();
}

/** An error as a loggable string (its stack when it has one). */
export function describe(e: unknown): string {
  return String((e as Error)?.stack ?? e);
}

export function createLogger(fn: string, requestId: string = crypto.randomUUID(), base: Record<string, unknown> = {}): Logger {
  const write = (level: LogLevel, msg: string, fields: Record<string, unknown> = {}) => {
    const line = JSON.stringify({ time: new Date().toISOString(), level, fn, request_id: requestId, msg, ...base, ...fields });
    if (level === "error" || level === "warn") console.error(line);
    else console.log(line);
  };
  return {
    fn,
    requestId,
    debug: (msg, fields) => write("debug", msg, fields),
    info: (msg, fields) => write("info", msg, fields),
    warn: (msg, fields) => write("warn", msg, fields),
    error: (msg, fields) => write("error", msg, fields),
    with: (fields) => createLogger(fn, requestId, { ...base, ...fields }),
  };
}

/**
 * Keeps work alive after the answer was sent: EdgeRuntime.waitUntil on hosted Supabase, a plain
 * promise locally. A failure is logged under `event` (never thrown into nowhere).
 */
export function inBackground(work: Promise<unknown>, log: Logger, event = "background_work_failed"): void {
  const guarded = work.catch((e) => log.error(event, { error: describe(e) }));
  const runtime = (globalThis as { EdgeRuntime?: { waitUntil?: (p: Promise<unknown>) => void } }).EdgeRuntime;
  runtime?.waitUntil?.(guarded);
}
