// The auth service's limiter on its own, with a clock the test moves: token buckets that
// allow bursts and refill continuously (no fixed-window cliff), the true wait in a refusal,
// and the email budget counted per address and per recipient before the instance's.
import { describe, expect, it } from "vitest";
import { countEmail } from "../src/auth/emails.ts";
import { AuthError } from "../src/auth/errors.ts";
import { RateLimiter, type Bucket } from "../src/auth/ratelimit.ts";
import type { AuthContext } from "../src/auth/context.ts";

function refusal(fn: () => void): AuthError {
  try {
    fn();
  } catch (e) {
    if (e instanceof AuthError) return e;
    throw e;
  }
  throw new Error("expected a refusal");
}

describe("RateLimiter", () => {
  it("allows a burst up to the limit, then refills one token per window/limit", () => {
    let now = 1_000_000;
    const limiter = new RateLimiter(() => now);
    const b: Bucket = { key: "k", limit: 30, windowSeconds: 300 };
    for (let i = 0; i < 30; i++) limiter.take([b]);
    const e = refusal(() => limiter.take([b]));
    expect(e.status).toBe(429);
    expect(e.retryAfter).toBe(10); // 30 per 300 s: one every 10 s
    now += 9_000;
    expect(refusal(() => limiter.take([b])).retryAfter).toBe(1);
    now += 1_000;
    limiter.take([b]); // refilled continuously, not at the end of a 300 s window
    expect(refusal(() => limiter.take([b])).retryAfter).toBe(10);
    now += 300_000;
    for (let i = 0; i < 30; i++) limiter.take([b]); // full again after a whole window, no more
    expect(() => limiter.take([b])).toThrow(AuthError);
  });

  it("takes from all buckets or none, and reports the longest wait with the first empty bucket's message", () => {
    let now = 0;
    const limiter = new RateLimiter(() => now);
    const small: Bucket = { key: "small", limit: 1, windowSeconds: 60, message: "small is empty" };
    const big: Bucket = { key: "big", limit: 2, windowSeconds: 3600, message: "big is empty" };
    limiter.take([small, big]);
    const e = refusal(() => limiter.take([small, big]));
    expect(e.message).toBe("small is empty");
    expect(e.retryAfter).toBe(60);
    expect(limiter.wait(big)).toBe(0); // the refusal took nothing from big
    now += 60_000;
    limiter.take([small, big]);
    now += 60_000;
    const e2 = refusal(() => limiter.take([small, big]));
    expect(e2.message).toBe("big is empty");
    expect(e2.retryAfter).toBe(1800 - 120); // big refills one per 1800 s, 120 s have passed since the first
  });

  it("spends failures without refusing", () => {
    const limiter = new RateLimiter(() => 0);
    const b: Bucket = { key: "f", limit: 2, windowSeconds: 300 };
    for (let i = 0; i < 5; i++) limiter.spend(b);
    expect(limiter.wait(b)).toBe(150);
  });
});

describe("countEmail", () => {
  const ctx = (now: () => number) =>
    ({
      limiter: new RateLimiter(now),
      settings: { rateLimit: { emailSent: 30, emailPerAddress: 6, emailPerRecipient: 3 } },
    }) as unknown as AuthContext;

  it("limits one address and one recipient before the instance's budget", () => {
    const a = ctx(() => 0);
    for (let i = 0; i < 6; i++) countEmail(a, `r${i}@example.test`, "10.0.0.1");
    expect(refusal(() => countEmail(a, "r9@example.test", "10.0.0.1")).message).toBe("email rate limit exceeded for this client address");
    for (let i = 0; i < 3; i++) countEmail(a, "victim@example.test", `10.0.1.${i}`);
    const e = refusal(() => countEmail(a, "Victim@Example.test", "10.0.2.1"));
    expect(e.code).toBe("over_email_send_rate_limit");
    expect(e.message).toBe("email rate limit exceeded for this recipient");
    expect(e.retryAfter).toBe(1200);
    // 9 of 30 spent: admin calls (no address) still have the instance's budget, and only it.
    for (let i = 0; i < 21; i++) countEmail(a, "victim@example.test");
    expect(refusal(() => countEmail(a, "someone@example.test")).message).toBe("email rate limit exceeded");
  });
});
