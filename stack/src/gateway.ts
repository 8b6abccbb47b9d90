// One port for every API, as Supabase's gateway (Kong) does: the host names it serves,
// CORS, API keys mapped to roles, bounded bodies (tighter for RPC calls and `select=`
// lists, which cost PostgREST time out of proportion to their size), and routing by path
// to PostgREST, Deno functions and the services the stack implements.
import http from "node:http";
import { Transform, type Duplex, type TransformCallback } from "node:stream";
import type { FunctionsRuntime } from "./functions.ts";
import { HttpError, bearer, forwardBody, readBody, sendJson } from "./http.ts";
import { JwtError, type ApiRole, type Claims, type Keys } from "./keys.ts";
import type { Logger } from "./log.ts";
import type { GatewayRequest, Service } from "./service.ts";

export interface GatewayOptions {
  keys: Keys;
  log: Logger;
  postgrestPort: () => number;
  /** PostgREST's Unix socket, when it serves on one (then used instead of the port). */
  postgrestSocket?: () => string | undefined;
  /** False while PostgREST cannot reach its database (REST then answers 503 at once). */
  restAvailable?: () => boolean;
  functions: FunctionsRuntime;
  services: Map<string, Service>;
  health: () => Promise<Record<string, unknown>>;
  /** Bytes a REST or function request body may have. */
  maxBodyBytes: number;
  /** Bytes a storage upload may have. */
  maxUploadBytes: number;
  /** Bytes a POST to /rest/v1/rpc/* may have. */
  maxRpcBodyBytes: number;
  /** Top-level keys (named arguments) an RPC body may have. */
  maxRpcArgs: number;
  /** Items (columns and embeds, counted by commas) a `select=` or `columns=` list may have. */
  maxSelectItems: number;
  /**
   * Host names (without port) the gateway answers for; anything else is refused, so a page
   * on another site that rebinds its DNS name to 127.0.0.1 cannot read the API or the mailbox.
   */
  allowedHosts: string[];
  /**
   * What the functions' verify_jwt gate lets through: "any" verified token (the default, as the
   * Supabase CLI's local runtime), or "legacy": only tokens signed with the HS256 secret, as hosted
   * Supabase's gate ("Verify JWT with legacy secret"), which refuses ES256/RS256 user tokens.
   */
  functionsJwtGate?: "any" | "legacy";
  /** How long a client may take to send its headers and its whole request (slow or half-open requests). */
  timeouts?: Partial<GatewayTimeouts>;
}

export interface GatewayTimeouts {
  /** Milliseconds from a request's first byte to the end of its headers. */
  headersMs: number;
  /** Milliseconds from a request's first byte to the end of its body (the answer may take longer). */
  requestMs: number;
  /** How often open connections are checked against the two limits. */
  checkEveryMs: number;
}

/**
 * Header and request timeouts, as nginx's client_header_timeout / client_body_timeout in front
 * of hosted Supabase: a client that opens a request and never finishes it (slowloris) is
 * answered 408 and disconnected instead of holding its connection forever. A 50 MiB upload
 * needs 420 KB/s to fit in two minutes; larger or slower uploads use the resumable endpoint.
 */
export const DEFAULT_TIMEOUTS: GatewayTimeouts = { headersMs: 30_000, requestMs: 120_000, checkEveryMs: 5_000 };

/** JSON answers for requests Node's HTTP parser refuses before the gateway sees them. */
function clientErrorAnswer(code: string | undefined): [number, string, string, string] {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return [431, "Request Header Fields Too Large", "request_header_fields_too_large", "The request's headers are too large"];
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return [408, "Request Timeout", "request_timeout", "The request was not received in time"];
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
    case "HPE_INVALID_CONTENT_LENGTH":
    case "HPE_UNEXPECTED_CONTENT_LENGTH":
      return [400, "Bad Request", "bad_request", "The request's body framing is invalid"];
    default:
      return [400, "Bad Request", "bad_request", "Malformed HTTP request"];
  }
}

/**
 * The request target as a URL, without the WHATWG parser's liberties: a backslash stays a
 * character of the path (%5C; `new URL` would turn it into "/", so `a\..\b` became `b`) and a
 * path starting with "//" stays a path (not a host). Null when it cannot be parsed.
 */
export function requestUrl(raw: string | undefined): URL | null {
  const target = raw || "/";
  try {
    if (!target.startsWith("/")) return new URL(target.replace(/\\/g, "%5C"), "http://gateway");
    const q = target.indexOf("?");
    const pathPart = q < 0 ? target : target.slice(0, q);
    return new URL(`http://gateway${pathPart.replace(/\\/g, "%5C")}${q < 0 ? "" : target.slice(q)}`);
  } catch {
    return null;
  }
}

/** The `alg` of a JWT's header ("" when it cannot be read). */
function jwtAlg(token: string): string {
  try {
    const header = JSON.parse(Buffer.from(token.split(".")[0] ?? "", "base64url").toString("utf8")) as { alg?: unknown };
    return typeof header.alg === "string" ? header.alg : "";
  } catch {
    return "";
  }
}

/** Seconds a client should wait before retrying when PostgREST or the database is down. */
export const RETRY_AFTER_UNAVAILABLE = 5;

const SERVICE_PREFIXES: Record<string, string> = {
  "/auth/v1": "auth",
  "/storage/v1": "storage",
  "/realtime/v1": "realtime",
  "/mail": "mail",
};

/** Auth paths hosted Supabase serves without an API key. */
const AUTH_OPEN_PATHS = /^\/(verify|callback|authorize|health|\.well-known\/jwks\.json)\/?$/;

const ALLOW_HEADERS =
  "authorization, x-client-info, apikey, content-type, content-profile, accept-profile, prefer, range, x-upsert, cache-control, x-supabase-api-version, x-region, x-retry-count";

export function corsHeaders(req: http.IncomingMessage): Record<string, string> {
  const origin = req.headers.origin;
  return {
    "access-control-allow-origin": origin ?? "*",
    ...(origin ? { "access-control-allow-credentials": "true", vary: "Origin" } : {}),
    "access-control-expose-headers":
      "content-range, content-location, content-length, content-disposition, content-type, etag, last-modified, preference-applied, range-unit, location, x-supabase-api-version, x-ratelimit-remaining, retry-after, x-relay-error",
  };
}

function preflight(req: http.IncomingMessage, res: http.ServerResponse) {
  res.writeHead(200, {
    ...corsHeaders(req),
    "access-control-allow-methods": "GET, HEAD, PUT, PATCH, POST, DELETE, OPTIONS",
    "access-control-allow-headers": (req.headers["access-control-request-headers"] as string) || ALLOW_HEADERS,
    "access-control-max-age": "3600",
    "content-length": "0",
  });
  res.end();
}

/** Passes a body through, failing once it grows past `limit` bytes. */
export class BodyLimit extends Transform {
  private size = 0;
  constructor(private readonly limit: number) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback) {
    this.size += chunk.length;
    if (this.size > this.limit) cb(new Error("payload too large"));
    else cb(null, chunk);
  }
}

/**
 * The caller's address for functions (rate limits): `x-real-ip` is the socket's address,
 * never what the client claims, unless PARLEY_TRUST_FORWARDED_FOR=1 says a trusted proxy
 * (or the test runner) sets X-Forwarded-For. X-Forwarded-For gets the socket address appended.
 */
export function clientAddressHeaders(req: http.IncomingMessage): Record<string, string> {
  const remote = (req.socket.remoteAddress ?? "").replace(/^::ffff:/, "");
  const fwd = req.headers["x-forwarded-for"];
  const forwarded = (Array.isArray(fwd) ? fwd.join(", ") : fwd)?.trim();
  const trusted = process.env.PARLEY_TRUST_FORWARDED_FOR === "1" && forwarded;
  return {
    "x-real-ip": trusted ? forwarded.split(",")[0]!.trim() : remote,
    "x-forwarded-for": forwarded ? `${forwarded}, ${remote}` : remote,
  };
}

/** The host name of a Host header ("[::1]:54321" -> "::1"), lower-case; null when malformed. */
export function hostName(header: string | undefined): string | null {
  if (!header) return null;
  const h = header.trim().toLowerCase();
  const m = /^\[([0-9a-f:.]+)\](?::\d+)?$/.exec(h) ?? /^([a-z0-9.-]+)(?::\d+)?$/.exec(h);
  return m ? m[1]! : null;
}

/** The host names a stack serves by default: the loopback names plus those of its URLs. */
export function defaultAllowedHosts(urls: (string | undefined)[], extra = process.env.PARLEY_ALLOWED_HOSTS ?? ""): string[] {
  const names = new Set(["127.0.0.1", "localhost", "::1"]);
  for (const u of urls) {
    try {
      if (u) names.add(hostName(new URL(u).host) ?? "");
    } catch { /* not a URL */ }
  }
  for (const h of extra.split(",")) if (h.trim()) names.add(h.trim().toLowerCase().replace(/^\[|\]$/g, ""));
  names.delete("");
  return [...names];
}

/** PostgREST's error shape ({code, message, details, hint}), which supabase-js reads. */
function restError(code: string, message: string, details: string | null = null, hint: string | null = null) {
  return { code, message, details, hint };
}

/** Items of PostgREST `select=` / `columns=` lists, counted by their separators. */
export function selectItems(url: URL): number {
  let n = 0;
  for (const name of ["select", "columns"]) {
    for (const v of url.searchParams.getAll(name)) n += v.split(",").length;
  }
  return n;
}

export class Gateway {
  readonly server: http.Server;
  private readonly hosts: Set<string>;

  constructor(private readonly o: GatewayOptions) {
    this.hosts = new Set(o.allowedHosts.map((h) => h.toLowerCase()));
    const t = { ...DEFAULT_TIMEOUTS, ...o.timeouts };
    this.server = http.createServer({ connectionsCheckingInterval: t.checkEveryMs }, (req, res) => {
      this.route(req, res).catch((e) => this.fail(res, e));
    });
    this.server.on("upgrade", (req, socket, head) => this.upgrade(req, socket, head));
    this.server.on("clientError", (e: NodeJS.ErrnoException, socket: Duplex) => this.clientError(e, socket));
    // Both count until the request has been received; the answer (a stream from a function)
    // may take as long as it takes.
    this.server.headersTimeout = t.headersMs;
    this.server.requestTimeout = t.requestMs;
    this.server.keepAliveTimeout = 65_000;
  }

  listen(port: number, host = "127.0.0.1"): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once("error", (e: NodeJS.ErrnoException) =>
        reject(e.code === "EADDRINUSE" ? new Error(`Port ${port} is already in use. Is another Parley stack running? Pass --port to use another.`) : e),
      );
      this.server.listen(port, host, () => resolve((this.server.address() as { port: number }).port));
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  /** A request Node's parser refused (malformed, headers too large, too slow): a JSON answer, then close. */
  private clientError(e: NodeJS.ErrnoException, socket: Duplex) {
    const sent = (socket as Duplex & { _httpMessage?: http.ServerResponse | null })._httpMessage?.headersSent;
    if (e.code === "ECONNRESET" || e.code === "EPIPE" || !socket.writable || sent) {
      socket.destroy();
      return;
    }
    const [status, text, code, message] = clientErrorAnswer(e.code);
    const body = JSON.stringify({ code, message });
    socket.end(
      `HTTP/1.1 ${status} ${text}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
    // What the client still sends is discarded for a moment, so it reads the answer rather than a reset.
    socket.resume();
    setTimeout(() => socket.destroy(), 1000).unref();
  }

  private fail(res: http.ServerResponse, e: unknown) {
    if (e instanceof HttpError) {
      sendJson(res, e.status, { code: e.code, message: e.message, ...e.extra });
      return;
    }
    // A client that went away mid-request: nobody is left to answer, nothing to log.
    if ((e as NodeJS.ErrnoException)?.code === "ECONNRESET" && res.req?.destroyed) return void res.destroy();
    this.o.log.error("gateway error", { error: (e as Error).stack ?? String(e) });
    sendJson(res, 500, { code: "internal_error", message: "Internal gateway error" });
  }

  /** Maps an API key (JWT or sb_ key) to its role, or null when it is not one of ours. */
  private apiKeyRole(key: string | undefined): { role: ApiRole; jwt: string } | null {
    if (!key) return null;
    const k = this.o.keys;
    if (key === k.anonKey || key === k.publishableKey) return { role: "anon", jwt: k.anonKey };
    if (key === k.serviceRoleKey || key === k.secretKey) return { role: "service_role", jwt: k.serviceRoleKey };
    return null;
  }

  /** Resolves apikey + Authorization into a request description (verifying the bearer unless told not to). */
  private async identify(req: http.IncomingMessage, url: URL, verify = true) {
    const apikeyRaw = (req.headers.apikey as string | undefined) ?? url.searchParams.get("apikey") ?? undefined;
    const apikey = this.apiKeyRole(apikeyRaw);
    let token = bearer(req);
    // sb_ keys in the Authorization header stand for their JWTs, as on Supabase.
    const asKey = this.apiKeyRole(token);
    if (asKey && token?.startsWith("sb_")) token = asKey.jwt;
    if (!token && apikey) token = apikey.jwt;
    let claims: Claims | null = null;
    let authError: JwtError | undefined;
    if (token && verify) {
      try {
        claims = await this.o.keys.signing.verify(token);
      } catch (e) {
        if (e instanceof JwtError) authError = e;
        else throw e;
      }
    }
    return { apikeyRaw, apikeyRole: apikey?.role ?? null, token, claims, authError };
  }

  /** Host headers already found to be ours (a handful of strings; bounded all the same). */
  private readonly servedHosts = new Set<string>();

  /** The refusal for a Host the stack does not serve, or null when it is one of ours. */
  private hostRefusal(req: http.IncomingMessage): { code: string; message: string } | null {
    const header = req.headers.host;
    if (header !== undefined && this.servedHosts.has(header)) return null;
    const name = hostName(header);
    if (name && this.hosts.has(name)) {
      if (this.servedHosts.size < 64) this.servedHosts.add(header!);
      return null;
    }
    return {
      code: "host_not_allowed",
      message: `This stack does not serve the host ${JSON.stringify(req.headers.host ?? "")}. Use one of ${[...this.hosts].join(", ")}, or add the name to PARLEY_ALLOWED_HOSTS.`,
    };
  }

  private async route(req: http.IncomingMessage, res: http.ServerResponse) {
    const refused = this.hostRefusal(req);
    if (refused) return sendJson(res, 421, refused);
    const url = requestUrl(req.url);
    if (!url) return sendJson(res, 400, { code: "bad_request", message: "Malformed request target" });
    const p = url.pathname;
    // The dev mailbox holds sign-in and recovery links: no other origin may read it, so it
    // gets no CORS headers at all (its own page is same-origin; tests read it without Origin).
    const mailbox = p === "/mail" || p.startsWith("/mail/");
    if (req.method === "OPTIONS") {
      if (mailbox) return sendJson(res, 403, { error: "forbidden", message: "The mailbox takes no cross-origin requests" });
      return preflight(req, res);
    }
    if (!mailbox) for (const [k, v] of Object.entries(corsHeaders(req))) res.setHeader(k, v);

    if (p === "/health" || p === "/health/") {
      if (req.method !== "GET" && req.method !== "HEAD") return sendJson(res, 405, { code: "method_not_allowed", message: "Method not allowed" }, { allow: "GET, HEAD" });
      const report = await this.o.health();
      return sendJson(res, report.ok ? 200 : 503, report);
    }
    if (p === "/rest/v1" || p.startsWith("/rest/v1/")) return this.rest(req, res, url);
    if (p.startsWith("/functions/v1/")) return this.fn(req, res, url);
    for (const [prefix, name] of Object.entries(SERVICE_PREFIXES)) {
      if (p === prefix || p.startsWith(prefix + "/")) return this.service(name, prefix, req, res, url);
    }
    sendJson(res, 404, { message: "no Route matched with those values" });
  }

  private async rest(req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
    // PostgREST verifies the bearer itself (with its JWT cache); the gateway only needs the
    // API key's role here, as Supabase's API gateway does, so the token is not verified twice.
    const id = await this.identify(req, url, false);
    if (!id.apikeyRaw) {
      return sendJson(res, 401, { message: "No API key found in request", hint: "No `apikey` request header or url param was found." });
    }
    if (!id.apikeyRole) {
      return sendJson(res, 401, { message: "Invalid API key", hint: "Double check your Supabase `anon` or `service_role` API key." });
    }
    if (this.o.restAvailable && !this.o.restAvailable()) {
      return sendJson(res, 503, restError("PGRST000", "Could not connect with the database: it is not reachable right now; try again shortly"), {
        "retry-after": String(RETRY_AFTER_UNAVAILABLE),
      });
    }
    if (selectItems(url) > this.o.maxSelectItems) {
      return sendJson(res, 413, restError("payload_too_large", `The select and columns lists may name at most ${this.o.maxSelectItems} items`));
    }
    const headers: http.OutgoingHttpHeaders = { ...req.headers, authorization: `Bearer ${id.token}` };
    delete headers.host;
    delete headers.apikey;
    const target = url.pathname.slice("/rest/v1".length) || "/";
    if (target.startsWith("/rpc/") && req.method === "POST") {
      // RPC arguments are read whole (they are small) and checked before PostgREST sees them.
      let body: Buffer;
      try {
        body = await readBody(req, this.o.maxRpcBodyBytes);
      } catch (e) {
        if (e instanceof HttpError && e.status === 413) {
          return sendJson(res, 413, restError("payload_too_large", `An RPC request body may have at most ${this.o.maxRpcBodyBytes} bytes`));
        }
        throw e;
      }
      const args = countJsonKeys(body);
      if (args > this.o.maxRpcArgs) {
        return sendJson(res, 413, restError("payload_too_large", `An RPC request body may have at most ${this.o.maxRpcArgs} arguments`, `It has ${args}.`));
      }
      headers["content-length"] = String(body.length);
      delete headers["transfer-encoding"];
      return this.proxy(req, res, this.o.postgrestPort(), target + url.search, headers, this.o.maxRpcBodyBytes, body);
    }
    await this.proxy(req, res, this.o.postgrestPort(), target + url.search, headers, this.o.maxBodyBytes);
  }

  private async fn(req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
    const rest = url.pathname.slice("/functions/v1/".length);
    const name = rest.split("/")[0] ?? "";
    if (!name || !this.o.functions.exists(name)) {
      return sendJson(res, 404, { code: "NOT_FOUND", message: "Requested function was not found" });
    }
    const id = await this.identify(req, url);
    if (this.o.functions.verifyJwt(name)) {
      if (!bearer(req) && !id.apikeyRole) {
          return sendJson(res, 401, { code: "UNAUTHORIZED_NO_AUTH_HEADER", message: "Missing authorization header" });
      }
      if (!id.claims) {
          return sendJson(res, 401, {
          code: "UNAUTHORIZED_INVALID_JWT_FORMAT",
          message: id.authError?.code === "jwt_expired" ? "JWT has expired" : "Invalid JWT",
        });
      }
      if (this.o.functionsJwtGate === "legacy" && id.token && jwtAlg(id.token) !== "HS256") {
        return sendJson(res, 401, { code: "UNAUTHORIZED_LEGACY_JWT", message: "Invalid JWT" });
      }
    }
    const declared = Number(req.headers["content-length"] ?? "0");
    if (declared > this.o.maxBodyBytes) {
      return sendJson(res, 413, { code: "payload_too_large", message: `Request body is larger than ${this.o.maxBodyBytes} bytes` });
    }
    const headers: http.OutgoingHttpHeaders = { ...req.headers, ...clientAddressHeaders(req) };
    delete headers.host;
    if (id.token && bearer(req)?.startsWith("sb_")) headers.authorization = `Bearer ${id.token}`;
    // A Transform (not a 'data' listener) so nothing is lost while a cold worker boots.
    const body = req.pipe(new BodyLimit(this.o.maxBodyBytes));
    body.on("error", () => {
      if (!res.headersSent) sendJson(res, 413, { code: "payload_too_large", message: `Request body is larger than ${this.o.maxBodyBytes} bytes` });
    });
    await this.o.functions.handle(name, "/" + rest + url.search, body, req, res, headers);
  }

  private async service(name: string, prefix: string, req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
    const svc = this.o.services.get(name);
    if (!svc) {
      return sendJson(res, 503, { code: "service_unavailable", message: `The ${name} service is not available in this stack yet` });
    }
    const id = await this.identify(req, url);
    const path = url.pathname.slice(prefix.length) || "/";
    // As hosted Supabase's gateway (Kong key-auth on /auth/v1): only the links a browser opens
    // (verify, OAuth authorize and callback) and the public keys go without an API key.
    if (name === "auth" && !AUTH_OPEN_PATHS.test(path)) {
      if (!id.apikeyRaw) return sendJson(res, 401, { message: "No API key found in request", hint: "No `apikey` request header or url param was found." });
      if (!id.apikeyRole) return sendJson(res, 401, { message: "Invalid API key", hint: "Double check your Supabase `anon` or `service_role` API key." });
    }
    const r: GatewayRequest = {
      req, res, query: url.searchParams,
      path,
      apikeyRole: id.apikeyRole, claims: id.claims, authError: id.authError, token: id.token,
    };
    await svc.handle(r);
  }

  private async upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer) {
    try {
      const refused = this.hostRefusal(req);
      if (refused) {
        const body = JSON.stringify(refused);
        socket.end(`HTTP/1.1 421 Misdirected Request\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
        return;
      }
      const url = requestUrl(req.url);
      if (!url) {
        socket.end("HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
        return;
      }
      const entry = Object.entries(SERVICE_PREFIXES).find(([prefix]) => url.pathname.startsWith(prefix + "/"));
      const svc = entry ? this.o.services.get(entry[1]) : undefined;
      if (!entry || !svc?.upgrade) {
        socket.end("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n");
        return;
      }
      const id = await this.identify(req, url);
      svc.upgrade(req, socket, head, {
        req, query: url.searchParams, path: url.pathname.slice(entry[0].length),
        apikeyRole: id.apikeyRole, claims: id.claims, authError: id.authError, token: id.token,
      });
    } catch (e) {
      this.o.log.error("upgrade failed", { error: String(e) });
      socket.destroy();
    }
  }

  private proxy(
    req: http.IncomingMessage, res: http.ServerResponse, port: number, path: string, headers: http.OutgoingHttpHeaders, limit: number, body?: Buffer,
  ): Promise<void> {
    const tooLarge = () => sendJson(res, 413, restError("payload_too_large", `Request body is larger than ${limit} bytes`));
    const declared = Number(req.headers["content-length"] ?? "0");
    if (!body && declared > limit) {
      tooLarge();
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      let refused = false;
      const socketPath = this.o.postgrestSocket?.();
      const where = socketPath ? { socketPath } : { host: "127.0.0.1", port };
      // A request whose body is in memory (or that has none) goes once more when the kept-alive
      // connection it was sent on turns out closed by PostgREST before any answer (it closes one
      // after some JWT errors without saying so): the race every keep-alive client has.
      const noBody = req.headers["transfer-encoding"] === undefined && !(Number(req.headers["content-length"] ?? "0") > 0);
      const replayable = !!body || noBody;
      let current: http.ClientRequest | undefined;
      const send = (mayRetry: boolean) => {
        const upstream = http.request({ ...where, method: req.method, path, headers }, (up) => {
          const out = { ...up.headers };
          // PostgREST answers 503 while its database is unreachable; say when to come back.
          if (up.statusCode === 503 && !out["retry-after"]) out["retry-after"] = String(RETRY_AFTER_UNAVAILABLE);
          res.writeHead(up.statusCode ?? 502, out);
          forwardBody(up, res);
          up.on("end", resolve);
          up.on("error", () => { res.destroy(); resolve(); });
        });
        current = upstream;
        upstream.on("error", (e: NodeJS.ErrnoException) => {
          if (refused) return resolve();
          if (mayRetry && upstream.reusedSocket && !res.headersSent && !res.destroyed && (e.code === "ECONNRESET" || e.code === "EPIPE")) {
            send(false);
            return;
          }
          if (!res.headersSent) {
            sendJson(res, 503, restError("upstream_unavailable", "The REST service is not reachable; try again shortly", e.message), {
              "retry-after": String(RETRY_AFTER_UNAVAILABLE),
            });
          } else res.destroy();
          resolve();
        });
        if (replayable) upstream.end(body);
      };
      res.on("close", () => { if (!res.writableFinished) current?.destroy(); resolve(); });
      send(replayable);
      if (replayable) return;
      let size = 0;
      req.on("data", (c: Buffer) => {
        size += c.length;
        if (size > limit && !refused) {
          refused = true;
          req.unpipe(current!);
          current!.destroy();
          if (!res.headersSent) tooLarge();
          resolve();
        }
      });
      req.pipe(current!);
    });
  }
}

/** Top-level keys of a JSON object body (0 for anything else; PostgREST reports bad JSON itself). */
function countJsonKeys(body: Buffer): number {
  try {
    const v: unknown = JSON.parse(body.toString("utf8"));
    return v && typeof v === "object" && !Array.isArray(v) ? Object.keys(v).length : 0;
  } catch {
    return 0;
  }
}
