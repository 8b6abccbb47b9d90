// The one client for fetching addresses users give us (websites, Notion,
// YouTube, embedding providers, power-ups, a team's model-provider base URL): http(s) only;
// every host resolved and every address checked (private, loopback, link-local, CGNAT,
// multicast, metadata, IPv4-mapped/NAT64 forms) before each request and on each redirect
// (followed by hand, at most 5); bounded time and size; a user agent that names Parley.
//
// The connection goes to the address that was checked: each request is made with node:http(s)
// and a `lookup` that answers only with the checked addresses, so a second DNS answer (DNS
// rebinding: public when checked, 127.0.0.1 when connected) is never asked for. TLS (SNI and the
// certificate) stays on the URL's host name. A crawl's cachingResolver reuses its checked answer
// for its TTL, and the connection uses that same answer.
//
// Headers the caller gives (credentials, a power-up's secrets) are sent only to the first URL's
// origin: a hop to another origin carries only the content headers (content-type, accept...).
//
// Dev/test: PARLEY_FETCH_ALLOW_PRIVATE=1 permits loopback and private ranges,
// PARLEY_FETCH_ALLOW_HOSTS=host1,host2 permits those hosts; both are read per
// call. Metadata, link-local, multicast and unspecified addresses are never allowed.
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";

export const USER_AGENT = "ParleyBot/1.0 (+https://parley.chat/bot)";

export type FetchErrorCode =
  | "invalid_url"
  | "unsupported_scheme"
  | "blocked_address"
  | "dns_failed"
  | "too_many_redirects"
  | "too_large"
  | "timeout"
  | "network_error";

export class SafeFetchError extends Error {
  constructor(
    readonly code: FetchErrorCode,
    message: string,
    readonly url?: string,
  ) {
    super(message);
  }
}

export interface SafeFetchOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Bytes of body kept; past it: error (default) or cut. */
  maxBytes?: number;
  onTooLarge?: "error" | "truncate";
  timeoutMs?: number;
  maxRedirects?: number;
  /** Overrides PARLEY_FETCH_ALLOW_PRIVATE for this call (tests of the refusal path). */
  allowPrivate?: boolean;
  /** Test seam: DNS resolution (defaults to Deno.resolveDns). */
  resolve?: (host: string) => Promise<string[]>;
}

export interface SafeResponse {
  url: string;
  status: number;
  headers: Headers;
  bytes: Uint8Array;
  truncated: boolean;
  /** Each hop before the final URL. */
  redirects: string[];
  text(): string;
  json<T = unknown>(): T;
}

// ---------------------------------------------------------------------------
// address classification

export type AddressClass =
  "public" | "loopback" | "private" | "cgnat" | "link_local" | "metadata" | "multicast" | "unspecified" | "reserved";

/** Classes a dev allowance may open; the rest are refused always. */
const DEV_ALLOWABLE = new Set<AddressClass>(["loopback", "private", "cgnat"]);

export function parseIPv4(s: string): number[] | null {
  const parts = s.split(".");
  if (parts.length !== 4) return null;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    out.push(n);
  }
  return out;
}

/** Eight 16-bit groups, or null. Accepts ::, embedded IPv4 and a %zone. */
export function parseIPv6(input: string): number[] | null {
  let s = input.replace(/^\[|\]$/g, "");
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  if (!s.includes(":")) return null;
  const lastColon = s.lastIndexOf(":");
  const last = s.slice(lastColon + 1);
  if (last.includes(".")) {
    const v4 = parseIPv4(last);
    if (!v4) return null;
    s = `${s.slice(0, lastColon + 1)}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const toGroups = (h: string) => (h === "" ? [] : h.split(":"));
  const head = toGroups(halves[0]);
  const rest = halves.length === 2 ? toGroups(halves[1]) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...rest].map((g) =>
    /^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : NaN,
  );
  if (groups.length !== 8 || groups.some((g) => Number.isNaN(g))) return null;
  return groups;
}

export function classifyIPv4(a: number[]): AddressClass {
  const [x, y, z, w] = a;
  if (x === 169 && y === 254 && z === 169 && w === 254) return "metadata";
  if (x === 0) return "unspecified";
  if (x === 127) return "loopback";
  if (x === 10 || (x === 172 && y >= 16 && y <= 31) || (x === 192 && y === 168)) return "private";
  if (x === 100 && y >= 64 && y <= 127) return "cgnat";
  if (x === 169 && y === 254) return "link_local";
  if (x >= 224 && x <= 239) return "multicast";
  if (x >= 240) return "reserved";
  if (
    (x === 192 && y === 0 && (z === 0 || z === 2)) ||
    (x === 198 && (y === 18 || y === 19)) ||
    (x === 198 && y === 51 && z === 100) ||
    (x === 203 && y === 0 && z === 113)
  )
    return "reserved";
  return "public";
}

export function classifyIPv6(g: number[]): AddressClass {
  if (g.every((v) => v === 0)) return "unspecified";
  if (g.slice(0, 7).every((v) => v === 0) && g[7] === 1) return "loopback";
  const v4 = [g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255];
  // IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::a.b.c.d: judge the IPv4 inside
  if (g.slice(0, 5).every((v) => v === 0) && (g[5] === 0xffff || g[5] === 0)) return classifyIPv4(v4);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((v) => v === 0)) return classifyIPv4(v4);
  if (g[0] === 0xfd00 && g[1] === 0x0ec2 && g.slice(2, 7).every((v) => v === 0) && g[7] === 0x254) return "metadata";
  if ((g[0] & 0xfe00) === 0xfc00) return "private";
  if ((g[0] & 0xffc0) === 0xfe80) return "link_local";
  if ((g[0] & 0xff00) === 0xff00) return "multicast";
  if (g[0] === 0x2001 && g[1] === 0x0db8) return "reserved";
  return "public";
}

export function classifyAddress(ip: string): AddressClass {
  const v4 = parseIPv4(ip);
  if (v4) return classifyIPv4(v4);
  const v6 = parseIPv6(ip);
  if (v6) return classifyIPv6(v6);
  return "reserved";
}

function allowPrivateFromEnv(): boolean {
  return Deno.env.get("PARLEY_FETCH_ALLOW_PRIVATE") === "1";
}

function allowedHosts(): Set<string> {
  return new Set(
    (Deno.env.get("PARLEY_FETCH_ALLOW_HOSTS") ?? "")
      .split(",")
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  );
}

/** Is this address acceptable for `host` under the current settings? */
export function isAddressAllowed(ip: string, host: string, allowPrivate = allowPrivateFromEnv()): boolean {
  const cls = classifyAddress(ip);
  if (cls === "public") return true;
  if (!DEV_ALLOWABLE.has(cls)) return false;
  return allowPrivate || allowedHosts().has(host.toLowerCase());
}

async function defaultResolve(host: string): Promise<string[]> {
  const results = await Promise.allSettled([Deno.resolveDns(host, "A"), Deno.resolveDns(host, "AAAA")]);
  return results.flatMap((r) => (r.status === "fulfilled" ? r.value : []));
}

/**
 * A resolver that remembers each host's addresses for `ttlMs` (a crawl asks for the same host
 * hundreds of times). Only the lookup is cached: every address is still checked before every
 * request, so a cached answer can never let a refused address through, and each request connects
 * to the cached (checked) answer itself, never to a fresh one. Failed lookups are not cached.
 */
export function cachingResolver(
  resolve: (host: string) => Promise<string[]> = defaultResolve,
  ttlMs = 30_000,
  now: () => number = Date.now,
): (host: string) => Promise<string[]> {
  const cache = new Map<string, { at: number; addresses: Promise<string[]> }>();
  return (host) => {
    const hit = cache.get(host);
    if (hit && now() - hit.at < ttlMs) return hit.addresses;
    const addresses = resolve(host);
    cache.set(host, { at: now(), addresses });
    addresses.then(
      (a) => !a.length && cache.delete(host),
      () => cache.delete(host),
    );
    return addresses;
  };
}

/** Throws unless every address `url`'s host resolves to is allowed. */
export async function assertUrlAllowed(url: URL, options: Pick<SafeFetchOptions, "allowPrivate" | "resolve"> = {}) {
  await checkedAddresses(url, options);
}

/** The addresses of `url`'s host, every one of them allowed (else throws): the only ones to connect to. */
export async function checkedAddresses(
  url: URL,
  options: Pick<SafeFetchOptions, "allowPrivate" | "resolve"> = {},
): Promise<string[]> {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new SafeFetchError(
      "unsupported_scheme",
      `Only http and https addresses can be fetched (${url.protocol})`,
      url.href,
    );
  }
  if (url.username || url.password) {
    throw new SafeFetchError("invalid_url", "Addresses with credentials are not fetched", url.href);
  }
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const allowPrivate = options.allowPrivate ?? allowPrivateFromEnv();
  let addresses: string[];
  if (parseIPv4(host) || parseIPv6(host)) {
    addresses = [host];
  } else if (host === "localhost" || host.endsWith(".localhost")) {
    addresses = ["127.0.0.1", "::1"];
  } else {
    try {
      addresses = await (options.resolve ?? defaultResolve)(host);
    } catch (e) {
      throw new SafeFetchError("dns_failed", `Could not resolve ${host}: ${(e as Error).message}`, url.href);
    }
    if (!addresses.length) throw new SafeFetchError("dns_failed", `${host} has no addresses`, url.href);
  }
  for (const ip of addresses) {
    if (!isAddressAllowed(ip, host, allowPrivate)) {
      throw new SafeFetchError(
        "blocked_address",
        `${host} resolves to ${ip} (${classifyAddress(ip).replace("_", "-")}), which Parley does not fetch`,
        url.href,
      );
    }
  }
  return addresses;
}

// ---------------------------------------------------------------------------
// fetching

/** What one request sends (no redirects are followed at this level). */
export interface PinnedInit {
  method: string;
  headers: Headers | Record<string, string>;
  body: Uint8Array | null;
  signal?: AbortSignal;
}

type LookupEntry = { address: string; family: 4 | 6 };
type LookupCallback = (err: Error | null, address?: string | LookupEntry[], family?: number) => void;

/** A node `lookup` that answers every name with the checked addresses and nothing else. */
function pinnedLookup(addresses: string[]) {
  const entries: LookupEntry[] = addresses.map((a) => {
    const address = a.replace(/^\[|\]$/g, "");
    return { address, family: parseIPv4(address) ? 4 : 6 };
  });
  return (_host: string, options: unknown, callback?: LookupCallback) => {
    const cb = (typeof options === "function" ? options : callback) as LookupCallback;
    const o = (typeof options === "object" && options ? options : { family: options }) as {
      family?: unknown;
      all?: boolean;
    };
    const family = o.family === 4 || o.family === "IPv4" ? 4 : o.family === 6 || o.family === "IPv6" ? 6 : 0;
    const wanted = family ? entries.filter((e) => e.family === family) : entries;
    if (!wanted.length) return cb(Object.assign(new Error("no checked address of that family"), { code: "ENOTFOUND" }));
    if (o.all) cb(null, wanted);
    else cb(null, wanted[0].address, wanted[0].family);
  };
}

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
const DECODERS: Record<string, CompressionFormat> = { gzip: "gzip", "x-gzip": "gzip", deflate: "deflate" };

/**
 * One HTTP request to `url`, connected only to `addresses` (checked by checkedAddresses): the
 * answer as a fetch Response whose body streams (gzip and deflate decoded). Redirects are
 * returned, not followed. Network failures reject with a TypeError("fetch failed: ...") as fetch
 * does; an abort rejects (or errors the body) with the signal's reason.
 */
export function pinnedRequest(url: URL, addresses: string[], init: PinnedInit): Promise<Response> {
  const { signal } = init;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const headers: Record<string, string> = {};
  for (const [k, v] of new Headers(init.headers)) {
    if (!["host", "content-length", "connection", "keep-alive", "transfer-encoding", "accept-encoding"].includes(k))
      headers[k] = v;
  }
  headers["accept"] ??= "*/*";
  headers["accept-encoding"] = "gzip, deflate";
  if (init.body) headers["content-length"] = String(init.body.byteLength);
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<Response>((resolve, reject) => {
    let settled = false;
    let bodyDone: ((err?: unknown) => void) | null = null;
    const onAbort = () => {
      req.destroy();
      if (!settled) {
        settled = true;
        reject(signal!.reason);
      } else bodyDone?.(signal!.reason);
    };
    const cleanup = () => signal?.removeEventListener("abort", onAbort);
    const req = request(url, { method: init.method, headers, lookup: pinnedLookup(addresses) as never, agent: false });
    signal?.addEventListener("abort", onAbort, { once: true });
    req.on("error", (e: Error) => {
      if (settled) return bodyDone?.(new TypeError(`fetch failed: ${e.message}`, { cause: e }));
      settled = true;
      cleanup();
      reject(new TypeError(`fetch failed: ${e.message}`, { cause: e }));
    });
    req.on("response", (res: IncomingMessage) => {
      settled = true;
      const status = res.statusCode ?? 0;
      const out = new Headers();
      for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) out.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
      if (status < 200 || status > 599) {
        res.destroy();
        cleanup();
        return reject(new TypeError(`fetch failed: invalid status ${status} from ${url.host}`));
      }
      let body: ReadableStream<Uint8Array> | null = null;
      if (NULL_BODY_STATUSES.has(status) || init.method === "HEAD") {
        res.resume();
        res.on("end", cleanup);
        res.on("close", cleanup);
      } else {
        let finished = false;
        body = new ReadableStream<Uint8Array>({
          start(controller) {
            bodyDone = (err) => {
              if (finished) return;
              finished = true;
              cleanup();
              if (err) controller.error(err);
              else controller.close();
            };
            res.on("data", (chunk: Uint8Array) => {
              if (finished) return;
              controller.enqueue(new Uint8Array(chunk));
              if ((controller.desiredSize ?? 1) <= 0) res.pause();
            });
            res.on("end", () => bodyDone?.());
            res.on("error", (e: Error) => bodyDone?.(new TypeError(`fetch failed: ${e.message}`, { cause: e })));
            res.on("close", () => {
              if (!res.complete) bodyDone?.(new TypeError(`fetch failed: the connection to ${url.host} closed early`));
            });
          },
          pull() {
            res.resume();
          },
          cancel() {
            finished = true;
            cleanup();
            res.destroy();
          },
        });
        const decoder = DECODERS[(out.get("content-encoding") ?? "").trim().toLowerCase()];
        if (decoder) {
          body = body.pipeThrough(
            new DecompressionStream(decoder) as unknown as TransformStream<Uint8Array, Uint8Array>,
          );
          out.delete("content-encoding");
          out.delete("content-length");
        }
      }
      const response = new Response(body, { status, statusText: res.statusMessage ?? "", headers: out });
      Object.defineProperty(response, "url", { value: url.href });
      resolve(response);
    });
    req.end(init.body ?? undefined);
  });
}

/** Caller headers sent on a hop to another origin than the first URL's (no credentials). */
const CROSS_ORIGIN_HEADERS = new Set(["accept", "accept-language", "content-type", "content-language", "user-agent"]);

async function readBounded(res: Response, maxBytes: number, onTooLarge: "error" | "truncate", url: string) {
  const declared = Number(res.headers.get("content-length") ?? "0");
  if (declared > maxBytes && onTooLarge === "error") {
    await res.body?.cancel();
    throw new SafeFetchError("too_large", `The response is larger than ${maxBytes} bytes`, url);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  if (res.body) {
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (size + value.byteLength > maxBytes) {
        await reader.cancel();
        if (onTooLarge === "error") {
          throw new SafeFetchError("too_large", `The response is larger than ${maxBytes} bytes`, url);
        }
        chunks.push(value.subarray(0, maxBytes - size));
        size = maxBytes;
        truncated = true;
        break;
      }
      chunks.push(value);
      size += value.byteLength;
    }
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    bytes.set(c, offset);
    offset += c.byteLength;
  }
  return { bytes, truncated };
}

export async function safeFetch(input: string | URL, options: SafeFetchOptions = {}): Promise<SafeResponse> {
  const maxBytes = options.maxBytes ?? 10 * 1024 * 1024;
  const maxRedirects = options.maxRedirects ?? 5;
  const signal = AbortSignal.timeout(options.timeoutMs ?? 20_000);
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new SafeFetchError("invalid_url", `Not a valid address: ${String(input).slice(0, 200)}`);
  }
  const redirects: string[] = [];
  const origin = url.origin;
  let method = options.method ?? "GET";
  let body = options.body;
  for (;;) {
    const addresses = await checkedAddresses(url, options);
    const headers: Record<string, string> = { "user-agent": USER_AGENT };
    for (const [k, v] of Object.entries(options.headers ?? {})) {
      const name = k.toLowerCase();
      if (body === undefined && (name === "content-type" || name === "content-language") && redirects.length) continue;
      if (url.origin === origin || CROSS_ORIGIN_HEADERS.has(name)) headers[name] = v;
    }
    if (body !== undefined) headers["content-type"] ??= "text/plain;charset=UTF-8";
    let res: Response;
    try {
      res = await pinnedRequest(url, addresses, {
        method,
        body: body === undefined ? null : new TextEncoder().encode(body),
        signal,
        headers,
      });
    } catch (e) {
      if (signal.aborted) throw new SafeFetchError("timeout", `No complete answer from ${url.host} in time`, url.href);
      throw new SafeFetchError("network_error", `Could not reach ${url.host}: ${(e as Error).message}`, url.href);
    }
    const location = res.headers.get("location");
    if (res.status >= 300 && res.status < 400 && location) {
      await res.body?.cancel();
      if (redirects.length >= maxRedirects) {
        throw new SafeFetchError(
          "too_many_redirects",
          `More than ${maxRedirects} redirects from ${redirects[0]}`,
          url.href,
        );
      }
      redirects.push(url.href);
      try {
        url = new URL(location, url);
      } catch {
        throw new SafeFetchError("invalid_url", `Redirect to an invalid address: ${location.slice(0, 200)}`, url.href);
      }
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === "POST")) {
        method = "GET";
        body = undefined;
      }
      continue;
    }
    let read;
    try {
      read = await readBounded(res, maxBytes, options.onTooLarge ?? "error", url.href);
    } catch (e) {
      if (e instanceof SafeFetchError) throw e;
      if (signal.aborted) throw new SafeFetchError("timeout", `No complete answer from ${url.host} in time`, url.href);
      throw new SafeFetchError("network_error", `Reading from ${url.host} failed: ${(e as Error).message}`, url.href);
    }
    const { bytes, truncated } = read;
    return {
      url: url.href,
      status: res.status,
      headers: res.headers,
      bytes,
      truncated,
      redirects,
      text: () => new TextDecoder().decode(bytes),
      json: <T>() => JSON.parse(new TextDecoder().decode(bytes)) as T,
    };
  }
}
