// For `deno test` of functions: the running stack (started by scripts/with-stack.mjs)
// and ways to act as a user, anon or the service role against it.
import { createClient, type SupabaseClient } from "npm:@supabase/supabase-js@2.119.1";

function required(name: string): string {
  const v = Deno.env.get(name);
  if (!v) throw new Error(`${name} is not set: run function tests through \`npm test -- functions\``);
  return v;
}

export const stack = {
  get url() {
    return required("SUPABASE_URL");
  },
  get anonKey() {
    return required("SUPABASE_ANON_KEY");
  },
  get serviceRoleKey() {
    return required("SUPABASE_SERVICE_ROLE_KEY");
  },
  get mailboxUrl() {
    return required("PARLEY_MAILBOX_URL");
  },
};

const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false };

export function anonClient(): SupabaseClient {
  return createClient(stack.url, stack.anonKey, { auth: noSession });
}

export function serviceClient(): SupabaseClient {
  return createClient(stack.url, stack.serviceRoleKey, { auth: noSession });
}

/** A message in the stack's dev mailbox (/mail/api/messages). */
export interface MailboxMessage {
  id: string;
  to: string;
  subject: string;
  html: string;
  text: string;
}

/** The dev mailbox's messages to an address, newest first. */
export async function mailsTo(email: string): Promise<MailboxMessage[]> {
  const res = await fetch(`${stack.mailboxUrl}/api/messages?to=${encodeURIComponent(email)}`);
  if (res.status !== 200) throw new Error(`mailbox: ${res.status}`);
  return await res.json();
}

/** A private address for one test's client (10.x.y.z). */
export function testIp(): string {
  const n = () => Math.floor(Math.random() * 250) + 1;
  return `10.${n()}.${n()}.${n()}`;
}

/** Creates a confirmed user through the admin API and returns a client signed in as them. */
export async function signedInUser(email = `t-${crypto.randomUUID()}@parley.test`, password = "correct-horse-9") {
  const admin = serviceClient();
  const { data, error } = await admin.auth.admin.createUser({ email, password, email_confirm: true });
  if (error) throw error;
  // Each test user signs in from an address of its own (the suite's stack rate-limits auth by the
  // x-forwarded-for it trusts, PARLEY_AUTH_RATE_LIMIT_HEADER), as users on many machines would:
  // the whole suite signs in far more than one address may in five minutes.
  const client = createClient(stack.url, stack.anonKey, { auth: noSession, global: { headers: { "x-forwarded-for": testIp() } } });
  const signIn = await client.auth.signInWithPassword({ email, password });
  if (signIn.error) throw signIn.error;
  return { client, user: data.user!, token: signIn.data.session!.access_token };
}

/** Calls a function with fetch (so tests see raw statuses and streams). */
export function callFunction(name: string, init: RequestInit & { token?: string; path?: string } = {}) {
  const headers = new Headers(init.headers);
  if (!headers.has("authorization")) headers.set("authorization", `Bearer ${init.token ?? stack.anonKey}`);
  headers.set("apikey", stack.anonKey);
  return fetch(`${stack.url}/functions/v1/${name}${init.path ?? ""}`, { ...init, headers });
}

/** Runs SQL on the stack's database as its superuser (to look at what no API shows, e.g. rate-limit counters). */
export async function sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  const { default: pg } = await import("npm:pg@8.23.1");
  const client = new pg.Client({ connectionString: required("SUPABASE_DB_URL") });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Hits counted in the current window of a rate-limit key (0 when it has none). */
export async function rateLimitHits(key: string): Promise<number> {
  const rows = await sql<{ hits: number }>("select hits from private.rate_limits where key = $1", [key]);
  return rows[0]?.hits ?? 0;
}

/** The RFC 6238 TOTP code (SHA-1, 6 digits, 30 s) of a base32 secret at a time in seconds. */
export async function totpCode(secret: string, atSeconds = Date.now() / 1000): Promise<string> {
  const { createHmac } = await import("node:crypto");
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0;
  let value = 0;
  const key: number[] = [];
  for (const ch of secret.replace(/=+$/, "").toUpperCase()) {
    const i = alphabet.indexOf(ch);
    if (i < 0) throw new Error(`not base32: ${secret}`);
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      key.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  const counter = new Uint8Array(8);
  new DataView(counter.buffer).setBigUint64(0, BigInt(Math.floor(atSeconds / 30)));
  const mac = createHmac("sha1", new Uint8Array(key)).update(counter).digest();
  const offset = mac[mac.length - 1] & 0xf;
  const n = (new DataView(mac.buffer, mac.byteOffset, mac.byteLength).getUint32(offset) & 0x7fffffff) % 1_000_000;
  return String(n).padStart(6, "0");
}

/**
 * Enrols a TOTP factor for a signed-in client and verifies it (auth.mfa, as the account screen
 * does): the session steps up to aal2. Returns the aal2 access token and the factor's secret.
 */
export async function enrollTotp(client: SupabaseClient): Promise<{ token: string; secret: string; factorId: string }> {
  const enrolled = await client.auth.mfa.enroll({ factorType: "totp" });
  if (enrolled.error) throw enrolled.error;
  const { id: factorId, totp } = enrolled.data;
  const verified = await client.auth.mfa.challengeAndVerify({ factorId, code: await totpCode(totp.secret) });
  if (verified.error) throw verified.error;
  return { token: verified.data.access_token, secret: totp.secret, factorId };
}
