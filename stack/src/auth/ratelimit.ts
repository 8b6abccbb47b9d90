// In-memory fixed-window counters for GoTrue's rate limits (per IP, per email,
// and the instance-wide email budget).
import { tooMany } from "./errors.ts";

export class RateLimiter {
  private windows = new Map<string, { count: number; resetAt: number }>();

  /** Counts one hit on `key`; throws 429 when it is the (limit+1)th in the window. */
  hit(key: string, limit: number, windowSeconds: number, code = "over_request_rate_limit", message = "Request rate limit reached") {
    const now = Date.now();
    if (this.windows.size > 50_000) this.sweep(now);
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + windowSeconds * 1000 };
      this.windows.set(key, w);
    }
    w.count++;
    if (w.count > limit) throw tooMany(code, message);
  }

  private sweep(now: number) {
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
  }
}
