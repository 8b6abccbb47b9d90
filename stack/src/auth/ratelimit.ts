// In-memory token buckets for GoTrue's rate limits. As GoTrue's limiter (tollbooth), a
// bucket holds `limit` tokens and refills continuously at `limit` per window: bursts up
// to the limit are allowed and there is no cliff at a window's end. A refusal carries the
// true wait until the next token (Retry-After).
import { tooMany } from "./errors.ts";

export interface Bucket {
  key: string;
  /** Tokens the bucket holds when full (and refills per window). */
  limit: number;
  windowSeconds: number;
  /** The refusal's message when this bucket is the one that is empty. */
  message?: string;
}

interface State {
  tokens: number;
  at: number;
  /** When the bucket is full again; a full bucket is the same as none and may be dropped. */
  fullAt: number;
}

export class RateLimiter {
  private buckets = new Map<string, State>();
  constructor(private readonly now: () => number = Date.now) {}

  private state(b: Bucket, now: number): State {
    const s = this.buckets.get(b.key);
    const limit = Math.max(0, b.limit);
    if (!s) return { tokens: limit, at: now, fullAt: now };
    const rate = limit / (b.windowSeconds * 1000);
    return { tokens: Math.min(limit, s.tokens + (now - s.at) * rate), at: now, fullAt: s.fullAt };
  }

  /** Seconds until `b` has a token (0 when it has one now). */
  wait(b: Bucket): number {
    const s = this.state(b, this.now());
    if (s.tokens >= 1) return 0;
    if (b.limit <= 0) return b.windowSeconds;
    return Math.max(1, Math.ceil(((1 - s.tokens) * b.windowSeconds) / b.limit));
  }

  /** Takes one token from every bucket, or from none when one of them is empty (429). */
  take(buckets: Bucket[], code = "over_request_rate_limit", message = "Request rate limit reached") {
    const now = this.now();
    if (this.buckets.size > 50_000) this.sweep(now);
    const states = buckets.map((b) => this.state(b, now));
    const waits = buckets.map((b) => this.wait(b));
    const first = waits.findIndex((w) => w > 0);
    // The caller may go on only when every bucket has a token again: the longest wait.
    if (first >= 0) throw tooMany(code, buckets[first]!.message ?? message, Math.max(...waits));
    buckets.forEach((b, i) => this.store(b, states[i]!, now));
  }

  /** Takes one token if there is one; never throws (counting failures after the fact). */
  spend(b: Bucket) {
    const now = this.now();
    this.store(b, this.state(b, now), now);
  }

  private store(b: Bucket, s: State, now: number) {
    const tokens = Math.max(0, s.tokens - 1);
    const missing = b.limit - tokens;
    const fullAt = now + (b.limit > 0 ? (missing * b.windowSeconds * 1000) / b.limit : b.windowSeconds * 1000);
    this.buckets.set(b.key, { tokens, at: now, fullAt });
  }

  private sweep(now: number) {
    for (const [k, s] of this.buckets) if (s.fullAt <= now) this.buckets.delete(k);
  }
}

/** Address + account pairs that failed recently, so a busy account's backoff spares clean addresses. */
export class FailureMarks {
  private marks = new Map<string, number>();
  constructor(private readonly now: () => number = Date.now) {}

  mark(key: string, seconds: number) {
    const now = this.now();
    if (this.marks.size > 50_000) for (const [k, until] of this.marks) if (until <= now) this.marks.delete(k);
    this.marks.set(key, now + seconds * 1000);
  }

  has(key: string): boolean {
    const until = this.marks.get(key);
    return until !== undefined && until > this.now();
  }
}
