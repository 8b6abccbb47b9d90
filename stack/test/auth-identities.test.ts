// Identities through supabase-js: linkIdentity() adds a Google identity to the signed-in
// user (the consent at test/oauth-server.ts is given by hand, as a browser would),
// getUserIdentities() lists it, unlinkIdentity() removes it but never the last one, and an
// identity already on another user is refused.
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { describe, expect, inject, it } from "vitest";
import { nodeClientOptions, serviceClient, stackInfo } from "./helpers.ts";

const SITE = "http://127.0.0.1:3000";
const uniqueEmail = (tag: string) => `${tag}-${Math.random().toString(36).slice(2, 10)}@example.test`;

function client(): SupabaseClient {
  return createClient(stackInfo().apiUrl, stackInfo().anonKey, { ...nodeClientOptions, auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false, flowType: "implicit" } });
}

async function redirectOf(res: Response): Promise<URL> {
  expect([302, 303], `status ${res.status}`).toContain(res.status);
  return new URL(res.headers.get("location")!);
}

/** The provider's consent and the callback, approving as `email`. */
async function consent(url: string, email: string): Promise<URL> {
  // linkIdentity() already answers with the provider's URL (skip_http_redirect).
  const toProvider = new URL(url);
  expect(toProvider.origin).toBe(inject("oauthUrl"));
  const form = new URLSearchParams({
    client_id: toProvider.searchParams.get("client_id")!, redirect_uri: toProvider.searchParams.get("redirect_uri")!,
    state: toProvider.searchParams.get("state")!, email, name: "Ada Lovelace",
  });
  const back = await redirectOf(await fetch(toProvider, { method: "POST", body: form, redirect: "manual" }));
  return redirectOf(await fetch(back, { redirect: "manual" }));
}

async function signedIn() {
  const email = uniqueEmail("ident");
  const password = "a-long-password-1";
  expect((await serviceClient().auth.admin.createUser({ email, password, email_confirm: true })).error).toBeNull();
  const c = client();
  expect((await c.auth.signInWithPassword({ email, password })).error).toBeNull();
  return c;
}

describe("identities", () => {
  it("links a Google identity to the signed-in user, lists it and unlinks it, keeping the last one", async () => {
    const c = await signedIn();
    const googleEmail = uniqueEmail("google-link");
    const link = await c.auth.linkIdentity({ provider: "google", options: { redirectTo: `${SITE}/app/account`, skipBrowserRedirect: true } });
    expect(link.error).toBeNull();
    const back = await consent(link.data.url!, googleEmail);
    expect(back.pathname).toBe("/app/account");
    expect(new URLSearchParams(back.hash.slice(1)).get("access_token")).toBeTruthy();

    const listed = await c.auth.getUserIdentities();
    expect(listed.error).toBeNull();
    expect(listed.data!.identities.map((i) => i.provider).sort()).toEqual(["email", "google"]);
    expect((await c.auth.getUser()).data.user!.app_metadata.providers!.sort()).toEqual(["email", "google"]);

    const google = listed.data!.identities.find((i) => i.provider === "google")!;
    expect((await c.auth.unlinkIdentity(google)).error).toBeNull();
    const after = (await c.auth.getUserIdentities()).data!.identities;
    expect(after.map((i) => i.provider)).toEqual(["email"]);
    expect((await c.auth.unlinkIdentity(after[0]!)).error).toMatchObject({ status: 422, code: "single_identity_not_deletable" });
    expect((await c.auth.unlinkIdentity({ ...after[0]!, identity_id: crypto.randomUUID() })).error).toMatchObject({ status: 404, code: "identity_not_found" });

    // The same Google account cannot be linked to a second user.
    const other = await signedIn();
    const first = await c.auth.linkIdentity({ provider: "google", options: { redirectTo: `${SITE}/app/account`, skipBrowserRedirect: true } });
    await consent(first.data.url!, googleEmail);
    const second = await other.auth.linkIdentity({ provider: "google", options: { redirectTo: `${SITE}/app/account`, skipBrowserRedirect: true } });
    const refused = await consent(second.data.url!, googleEmail);
    expect(new URLSearchParams(refused.hash.slice(1)).get("error_code")).toBe("identity_already_exists");
  });
});
