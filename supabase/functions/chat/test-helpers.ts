// Fixtures for the chat, bot-login and transcript tests: a team with its owner,
// bots with knowledge written by the service role, visitors, SSE parsing.
import assert from "node:assert/strict";
import type { SupabaseClient } from "npm:@supabase/supabase-js@2.119.1";
import { createClient } from "npm:@supabase/supabase-js@2.119.1";
import { callFunction, serviceClient, stack, testIp } from "../_shared/testing.ts";
import { parseSseFrames } from "../_shared/contracts/chat.ts";

/**
 * A confirmed user with a client and an access token minted with the stack's
 * JWT secret: many users per test file without tripping auth's sign-in rate
 * limit (30 per 5 minutes per IP), which the whole functions suite shares.
 */
export async function signedInUser(opts: { anonymous?: boolean; aal?: "aal1" | "aal2" } = {}) {
  const admin = serviceClient();
  const { data, error } = await admin.auth.admin.createUser({
    email: `chat-${crypto.randomUUID()}@parley.test`,
    password: crypto.randomUUID(),
    email_confirm: true,
  });
  if (error) throw error;
  const user = data.user!;
  const token = await mintToken(user.id, opts.anonymous ?? false, opts.aal);
  return { client: clientWithToken(token), user, token };
}

function clientWithToken(token: string) {
  return createClient(stack.url, stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { headers: { Authorization: `Bearer ${token}` } },
  });
}

/** The platform administrator of supabase/seed.sql (platform-admin@parley.test): reads every team's data, may change none. */
export const SEEDED_PLATFORM_ADMIN_ID = "a0000000-0000-4000-8000-000000000004";

export async function seededPlatformAdmin() {
  // Platform administrators act only at aal2 (a session that passed a second factor).
  const token = await mintToken(SEEDED_PLATFORM_ADMIN_ID, false, "aal2");
  return { client: clientWithToken(token), token };
}

/** A visitor whose account was deleted while their access token is still valid. */
export async function deletedVisitor() {
  const visitor = await signedInUser();
  const { error } = await serviceClient().auth.admin.deleteUser(visitor.user.id);
  if (error) throw error;
  return visitor;
}

async function mintToken(sub: string, anonymous: boolean, aal: "aal1" | "aal2" = "aal1"): Promise<string> {
  const secret = Deno.env.get("SUPABASE_JWT_SECRET");
  if (!secret) throw new Error("SUPABASE_JWT_SECRET is not set: run through scripts/with-stack.mjs");
  const b64 = (v: string | Uint8Array) =>
    btoa(typeof v === "string" ? v : String.fromCharCode(...v))
      .replace(/=+$/, "")
      .replace(/\+/g, "-")
      .replace(/\//g, "_");
  const now = Math.floor(Date.now() / 1000);
  const head = b64(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const body = b64(
    JSON.stringify({
      sub,
      role: "authenticated",
      aud: "authenticated",
      iat: now,
      exp: now + 3600,
      is_anonymous: anonymous,
      aal,
      session_id: crypto.randomUUID(),
      app_metadata: { provider: "email" },
      user_metadata: {},
    }),
  );
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const sig = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${head}.${body}`)));
  return `${head}.${body}.${b64(sig)}`;
}

export type Visibility = "public" | "private" | "password";

export interface BotFixture {
  botId: string;
  teamId: string;
  owner: Awaited<ReturnType<typeof signedInUser>>;
}

export async function createTeam(owner?: Awaited<ReturnType<typeof signedInUser>>) {
  owner ??= await signedInUser();
  const slug = `chat-${crypto.randomUUID().slice(0, 12)}`;
  const { data, error } = await owner.client.rpc("create_team", { name: "Chat test team", slug });
  if (error) throw error;
  const teamId = (data as { id: string }).id;
  // Function tests are not about plan limits (billing's tests are): a plan with free's per-minute
  // ceiling (600, which chat tests count on) and no other limit.
  await ensureRoomyPlan();
  const plan = await serviceClient().from("teams").update({ plan_id: ROOMY_PLAN }).eq("id", teamId);
  if (plan.error) throw plan.error;
  return { owner, teamId };
}

const ROOMY_PLAN = "function-tests";
let roomyPlan: Promise<void> | undefined;
const ensureRoomyPlan = () => (roomyPlan ??= (async () => {
  const name = Object.fromEntries(["en", "de", "es", "fr", "it", "jp", "cn", "el", "pl", "nl"].map((l) => [l, "Function tests"]));
  const { error } = await serviceClient().from("plans").upsert(
    { id: ROOMY_PLAN, name, sort_order: 99, chat_requests_per_minute: 600, api_access: true, powered_by_removable: true },
    { onConflict: "id" },
  );
  if (error) throw error;
})());

export async function createBot(
  opts: {
    visibility?: Visibility;
    language?: string;
    provider?: string;
    model?: string;
    instructions?: string;
    password?: string;
    showPoweredBy?: boolean;
    chunks?: Array<{ title: string; heading?: string; content: string; url?: string }>;
    team?: { owner: Awaited<ReturnType<typeof signedInUser>>; teamId: string };
  } = {},
): Promise<BotFixture> {
  const { owner, teamId } = opts.team ?? (await createTeam());
  const admin = serviceClient();
  const botId = crypto.randomUUID();
  const { error } = await admin.from("bots").insert({
    id: botId,
    team_id: teamId,
    name: "Test Bot",
    visibility: opts.visibility === "password" ? "private" : (opts.visibility ?? "public"),
    language: opts.language ?? "en",
    model_provider: opts.provider ?? "extractive",
    model: opts.model ?? null,
    instructions: opts.instructions ?? "",
    show_powered_by: opts.showPoweredBy ?? true,
  });
  if (error) throw error;
  if (opts.visibility === "password") {
    const { error: e } = await owner.client.rpc("set_bot_password", {
      bot_id: botId,
      password: opts.password ?? "letmein-42",
    });
    if (e) throw e;
  }
  if (opts.chunks?.length) await addChunks(botId, opts.chunks);
  return { botId, teamId, owner };
}

export async function addChunks(
  botId: string,
  chunks: Array<{ title: string; heading?: string; content: string; url?: string }>,
) {
  const admin = serviceClient();
  const sourceId = crypto.randomUUID();
  let r = await admin
    .from("data_sources")
    .insert({ id: sourceId, bot_id: botId, type: "text", name: "Test knowledge" });
  if (r.error) throw r.error;
  const docs = chunks.map((c, i) => ({
    id: crypto.randomUUID(),
    data_source_id: sourceId,
    bot_id: botId,
    title: c.title,
    url: c.url ?? `https://docs.example.test/${i}-${crypto.randomUUID().slice(0, 6)}`,
    content: c.content,
  }));
  r = await admin.from("documents").insert(docs);
  if (r.error) throw r.error;
  r = await admin
    .from("chunks")
    .insert(
      chunks.map((c, i) => ({
        document_id: docs[i].id,
        bot_id: botId,
        position: 0,
        heading_path: c.heading ?? c.title,
        content: c.content,
      })),
    );
  if (r.error) throw r.error;
}

export async function setProviderKey(
  teamId: string,
  provider: string,
  baseUrl: string | null,
  apiKey: string | null = "sk-test",
) {
  const { error } = await serviceClient()
    .from("team_provider_keys")
    .upsert({ team_id: teamId, provider, api_key: apiKey, base_url: baseUrl }, { onConflict: "team_id,provider" });
  if (error) throw error;
}

export interface SseEvent {
  event: string;
  data: any;
}

/** The chat's events in a finished SSE body (the same parser the app uses). */
export function parseSse(text: string): SseEvent[] {
  return parseSseFrames(`${text}\n\n`).events;
}

/** POSTs to /chat; returns the status and, for SSE answers, the parsed events (the body is always consumed). */
export async function chat(token: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await callFunction("chat", {
    method: "POST",
    token,
    // A client address per call (the gateway trusts X-Forwarded-For in tests) so the per-address
    // limit does not add up across the whole suite; tests of that limit pass their own.
    headers: { "content-type": "application/json", "x-forwarded-for": randomIp(), ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  const isSse = (res.headers.get("content-type") ?? "").startsWith("text/event-stream");
  return {
    status: res.status,
    headers: res.headers,
    events: isSse ? parseSse(text) : [],
    json: isSse ? null : JSON.parse(text),
  };
}

/** A private address for one visitor (10.x.y.z). */
export const randomIp = testIp;

export function answerText(events: SseEvent[]): string {
  return events
    .filter((e) => e.event === "token")
    .map((e) => e.data.text)
    .join("");
}

export function assertStreamShape(events: SseEvent[]) {
  assert.equal(events[0]?.event, "meta", "meta comes first");
  const last = events.at(-1)!;
  assert.equal(last.event, "done", `ends with done, got ${JSON.stringify(last)}`);
  assert.ok(
    events.some((e) => e.event === "sources"),
    "sources are sent",
  );
  assert.equal(last.data.message_id, events[0].data.message_id);
}

export async function ownMessages(client: SupabaseClient, chatId: string) {
  const { data, error } = await client.from("messages").select("*").eq("chat_id", chatId).order("created_at");
  if (error) throw error;
  return data ?? [];
}

export const PNG_1PX = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);
