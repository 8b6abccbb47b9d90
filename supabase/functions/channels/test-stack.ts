// For the channel tests and bench/channels: a fresh stack of this repository whose
// functions talk to the local fake platforms (their base URLs are read from the
// environment when the stack starts, so the stack is started here, after the
// fakes), plus clients for the seeded demo users.
import { createClient, type SupabaseClient } from "npm:@supabase/supabase-js@2.119.1";

const root = new URL("../../../", import.meta.url).pathname;

export const DEMO = {
  owner: "a0000000-0000-4000-8000-000000000001",
  admin: "a0000000-0000-4000-8000-000000000002",
  visitor: "a0000000-0000-4000-8000-000000000003",
  platformAdmin: "a0000000-0000-4000-8000-000000000004",
  helpCenterBot: "c0000000-0000-4000-8000-000000000001",
};

export interface TestStack {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  service: SupabaseClient;
  /** A client (and its token) signed in as a user id, with a token minted with the stack's secret
   * (aal2 for a session that passed a second factor, as platform administrators need). */
  as(userId: string, aal?: "aal1" | "aal2"): Promise<{ client: SupabaseClient; token: string }>;
  functionUrl(path: string): string;
  stop(): Promise<void>;
}

const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false };

export async function mintToken(secret: string, sub: string, aal: "aal1" | "aal2" = "aal1"): Promise<string> {
  const b64 = (v: string | Uint8Array) =>
    btoa(typeof v === "string" ? v : String.fromCharCode(...v)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
  const now = Math.floor(Date.now() / 1000);
  const head = b64(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const body = b64(JSON.stringify({
    sub, role: "authenticated", aud: "authenticated", iat: now, exp: now + 3600, is_anonymous: false, aal,
    session_id: crypto.randomUUID(), app_metadata: { provider: "email" }, user_metadata: {},
  }));
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const sig = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${head}.${body}`)));
  return `${head}.${body}.${b64(sig)}`;
}

/** Starts `node scripts/with-stack.mjs` with `env` for the stack's functions; resolves once it runs. */
export async function startStackWith(env: Record<string, string>): Promise<TestStack> {
  const script = `console.log("STACK_ENV " + JSON.stringify({ url: process.env.SUPABASE_URL, anon: process.env.SUPABASE_ANON_KEY, service: process.env.SUPABASE_SERVICE_ROLE_KEY, secret: process.env.SUPABASE_JWT_SECRET, pid: process.pid })); setInterval(() => {}, 1 << 30);`;
  const child = new Deno.Command("node", {
    args: ["scripts/with-stack.mjs", "--", "node", "-e", script],
    cwd: root,
    env: { ...env },
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  let info: { url: string; anon: string; service: string; secret: string; pid: number } | null = null;
  while (!info) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the stack did not start:\n${out}`);
    out += value;
    const line = /STACK_ENV (\{.*\})/.exec(out)?.[1];
    if (line) info = JSON.parse(line);
  }
  // Keep draining the child's output so it never blocks on a full pipe.
  (async () => {
    try {
      while (!(await reader.read()).done) { /* drain */ }
    } catch { /* closed */ }
  })();
  const { url, anon, service: serviceKey, secret, pid } = info;
  return {
    url,
    anonKey: anon,
    serviceRoleKey: serviceKey,
    service: createClient(url, serviceKey, { auth: noSession }),
    async as(userId, aal) {
      const token = await mintToken(secret, userId, aal);
      return { token, client: createClient(url, anon, { auth: noSession, global: { headers: { Authorization: `Bearer ${token}` } } }) };
    },
    functionUrl: (path) => `${url}/functions/v1/${path.replace(/^\//, "")}`,
    async stop() {
      // Ending the inner command makes with-stack stop the stack and remove its data dir.
      try {
        Deno.kill(pid, "SIGTERM");
      } catch { /* already gone */ }
      await child.status;
    },
  };
}
