// Access-token signing keys, as Supabase's "JWT signing keys": new projects sign with an
// asymmetric key (ES256, or RS256) published at /auth/v1/.well-known/jwks.json with its
// `kid`, and keep verifying the legacy HS256 secret. Keys live in <dataDir>/signing-keys.json
// with Supabase's states: one `in_use` (signs), one `standby` (published ahead, so every
// verifier knows it before it signs), and `previously_used` ones (still verify after a
// rotation). PARLEY_JWT_ALG chooses ES256 (default), RS256 or HS256 (legacy: tokens signed
// with the shared secret, nothing published).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { SignJWT, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, jwtVerify, errors as joseErrors, type JWK } from "jose";
import { JwtError, verifyJwt, type Claims } from "../keys.ts";

export type SigningAlg = "ES256" | "RS256" | "HS256";
type KeyStatus = "in_use" | "standby" | "previously_used";

interface StoredKey {
  kid: string;
  alg: "ES256" | "RS256";
  status: KeyStatus;
  created_at: string;
  private_jwk: JWK;
}

const PUBLIC_FIELDS: Record<string, string[]> = { EC: ["kty", "crv", "x", "y"], RSA: ["kty", "n", "e"] };

function publicJwk(k: StoredKey): JWK {
  const out: JWK = {};
  for (const f of PUBLIC_FIELDS[k.private_jwk.kty ?? ""] ?? []) (out as Record<string, unknown>)[f] = (k.private_jwk as Record<string, unknown>)[f];
  return { ...out, kid: k.kid, alg: k.alg, use: "sig", key_ops: ["verify"], ext: true };
}

async function newKey(alg: "ES256" | "RS256", status: KeyStatus): Promise<StoredKey> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true, ...(alg === "RS256" ? { modulusLength: 2048 } : {}) });
  return { kid: crypto.randomUUID(), alg, status, created_at: new Date().toISOString(), private_jwk: await exportJWK(privateKey) };
}

const VERIFIED_CACHE = 5000;

export class SigningKeys {
  private keys: StoredKey[];
  private readonly imported = new Map<string, CryptoKey | Uint8Array>();
  /** Tokens that verified, with their claims (oldest first). */
  private readonly verified = new Map<string, Claims>();

  private constructor(
    readonly alg: SigningAlg,
    private readonly secret: string,
    private readonly file: string | null,
    keys: StoredKey[],
  ) {
    this.keys = keys;
  }

  /** Loads (or creates) the data dir's keys for `alg`. */
  static async load(dataDir: string, secret: string, alg: SigningAlg = algFromEnv()): Promise<SigningKeys> {
    if (alg === "HS256") return new SigningKeys(alg, secret, null, []);
    const file = path.join(dataDir, "signing-keys.json");
    let keys: StoredKey[] = [];
    if (fs.existsSync(file)) keys = (JSON.parse(fs.readFileSync(file, "utf8")) as { keys: StoredKey[] }).keys ?? [];
    const set = new SigningKeys(alg, secret, file, keys);
    await set.ensure();
    return set;
  }

  private async ensure() {
    const asym = this.alg as "ES256" | "RS256";
    let changed = false;
    if (!this.keys.some((k) => k.status === "in_use" && k.alg === asym)) {
      // A change of algorithm: what signed before keeps verifying.
      for (const k of this.keys) if (k.status === "in_use") k.status = "previously_used";
      const standby = this.keys.find((k) => k.status === "standby" && k.alg === asym);
      if (standby) standby.status = "in_use";
      else this.keys.push(await newKey(asym, "in_use"));
      changed = true;
    }
    if (!this.keys.some((k) => k.status === "standby" && k.alg === asym)) {
      this.keys.push(await newKey(asym, "standby"));
      changed = true;
    }
    if (changed) this.save();
  }

  private save() {
    if (!this.file) return;
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ keys: this.keys }, null, 2), { mode: 0o600 });
    fs.renameSync(tmp, this.file);
  }

  /** The key that signs now (null with HS256). */
  get current(): { kid: string; alg: string } | null {
    const k = this.keys.find((x) => x.status === "in_use");
    return k ? { kid: k.kid, alg: k.alg } : null;
  }

  /** Public keys of every key that verifies (in use, standby, previously used), as a JWKS. */
  jwks(): { keys: JWK[] } {
    return { keys: this.keys.map(publicJwk) };
  }

  /**
   * The JWKS PostgREST verifies with (its jwt-secret accepts one): the legacy HS256 secret
   * as an `oct` key plus every public key.
   */
  postgrestSecret(): string {
    if (this.alg === "HS256") return this.secret;
    const oct: JWK = { kty: "oct", k: Buffer.from(this.secret).toString("base64url"), alg: "HS256" };
    return JSON.stringify({ keys: [oct, ...this.jwks().keys] });
  }

  /** Rotation: the standby key signs from now on, the old one keeps verifying, a new standby is made. */
  async rotate(): Promise<{ kid: string; alg: string } | null> {
    if (this.alg === "HS256") return null;
    for (const k of this.keys) {
      if (k.status === "in_use") k.status = "previously_used";
      else if (k.status === "standby") k.status = "in_use";
    }
    this.keys.push(await newKey(this.alg as "ES256" | "RS256", "standby"));
    this.save();
    return this.current;
  }

  private async keyFor(k: StoredKey, use: "sign" | "verify") {
    const id = `${k.kid}:${use}`;
    let key = this.imported.get(id);
    if (!key) {
      key = (await importJWK(use === "sign" ? k.private_jwk : publicJwk(k), k.alg)) as CryptoKey;
      this.imported.set(id, key);
    }
    return key;
  }

  /** Signs an access token with the key in use (HS256 secret when none). */
  async sign(claims: Claims, expiresInSeconds?: number): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const payload: Claims = { iat: now, ...claims };
    if (expiresInSeconds !== undefined) payload.exp = now + expiresInSeconds;
    const k = this.keys.find((x) => x.status === "in_use");
    if (!k) return new SignJWT(payload).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(new TextEncoder().encode(this.secret));
    return new SignJWT(payload).setProtectedHeader({ alg: k.alg, typ: "JWT", kid: k.kid }).sign(await this.keyFor(k, "sign"));
  }

  /**
   * Verifies a token signed with the HS256 secret or with any published key. A token whose
   * signature checked out once is remembered (VERIFIED_CACHE tokens at most, as PostgREST's JWT
   * cache): no key that verifies is ever withdrawn, so only its times are checked again, as
   * jose checks them (`nbf` after now, `exp` at or before now, whole seconds).
   */
  async verify(token: string): Promise<Claims> {
    const known = this.verified.get(token);
    if (known) {
      const now = Math.floor(Date.now() / 1000);
      if (typeof known.exp === "number" && known.exp <= now) {
        this.verified.delete(token);
        throw new JwtError("jwt_expired", "JWT expired");
      }
      if (typeof known.nbf === "number" && known.nbf > now) throw new JwtError("jwt_invalid", "Invalid JWT");
      return structuredClone(known);
    }
    const claims = await this.verifySignature(token);
    if (this.verified.size >= VERIFIED_CACHE) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, structuredClone(claims));
    return claims;
  }

  private async verifySignature(token: string): Promise<Claims> {
    if (token.split(".").length !== 3) throw new JwtError("jwt_malformed", "Invalid JWT: token is malformed");
    let header: { alg?: string; kid?: string };
    try {
      header = decodeProtectedHeader(token);
    } catch {
      throw new JwtError("jwt_malformed", "Invalid JWT: token is malformed");
    }
    if (header.alg === "HS256") return verifyJwt(this.secret, token);
    const k = this.keys.find((x) => x.kid === header.kid && x.alg === header.alg);
    if (!k) throw new JwtError("jwt_invalid", "Invalid JWT");
    try {
      const { payload } = await jwtVerify(token, await this.keyFor(k, "verify"), { algorithms: [k.alg] });
      return payload as Claims;
    } catch (e) {
      if (e instanceof joseErrors.JWTExpired) throw new JwtError("jwt_expired", "JWT expired");
      throw new JwtError("jwt_invalid", "Invalid JWT");
    }
  }
}

export function algFromEnv(): SigningAlg {
  const v = (process.env.PARLEY_JWT_ALG ?? "ES256").toUpperCase();
  if (v === "ES256" || v === "RS256" || v === "HS256") return v;
  throw new Error(`PARLEY_JWT_ALG must be ES256, RS256 or HS256 (got ${v})`);
}
