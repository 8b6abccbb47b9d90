// Small HTTP helpers shared by the gateway and the services the stack implements.
import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Copies an upstream response's body to `res` as `up.pipe(res)` does (same chunks, same
 * back-pressure), but the chunks that arrive together go out in one write, and the last of
 * them carries the end of the answer (for a chunked answer its terminating chunk): one socket
 * write per response fewer than pipe, whose end always follows as a write of its own.
 */
export function forwardBody(up: IncomingMessage, res: ServerResponse) {
  let queued: Buffer[] = [];
  const take = () => {
    const data = queued.length === 1 ? queued[0]! : Buffer.concat(queued);
    queued = [];
    return data;
  };
  const flush = () => {
    if (queued.length === 0) return;
    const data = take();
    if (res.writableEnded || res.destroyed) return;
    // The whole body has been read and handed over (its last bytes are in `data`): answer and
    // end in one go.
    if (up.complete && up.readableLength === 0) return void res.end(data);
    if (!res.write(data)) {
      up.pause();
      res.once("drain", () => up.resume());
    }
  };
  up.on("data", (chunk: Buffer) => {
    // The parser reads the rest of what arrived (often the body's end) in this same tick.
    if (queued.push(chunk) === 1) process.nextTick(flush);
  });
  // 'end' can come before the flush (a body read whole before it started flowing).
  up.on("end", () => {
    if (res.writableEnded || res.destroyed) return;
    if (queued.length) res.end(take());
    else res.end();
  });
  // As pipe does: a stream paused before it was handed over starts flowing.
  if (!up.readableFlowing) up.resume();
}

export class HttpError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
    public readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** True while the request still has body bytes nobody has read. */
export function bodyUnread(req: IncomingMessage | undefined): boolean {
  if (!req || req.complete || req.readableEnded) return false;
  if (req.headers["transfer-encoding"] !== undefined) return true;
  const len = Number(req.headers["content-length"] ?? "0");
  return Number.isFinite(len) && len > 0;
}

/** How long a closing connection still takes (and discards) body bytes, as nginx's lingering close. */
const LINGER_MS = 2000;

/**
 * Closes the connection after this answer without reading the rest of the body into
 * anything: the write side is shut at once and what the client still sends is discarded
 * for at most LINGER_MS, so the client reads the answer instead of a reset.
 */
function lingerClose(res: ServerResponse) {
  const socket = res.socket;
  if (!socket) return;
  // Node ends a "Connection: close" answer with destroySoon(), which destroys the socket as
  // soon as the answer is flushed; unread bytes then make the kernel send a reset that can
  // overtake the answer.
  socket.destroySoon = function lingering(this: typeof socket) {
    this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once("close", () => clearTimeout(timer));
    this.resume();
  };
}

/**
 * Sends a JSON answer. An answer given before the request's body was read (a refusal of a
 * large upload) closes the connection instead of reading the rest of the body first.
 */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  if (res.headersSent) {
    res.end();
    return;
  }
  const data = Buffer.from(JSON.stringify(body));
  const unread = bodyUnread(res.req);
  if (unread) lingerClose(res);
  const close: Record<string, string> = unread ? { connection: "close" } : {};
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": String(data.length), ...close, ...headers });
  res.end(data);
}

/** Reads a request body up to `limit` bytes; a larger one is a 413. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? "0");
    if (declared > limit) {
      // Not read: the answer closes the connection (sendJson).
      reject(new HttpError(413, "payload_too_large", `Request body is larger than ${limit} bytes`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        req.removeAllListeners("data");
        req.pause();
        reject(new HttpError(413, "payload_too_large", `Request body is larger than ${limit} bytes`));
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    // A client that goes away mid-body (or whose body the parser refuses) is no server failure.
    req.on("error", (e: NodeJS.ErrnoException) =>
      reject(e.code === "ECONNRESET" ? new HttpError(400, "request_aborted", "The request was aborted before its body was complete") : e),
    );
  });
}

/** Parses a JSON object body; malformed JSON or a non-object is a 400. */
export async function readJson<T = Record<string, unknown>>(req: IncomingMessage, limit = 1024 * 1024): Promise<T> {
  const buf = await readBody(req, limit);
  if (buf.length === 0) return {} as T;
  let value: unknown;
  try {
    value = JSON.parse(buf.toString("utf8"));
  } catch {
    throw new HttpError(400, "bad_json", "Could not parse request body as JSON");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new HttpError(400, "bad_json", "Request body must be a JSON object");
  }
  return value as T;
}

export function bearer(req: IncomingMessage): string | undefined {
  const h = req.headers.authorization;
  if (!h) return undefined;
  const m = /^Bearer\s+(.+)$/i.exec(h.trim());
  return m ? m[1]!.trim() : undefined;
}

export function clientIp(req: IncomingMessage): string {
  const fwd = req.headers["x-forwarded-for"];
  const first = (Array.isArray(fwd) ? fwd[0] : fwd)?.split(",")[0]?.trim();
  return first || req.socket.remoteAddress || "unknown";
}
