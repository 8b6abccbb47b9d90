// SigningKeys.verify remembers tokens whose signature checked out; what it must still do for a
// remembered token: refuse it once it has expired (and before its nbf), refuse a forged variant
// of it, and hand out claims that a caller's changes cannot alter for the next caller.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { SigningKeys } from "../src/auth/signing-keys.ts";
import { JwtError, signJwt } from "../src/keys.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-jwt-cache-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const SECRET = "a-test-secret-of-enough-length-0123456789";

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof JwtError) return e.code;
    throw e;
  }
  return "accepted";
}

describe("verified-token cache", () => {
  for (const alg of ["ES256", "HS256"] as const) {
    it(`${alg}: a remembered token is refused once expired, and a forged variant is refused`, async () => {
      const keys = await SigningKeys.load(path.join(dir, alg), SECRET, alg);
      const token = await keys.sign({ sub: "u1", role: "authenticated" }, 60);
      const first = await keys.verify(token);
      expect(first.sub).toBe("u1");
      expect((await keys.verify(token)).sub).toBe("u1"); // remembered

      const [h, , s] = token.split(".");
      const forged = `${h}.${Buffer.from(JSON.stringify({ ...first, role: "service_role" })).toString("base64url")}.${s}`;
      expect(await refusal(keys.verify(forged))).toBe("jwt_invalid");

      const exp = first.exp!;
      vi.spyOn(Date, "now").mockReturnValue(exp * 1000 - 1); // the last moment before exp
      expect((await keys.verify(token)).sub).toBe("u1");
      vi.spyOn(Date, "now").mockReturnValue(exp * 1000); // exp reached: jose's rule (exp <= now)
      expect(await refusal(keys.verify(token))).toBe("jwt_expired");
      vi.restoreAllMocks();
      // Forgotten once expired: a clock set back does not revive it from the cache, and the
      // full check (signature and times) accepts it again.
      expect((await keys.verify(token)).sub).toBe("u1");
    });
  }

  it("refuses a remembered token before its nbf", async () => {
    const keys = await SigningKeys.load(path.join(dir, "nbf"), SECRET, "HS256");
    const now = Math.floor(Date.now() / 1000);
    const token = await signJwt(SECRET, { sub: "u2", role: "authenticated", nbf: now, exp: now + 600 });
    expect((await keys.verify(token)).sub).toBe("u2");
    vi.spyOn(Date, "now").mockReturnValue((now - 5) * 1000);
    expect(await refusal(keys.verify(token))).toBe("jwt_invalid");
  });

  it("hands every caller its own copy of the claims", async () => {
    const keys = await SigningKeys.load(path.join(dir, "copy"), SECRET, "HS256");
    const token = await signJwt(SECRET, { sub: "u3", role: "authenticated", app_metadata: { teams: ["a"] } }, 600);
    const a = await keys.verify(token);
    a.role = "service_role";
    (a.app_metadata as { teams: string[] }).teams.push("b");
    const b = await keys.verify(token);
    expect(b.role).toBe("authenticated");
    expect(b.app_metadata).toEqual({ teams: ["a"] });
  });
});
