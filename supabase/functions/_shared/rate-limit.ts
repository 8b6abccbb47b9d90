// Fixed-window rate limits kept in Postgres (private.consume_rate_limit, atomic
// insert ... on conflict), reached through the service-role-only RPC
// public.consume_rate_limit so every function instance shares the counters.
import { createServiceClient } from "./clients.ts";
import { must } from "./db.ts";
import { cutText, rateLimited } from "./http.ts";
import { sha256Hex } from "./hash.ts";

export interface RateLimit {
  /** e.g. `chat:user:<uid>`; namespaced by the caller. */
  key: string;
  max: number;
  windowSeconds: number;
}

export interface RateLimitResult {
  allowed: boolean;
  retryAfter: number;
}

/** Keys the database takes (1..300 characters): a longer one (a long e-mail address) becomes its start and its hash. */
export async function storableKey(key: string): Promise<string> {
  return key.length <= 200 ? key : `${cutText(key, 100)}#${await sha256Hex(key)}`;
}

/** A limit's state from consume_rate_limit (counts a hit) or peek_rate_limit (counts nothing). */
async function rateLimitCall(fn: "consume_rate_limit" | "peek_rate_limit", limit: RateLimit): Promise<RateLimitResult> {
  const data = must(
    await createServiceClient().rpc(fn, {
      key: await storableKey(limit.key),
      max_hits: limit.max,
      window_seconds: limit.windowSeconds,
    }),
    `rate limit ${limit.key}`,
  );
  const row = (Array.isArray(data) ? data[0] : data) as { allowed: boolean; retry_after: number } | undefined;
  return { allowed: row?.allowed ?? false, retryAfter: row?.retry_after ?? limit.windowSeconds };
}

export function consumeRateLimit(limit: RateLimit): Promise<RateLimitResult> {
  return rateLimitCall("consume_rate_limit", limit);
}

/** Would a hit on the limit be allowed now? Counts nothing (public.peek_rate_limit). */
export function peekRateLimit(limit: RateLimit): Promise<RateLimitResult> {
  return rateLimitCall("peek_rate_limit", limit);
}

/**
 * Counts a hit on each limit in order and stops at the first one exhausted (429 rate_limited
 * with Retry-After): a caller refused by its own limit spends nothing further down the list,
 * so list the narrowest key (the visitor) first and shared ones (an address) after it.
 */
export async function enforceRateLimits(limits: RateLimit[]): Promise<void> {
  for (const limit of limits) {
    const result = await consumeRateLimit(limit);
    if (!result.allowed) throw rateLimited(result.retryAfter);
  }
}

/** A positive integer from PARLEY_<name>, or the default. */
export function limitFromEnv(name: string, fallback: number): number {
  const v = Number(Deno.env.get(name));
  return Number.isInteger(v) && v > 0 ? v : fallback;
}

/** An IPv6 client counts by its /64 (one subscriber's network), an IPv4 one by its address. */
export function ipKey(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!ip.includes(":")) return ip;
  const [head, tail = ""] = ip.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = ip.includes("::") ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right] : left;
  return groups.slice(0, 4).map((g) => g.toLowerCase().replace(/^0+(?=.)/, "")).join(":") + "::/64";
}
