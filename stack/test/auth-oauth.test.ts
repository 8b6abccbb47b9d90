// Google and Notion sign-in through supabase-js against test/oauth-server.ts (a
// local provider speaking the OAuth2 code flow and each provider's user API):
// the redirects are followed by hand, as a browser would.
import { describe, expect, inject, it } from "vitest";
import { createClient, type Provider, type SupabaseClient } from "@supabase/supabase-js";
import { nodeClientOptions, serviceClient, stackInfo } from "./helpers.ts";

const SITE = "http://127.0.0.1:3000";
const uniqueEmail = (tag: string) => `${tag}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}@example.test`;

function client(flowType: "implicit" | "pkce" = "implicit"): SupabaseClient {
  const s = stackInfo();
  return createClient(s.apiUrl, s.anonKey, { ...nodeClientOptions, auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false, flowType } });
}

async function redirectOf(res: Response): Promise<URL> {
  expect([302, 303], `status ${res.status}: ${res.status >= 400 ? await res.text() : ""}`).toContain(res.status);
  return new URL(res.headers.get("location")!);
}

/** Runs the browser's part: authorize -> provider consent (approve as `email`) -> callback. */
async function signInAt(c: SupabaseClient, provider: "google" | "notion", email: string, opts: { deny?: boolean; redirectTo?: string } = {}) {
  const { data, error } = await c.auth.signInWithOAuth({
    provider: provider as Provider,
    options: { redirectTo: opts.redirectTo ?? `${SITE}/app/auth/providers/${provider}/callback`, skipBrowserRedirect: true },
  });
  expect(error).toBeNull();
  const toProvider = await redirectOf(await fetch(data.url!, { redirect: "manual" }));
  expect(toProvider.origin).toBe(inject("oauthUrl"));
  const consent = await fetch(toProvider, { redirect: "manual" });
  expect(consent.status).toBe(200);
  const form = new URLSearchParams({
    client_id: toProvider.searchParams.get("client_id")!, redirect_uri: toProvider.searchParams.get("redirect_uri")!,
    state: toProvider.searchParams.get("state")!, email, name: "Grace Hopper", ...(opts.deny ? { deny: "1" } : {}),
  });
  const back = await redirectOf(await fetch(toProvider, { method: "POST", body: form, redirect: "manual" }));
  expect(back.pathname).toBe("/auth/v1/callback");
  return redirectOf(await fetch(back, { redirect: "manual" }));
}

const fragment = (u: URL) => new URLSearchParams(u.hash.slice(1));

describe.each(["google", "notion"] as const)("%s sign-in", (provider) => {
  it("creates the user and its identity, and signs in (implicit flow)", async () => {
    const email = uniqueEmail(provider);
    const loc = await signInAt(client(), provider, email);
    expect(loc.pathname).toBe(`/app/auth/providers/${provider}/callback`);
    const f = fragment(loc);
    expect(f.get("token_type")).toBe("bearer");
    expect(f.get("provider_token")).toBeTruthy();
    const { data, error } = await client().auth.getUser(f.get("access_token")!);
    expect(error).toBeNull();
    expect(data.user!.email).toBe(email);
    expect(data.user!.email_confirmed_at).toBeTruthy();
    expect(data.user!.app_metadata).toMatchObject({ provider, providers: [provider] });
    expect(data.user!.user_metadata).toMatchObject({ full_name: "Grace Hopper", email });
    expect(data.user!.identities!.map((i) => i.provider)).toEqual([provider]);

    // The same provider account signs in to the same user.
    const again = fragment(await signInAt(client(), provider, email));
    expect((await client().auth.getUser(again.get("access_token")!)).data.user!.id).toBe(data.user!.id);
  });

  it("finishes with a PKCE code that exchangeCodeForSession turns into a session", async () => {
    const email = uniqueEmail(`${provider}-pkce`);
    const c = client("pkce");
    const loc = await signInAt(c, provider, email);
    const code = loc.searchParams.get("code");
    expect(code).toBeTruthy();
    expect(loc.hash).toBe("");
    const { data, error } = await c.auth.exchangeCodeForSession(code!);
    expect(error).toBeNull();
    expect(data.user!.email).toBe(email);
    expect(data.user!.identities![0]!.provider).toBe(provider);
  });

  it("sends the provider's refusal back to the app", async () => {
    const loc = await signInAt(client(), provider, uniqueEmail("deny"), { deny: true });
    expect(loc.origin).toBe(SITE);
    expect(fragment(loc).get("error")).toBe("access_denied");
  });
});

describe("OAuth details", () => {
  it("links a provider identity to the existing user with the same verified email", async () => {
    const email = uniqueEmail("link");
    const { data: made } = await serviceClient().auth.admin.createUser({ email, password: "link-pass-1", email_confirm: true });
    const f = fragment(await signInAt(client(), "google", email));
    const { data } = await client().auth.getUser(f.get("access_token")!);
    expect(data.user!.id).toBe(made.user!.id);
    expect(data.user!.identities!.map((i) => i.provider).sort()).toEqual(["email", "google"]);
    expect([...(data.user!.app_metadata.providers as string[])].sort()).toEqual(["email", "google"]);
  });

  it("takes over an unconfirmed sign-up of the same address without keeping its password", async () => {
    const email = uniqueEmail("squat");
    const squatter = await client().auth.signUp({ email, password: "squatter-pass", options: { data: { evil: true } } });
    expect(squatter.error).toBeNull();
    const f = fragment(await signInAt(client(), "google", email));
    const { data } = await client().auth.getUser(f.get("access_token")!);
    expect(data.user!.identities!.map((i) => i.provider)).toEqual(["google"]);
    expect(data.user!.user_metadata.evil).toBeUndefined();
    expect(data.user!.email_confirmed_at).toBeTruthy();
    expect((await client().auth.signInWithPassword({ email, password: "squatter-pass" })).error?.code).toBe("invalid_credentials");
  });

  it("refuses unknown or disabled providers and a forged state", async () => {
    const s = stackInfo();
    const headers = { apikey: s.anonKey, "x-supabase-api-version": "2024-01-01" };
    const github = await fetch(`${s.apiUrl}/auth/v1/authorize?provider=github`, { headers, redirect: "manual" });
    expect(github.status).toBe(400);
    expect((await github.json()).code).toBe("validation_failed");
    const forged = await fetch(`${s.apiUrl}/auth/v1/callback?code=abc&state=not-a-jwt`, { headers, redirect: "manual" });
    expect(forged.status).toBe(400);
    expect((await forged.json()).code).toBe("bad_oauth_state");
  });

  it("sends users back to the site URL when redirect_to is not allowed", async () => {
    const loc = await signInAt(client(), "google", uniqueEmail("evil"), { redirectTo: "https://evil.example/cb" });
    expect(loc.origin).toBe(SITE);
    expect(fragment(loc).get("access_token")).toBeTruthy();
  });
});
