// The auth service (/auth/v1) through the unmodified supabase-js auth client:
// sign-up and confirmation from the mailbox, sign-in, refresh rotation and reuse,
// PKCE, anonymous sign-in, magic links, recovery, email change, logout scopes,
// redirect allow-list, the user endpoint, error shapes and hostile input.
import { describe, expect, it } from "vitest";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { decodeJwt } from "jose";
import { nodeClientOptions, sql, stackInfo } from "./helpers.ts";

const SITE = "http://127.0.0.1:3000";
const API_VERSION = { "X-Supabase-Api-Version": "2024-01-01" };

function client(flowType: "implicit" | "pkce" = "implicit"): SupabaseClient {
  const s = stackInfo();
  return createClient(s.apiUrl, s.anonKey, { ...nodeClientOptions, auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false, flowType } });
}

const uniqueEmail = (tag: string) => `${tag}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}@example.test`;

interface Mail { id: string; to: string; subject: string; html: string; text: string; created_at: string }

async function mailsTo(email: string): Promise<Mail[]> {
  const res = await fetch(`${stackInfo().apiUrl}/mail/api/messages?to=${encodeURIComponent(email)}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Mail[];
}

async function lastMail(email: string): Promise<Mail> {
  const list = await mailsTo(email);
  expect(list.length).toBeGreaterThan(0);
  return list[0]!;
}

/**
 * The verify link a browser follows for this mail. The project's templates link to the app with
 * the token hash in the fragment (`<page>#token_hash=...&type=...`, verified there with verifyOtp
 * so the link works on any device); GoTrue's own link for the same token is
 * /auth/v1/verify?token=<hash>&type=<type>&redirect_to=<page> ({{ .ConfirmationURL }}), which the
 * email-change template still uses.
 */
function linkIn(mail: Mail): string {
  const direct = /(https?:\/\/\S+\/auth\/v1\/verify\?\S+)/.exec(mail.text);
  if (direct) return direct[1]!;
  const m = /(https?:\/\/[^\s#()]+)#token_hash=([0-9a-z_]+)&(?:amp;)?type=([a-z_]+)/.exec(mail.text);
  expect(m, `no verify link in ${mail.text}`).toBeTruthy();
  const [, page, hash, type] = m!;
  return `${stackInfo().apiUrl}/auth/v1/verify?token=${hash}&type=${type}&redirect_to=${encodeURIComponent(page!)}`;
}

function otpIn(mail: Mail): string {
  const m = /[:：]\s*(\d{6})\s*$/m.exec(mail.text);
  expect(m).toBeTruthy();
  return m![1]!;
}

/** Follows an email link like a browser's first hop: returns the Location it redirects to. */
async function follow(link: string): Promise<URL> {
  const res = await fetch(link, { redirect: "manual" });
  expect([302, 303]).toContain(res.status);
  return new URL(res.headers.get("location")!);
}

const fragment = (u: URL) => new URLSearchParams(u.hash.slice(1));

async function confirmedUser(password = "correct horse 1", data: Record<string, unknown> = {}) {
  const email = uniqueEmail("user");
  const c = client();
  const { error } = await c.auth.signUp({ email, password, options: { data } });
  expect(error).toBeNull();
  const loc = await follow(linkIn(await lastMail(email)));
  expect(fragment(loc).get("access_token")).toBeTruthy();
  return { email, password };
}

async function signedIn(email: string, password: string) {
  const c = client();
  const { data, error } = await c.auth.signInWithPassword({ email, password });
  expect(error).toBeNull();
  return { c, session: data.session! };
}

async function raw(path: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
  const s = stackInfo();
  return fetch(`${s.apiUrl}/auth/v1${path}`, { ...init, headers: { apikey: s.anonKey, "content-type": "application/json", ...init.headers } });
}

describe("sign-up with email confirmation", () => {
  it("creates an unconfirmed user, fires on_auth_user_created, mails a link in the user's language", async () => {
    const email = uniqueEmail("signup");
    const c = client();
    const { data, error } = await c.auth.signUp({
      email, password: "s3cret-password",
      options: { data: { locale: "de", full_name: "Ada" }, emailRedirectTo: `${SITE}/welcome` },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user!.email).toBe(email);
    expect(data.user!.email_confirmed_at).toBeUndefined();
    expect(data.user!.user_metadata).toMatchObject({ locale: "de", full_name: "Ada" });
    expect(data.user!.identities![0]!.provider).toBe("email");

    const profiles = await sql("select email, locale from public.auth_fixture_profiles where id = $1", [data.user!.id]);
    expect(profiles).toEqual([{ email, locale: "de" }]);
    const stored = await sql<{ encrypted_password: string }>("select encrypted_password from auth.users where id = $1", [data.user!.id]);
    expect(stored[0]!.encrypted_password).toMatch(/^\$2[ab]\$10\$/);

    const mail = await lastMail(email);
    expect(mail.subject).toBe("Bestätigen Sie Ihre Registrierung");
    expect(mail.html).toContain("E-Mail bestätigen");

    const refused = await c.auth.signInWithPassword({ email, password: "s3cret-password" });
    expect(refused.error?.code).toBe("email_not_confirmed");
    expect(refused.error?.status).toBe(400);

    const loc = await follow(linkIn(mail));
    expect(`${loc.origin}${loc.pathname}`).toBe(`${SITE}/welcome`);
    const f = fragment(loc);
    expect(f.get("type")).toBe("signup");
    expect(f.get("token_type")).toBe("bearer");
    const { data: viaLink } = await c.auth.getUser(f.get("access_token")!);
    expect(viaLink.user!.email_confirmed_at).toBeTruthy();

    const ok = await c.auth.signInWithPassword({ email, password: "s3cret-password" });
    expect(ok.error).toBeNull();
    expect(ok.data.session!.token_type).toBe("bearer");

    // The link is single-use.
    const again = fragment(await follow(linkIn(mail)));
    expect(again.get("error_code")).toBe("otp_expired");
    expect(again.get("error")).toBe("access_denied");
  });

  it("issues GoTrue's access token claims", async () => {
    const { email, password } = await confirmedUser();
    const { session } = await signedIn(email, password);
    const claims = decodeJwt(session.access_token);
    expect(claims).toMatchObject({
      iss: `${stackInfo().apiUrl}/auth/v1`, sub: session.user.id, aud: "authenticated", email, phone: "", role: "authenticated",
      aal: "aal1", is_anonymous: false, app_metadata: { provider: "email", providers: ["email"] },
    });
    expect(claims.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect((claims.amr as { method: string }[])[0]!.method).toBe("password");
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(session.expires_in).toBe(3600);
    expect(session.expires_at).toBe(claims.exp);
    const verified = await client().auth.getClaims(session.access_token);
    expect(verified.error).toBeNull();
    expect(verified.data!.claims.session_id).toBe(claims.session_id);
    // Signed with the published key in use (ES256 by default), as new Supabase projects sign.
    const jwks = (await (await raw("/.well-known/jwks.json")).json()) as { keys: { kid: string }[] };
    expect(jwks.keys.map((k) => k.kid)).toContain(verified.data!.header.kid);
    // The token works against PostgREST under RLS.
    const s = stackInfo();
    const asUser = createClient(s.apiUrl, s.anonKey, { ...nodeClientOptions, global: { headers: { Authorization: `Bearer ${session.access_token}` } } });
    const { data } = await asUser.from("auth_fixture_profiles").select("email");
    expect(data).toEqual([{ email }]);
  });

  it("refuses a wrong password and an unknown address alike", async () => {
    const { email } = await confirmedUser();
    const c = client();
    const wrong = await c.auth.signInWithPassword({ email, password: "not the password" });
    expect(wrong.error?.code).toBe("invalid_credentials");
    expect(wrong.error?.message).toBe("Invalid login credentials");
    const unknown = await c.auth.signInWithPassword({ email: uniqueEmail("nobody"), password: "whatever1" });
    expect(unknown.error?.code).toBe("invalid_credentials");
  });

  it("refuses weak passwords and does not reveal taken addresses", async () => {
    const c = client();
    const weak = await c.auth.signUp({ email: uniqueEmail("weak"), password: "short" });
    expect(weak.error?.code).toBe("weak_password");
    expect(weak.error?.status).toBe(422);
    expect((weak.error as { reasons?: string[] }).reasons).toEqual(["length"]);

    const { email } = await confirmedUser();
    const before = (await mailsTo(email)).length;
    const dup = await c.auth.signUp({ email, password: "another-password" });
    expect(dup.error).toBeNull();
    expect(dup.data.user!.identities).toEqual([]);
    expect((await mailsTo(email)).length).toBe(before);
  });

  it("resends the confirmation to an unconfirmed address signed up again, keeping the first password", async () => {
    const email = uniqueEmail("twice");
    const c = client();
    const first = await c.auth.signUp({ email, password: "first-password" });
    await sql("update auth.users set confirmation_sent_at = now() - interval '1 minute' where email = $1", [email]);
    const second = await c.auth.signUp({ email, password: "second-password", options: { data: { x: 1 } } });
    expect(second.error).toBeNull();
    expect(second.data.user!.id).toBe(first.data.user!.id);
    expect(second.data.user!.user_metadata).toEqual({});
    expect(await mailsTo(email)).toHaveLength(2);
    await follow(linkIn(await lastMail(email)));
    expect((await c.auth.signInWithPassword({ email, password: "second-password" })).error?.code).toBe("invalid_credentials");
    expect((await c.auth.signInWithPassword({ email, password: "first-password" })).error).toBeNull();
  });

  it("lets users created in SQL with pgcrypto sign in (seed.sql compatibility)", async () => {
    const email = uniqueEmail("seeded");
    await sql(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
       values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1, extensions.crypt('seeded-pass', extensions.gen_salt('bf')), now(), '{"provider":"email","providers":["email"]}', '{}', now(), now())`,
      [email],
    );
    const { session } = await signedIn(email, "seeded-pass");
    expect(session.user.email).toBe(email);
  });
});

describe("sessions", () => {
  it("rotates refresh tokens, tolerates reuse within the interval, revokes the family after it", async () => {
    const { email, password } = await confirmedUser();
    const { c, session } = await signedIn(email, password);
    const first = session.refresh_token;
    const r1 = await c.auth.refreshSession({ refresh_token: first });
    expect(r1.error).toBeNull();
    const second = r1.data.session!.refresh_token;
    expect(second).not.toBe(first);
    expect(decodeJwt(r1.data.session!.access_token).session_id).toBe(decodeJwt(session.access_token).session_id);

    // Within refresh_token_reuse_interval the old token answers with the session's current one.
    const reuse = await c.auth.refreshSession({ refresh_token: first });
    expect(reuse.error).toBeNull();
    expect(reuse.data.session!.refresh_token).toBe(second);

    // Past the interval, reuse is refused and the whole session is revoked.
    await sql("update auth.refresh_tokens set updated_at = now() - interval '1 minute' where token = $1", [first]);
    const late = await c.auth.refreshSession({ refresh_token: first });
    expect(late.error?.code).toBe("refresh_token_already_used");
    const after = await c.auth.refreshSession({ refresh_token: second });
    expect(after.error?.code).toBe("refresh_token_not_found");
    const gone = await c.auth.getUser(r1.data.session!.access_token);
    expect(gone.error?.name).toBe("AuthSessionMissingError");
  });

  it("signs out with scopes others, local and global", async () => {
    const { email, password } = await confirmedUser();
    const a = await signedIn(email, password);
    const b = await signedIn(email, password);
    const c3 = await signedIn(email, password);
    const { error } = await a.c.auth.admin.signOut(a.session.access_token, "others");
    expect(error).toBeNull();
    expect((await client().auth.refreshSession({ refresh_token: b.session.refresh_token })).error?.code).toBe("refresh_token_not_found");
    expect((await client().auth.getUser(a.session.access_token)).error).toBeNull();

    const d = await signedIn(email, password);
    expect((await a.c.auth.admin.signOut(a.session.access_token, "local")).error).toBeNull();
    expect((await client().auth.getUser(a.session.access_token)).error?.name).toBe("AuthSessionMissingError");
    expect((await client().auth.getUser(d.session.access_token)).error).toBeNull();

    expect((await d.c.auth.admin.signOut(d.session.access_token, "global")).error).toBeNull();
    expect((await client().auth.refreshSession({ refresh_token: d.session.refresh_token })).error?.code).toBe("refresh_token_not_found");
    expect(c3.session.user.id).toBe(a.session.user.id);
  });

  it("answers /user without a token, with a bad token and with the anon key as GoTrue does", async () => {
    const none = await raw("/user", { headers: API_VERSION }); // the anon key, no Authorization
    expect(none.status).toBe(401);
    expect((await none.json()).code).toBe("no_authorization");
    const bad = await raw("/user", { headers: { ...API_VERSION, authorization: "Bearer not.a.jwt" } });
    expect(bad.status).toBe(403);
    expect(await bad.json()).toMatchObject({ code: "bad_jwt" });
    const anon = await raw("/user", { headers: { ...API_VERSION, authorization: `Bearer ${stackInfo().anonKey}` } });
    expect(anon.status).toBe(403);
    expect((await anon.json()).code).toBe("bad_jwt");
  });
});

describe("PKCE", () => {
  it("confirms a sign-up with ?code= and exchangeCodeForSession", async () => {
    const email = uniqueEmail("pkce");
    const c = client("pkce");
    const { error } = await c.auth.signUp({ email, password: "pkce-password", options: { emailRedirectTo: `${SITE}/app/auth/confirm` } });
    expect(error).toBeNull();
    const link = linkIn(await lastMail(email));
    expect(new URL(link).searchParams.get("token")).toMatch(/^pkce_/);
    const loc = await follow(link);
    expect(loc.pathname).toBe("/app/auth/confirm");
    const code = loc.searchParams.get("code")!;
    expect(code).toBeTruthy();
    expect(loc.hash).toBe("");
    const { data, error: exErr } = await c.auth.exchangeCodeForSession(code);
    expect(exErr).toBeNull();
    expect(data.session!.user.email).toBe(email);
    expect(data.user!.email_confirmed_at).toBeTruthy();
    // A code is exchanged once.
    const again = await raw("/token?grant_type=pkce", { method: "POST", headers: API_VERSION, body: JSON.stringify({ auth_code: code, code_verifier: "x".repeat(43) }) });
    expect(again.status).toBe(404);
    expect((await again.json()).code).toBe("flow_state_not_found");
  });

  it("verifyOtp with the token hash of a PKCE e-mail gives a session, as GoTrue's POST /verify does (any device)", async () => {
    const email = uniqueEmail("pkce-hash");
    const asker = client("pkce");
    expect((await asker.auth.signUp({ email, password: "pkce-password", options: { emailRedirectTo: `${SITE}/app/auth/confirm-email` } })).error).toBeNull();
    const mail = await lastMail(email);
    const hash = /#token_hash=(pkce_[0-9a-f]+)&(?:amp;)?type=signup/.exec(mail.text)?.[1];
    expect(hash, mail.text).toBeTruthy();
    // Another device: a client that never saw the sign-up (no code verifier).
    const other = client("pkce");
    const { data, error } = await other.auth.verifyOtp({ token_hash: hash!, type: "signup" });
    expect(error).toBeNull();
    expect(data.session?.user.email).toBe(email);
    expect(data.user?.email_confirmed_at).toBeTruthy();
    // Used once.
    const again = await other.auth.verifyOtp({ token_hash: hash!, type: "signup" });
    expect(again.error?.code).toBe("otp_expired");
  });

  it("verifyOtp with the e-mail's code gives a session for a PKCE recovery too", async () => {
    const { email } = await confirmedUser();
    const asker = client("pkce");
    expect((await asker.auth.resetPasswordForEmail(email, { redirectTo: `${SITE}/app/auth/reset` })).error).toBeNull();
    const other = client("pkce");
    const { data, error } = await other.auth.verifyOtp({ email, token: otpIn(await lastMail(email)), type: "recovery" });
    expect(error).toBeNull();
    expect(data.session?.user.email).toBe(email);
  });

  it("refuses a wrong code verifier", async () => {
    const { email } = await confirmedUser();
    const c = client("pkce");
    expect((await c.auth.resetPasswordForEmail(email, { redirectTo: `${SITE}/app/auth/reset` })).error).toBeNull();
    const code = (await follow(linkIn(await lastMail(email)))).searchParams.get("code")!;
    const res = await raw("/token?grant_type=pkce", { method: "POST", headers: API_VERSION, body: JSON.stringify({ auth_code: code, code_verifier: "w".repeat(50) }) });
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe("bad_code_verifier");
    const ok = await c.auth.exchangeCodeForSession(code);
    expect(ok.error).toBeNull();
    expect(ok.data.user!.email).toBe(email);
  });
});

describe("anonymous users", () => {
  it("signs in anonymously and converts to an email user", async () => {
    const c = client();
    const { data, error } = await c.auth.signInAnonymously({ options: { data: { locale: "fr" } } });
    expect(error).toBeNull();
    expect(data.user!.is_anonymous).toBe(true);
    expect(decodeJwt(data.session!.access_token)).toMatchObject({ is_anonymous: true, role: "authenticated" });
    expect((decodeJwt(data.session!.access_token).amr as { method: string }[])[0]!.method).toBe("anonymous");

    const s = stackInfo();
    const asUser = createClient(s.apiUrl, s.anonKey, { ...nodeClientOptions, auth: { persistSession: false, autoRefreshToken: false } });
    await asUser.auth.setSession({ access_token: data.session!.access_token, refresh_token: data.session!.refresh_token });
    const email = uniqueEmail("convert");
    const upd = await asUser.auth.updateUser({ email }, { emailRedirectTo: `${SITE}/converted` });
    expect(upd.error).toBeNull();
    expect(upd.data.user!.new_email).toBe(email);
    const mail = await lastMail(email);
    expect(mail.subject).toBe("Confirmez le changement d'adresse e-mail");
    const f = fragment(await follow(linkIn(mail)));
    expect(f.get("type")).toBe("email_change");
    const { data: after } = await c.auth.getUser(f.get("access_token")!);
    expect(after.user!.email).toBe(email);
    expect(after.user!.is_anonymous).toBe(false);
  });
});

describe("magic links and OTP", () => {
  it("signs up on OTP for a new address, then signs in by link and by token hash", async () => {
    const email = uniqueEmail("otp");
    const c = client();
    expect((await c.auth.signInWithOtp({ email, options: { emailRedirectTo: `${SITE}/in` } })).error).toBeNull();
    const confirm = await lastMail(email);
    expect(confirm.subject).toBe("Confirm your signup");
    expect(fragment(await follow(linkIn(confirm))).get("type")).toBe("signup");

    await sql("update auth.users set recovery_sent_at = now() - interval '1 hour' where email = $1", [email]);
    expect((await c.auth.signInWithOtp({ email, options: { emailRedirectTo: `${SITE}/in` } })).error).toBeNull();
    const magic = await lastMail(email);
    expect(magic.subject).toBe("Your sign-in link");
    // The project's sign-in e-mail carries no code (no screen takes one): its link's token hash.
    const hash = /#token_hash=([0-9a-f]+)&(?:amp;)?type=magiclink/.exec(magic.text)?.[1];
    expect(hash, magic.text).toBeTruthy();
    const { data, error } = await c.auth.verifyOtp({ token_hash: hash!, type: "magiclink" });
    expect(error).toBeNull();
    expect(data.session!.user.email).toBe(email);
    expect((decodeJwt(data.session!.access_token).amr as { method: string }[])[0]!.method).toBe("otp");
    // The link of a used code is dead too.
    expect(fragment(await follow(linkIn(magic))).get("error_code")).toBe("otp_expired");
  });

  it("refuses OTP sign-up when shouldCreateUser is false, and wrong codes", async () => {
    const c = client();
    const no = await c.auth.signInWithOtp({ email: uniqueEmail("nocreate"), options: { shouldCreateUser: false } });
    expect(no.error?.code).toBe("otp_disabled");
    const { email } = await confirmedUser();
    const bad = await c.auth.verifyOtp({ email, token: "000000", type: "email" });
    expect(bad.error?.code).toBe("otp_expired");
    expect(bad.error?.status).toBe(403);
  });
});

describe("resend", () => {
  it("sends a new confirmation whose token replaces the first one", async () => {
    const email = uniqueEmail("resend");
    const c = client();
    await c.auth.signUp({ email, password: "resend-pass-1" });
    const first = await lastMail(email);
    const early = await c.auth.resend({ type: "signup", email });
    expect(early.error?.code).toBe("over_email_send_rate_limit");
    await sql("update auth.users set confirmation_sent_at = now() - interval '1 minute' where email = $1", [email]);
    expect((await c.auth.resend({ type: "signup", email, options: { emailRedirectTo: `${SITE}/again` } })).error).toBeNull();
    const second = await lastMail(email);
    expect(second.id).not.toBe(first.id);
    expect(fragment(await follow(linkIn(first))).get("error_code")).toBe("otp_expired");
    const ok = await follow(linkIn(second));
    expect(ok.pathname).toBe("/again");
    expect(fragment(ok).get("type")).toBe("signup");
  });
});

describe("recovery", () => {
  it("resets a forgotten password through the mailed link", async () => {
    const { email, password } = await confirmedUser("old-password-1");
    const c = client();
    expect((await c.auth.resetPasswordForEmail(email, { redirectTo: `${SITE}/app/auth/reset` })).error).toBeNull();
    const mail = await lastMail(email);
    expect(mail.subject).toBe("Reset your password");
    const loc = await follow(linkIn(mail));
    expect(loc.pathname).toBe("/app/auth/reset");
    const f = fragment(loc);
    expect(f.get("type")).toBe("recovery");
    expect((decodeJwt(f.get("access_token")!).amr as { method: string }[])[0]!.method).toBe("recovery");
    await c.auth.setSession({ access_token: f.get("access_token")!, refresh_token: f.get("refresh_token")! });
    expect((await c.auth.updateUser({ password: "new-password-2" })).error).toBeNull();
    const same = await c.auth.updateUser({ password: "new-password-2" });
    expect(same.error?.code).toBe("same_password");
    expect((await client().auth.signInWithPassword({ email, password })).error?.code).toBe("invalid_credentials");
    expect((await client().auth.signInWithPassword({ email, password: "new-password-2" })).error).toBeNull();
  });

  it("answers the same for an unknown address and sends nothing", async () => {
    const email = uniqueEmail("ghost");
    expect((await client().auth.resetPasswordForEmail(email)).error).toBeNull();
    expect(await mailsTo(email)).toEqual([]);
  });

  it("limits how often one address gets the same email (max_frequency)", async () => {
    const { email } = await confirmedUser();
    await sql("update auth.users set recovery_sent_at = now() where email = $1", [email]);
    const second = await client().auth.resetPasswordForEmail(email);
    expect(second.error?.code).toBe("over_email_send_rate_limit");
    expect(second.error?.status).toBe(429);
  });
});

describe("user updates", () => {
  it("changes the email with confirmation of both addresses", async () => {
    const { email, password } = await confirmedUser();
    const { c } = await signedIn(email, password);
    const next = uniqueEmail("moved");
    const upd = await c.auth.updateUser({ email: next });
    expect(upd.error).toBeNull();
    expect(upd.data.user!.email).toBe(email);
    const toNew = await lastMail(next);
    const toOld = await lastMail(email);
    expect(toOld.subject).toBe("Confirm your email change");
    expect(toNew.text).toContain(next);
    const half = fragment(await follow(linkIn(toNew)));
    expect(half.get("message")).toMatch(/Confirmation link accepted/);
    expect((await c.auth.getUser()).data.user!.email).toBe(email);
    const done = fragment(await follow(linkIn(toOld)));
    expect(done.get("type")).toBe("email_change");
    const { data } = await c.auth.getUser(done.get("access_token")!);
    expect(data.user!.email).toBe(next);
    expect((await client().auth.signInWithPassword({ email: next, password })).error).toBeNull();
  });

  it("merges user metadata and refuses an address that is taken", async () => {
    const { email, password } = await confirmedUser("pw-metadata", { a: 1, b: 2 });
    const other = await confirmedUser();
    const { c } = await signedIn(email, password);
    const { data } = await c.auth.updateUser({ data: { b: null, c: "three" } });
    expect(data.user!.user_metadata).toEqual({ a: 1, c: "three" });
    const taken = await c.auth.updateUser({ email: other.email });
    expect(taken.error?.code).toBe("email_exists");
  });
});

describe("redirect allow list", () => {
  it("a malformed redirect_to is refused like any other, not a 500", async () => {
    const email = uniqueEmail("badredir");
    const res = await fetch(`${stackInfo().apiUrl}/auth/v1/recover?redirect_to=${encodeURIComponent("http://evil.example/%E0%A4%A")}`, {
      method: "POST",
      headers: { apikey: stackInfo().anonKey, "content-type": "application/json" },
      body: JSON.stringify({ email }),
    });
    expect(res.status).toBe(200);
    await res.body?.cancel();
  });

  it("falls back to the site URL for a redirect outside the allow list", async () => {
    const email = uniqueEmail("redir");
    await client().auth.signUp({ email, password: "redirect-pass", options: { emailRedirectTo: "https://evil.example/steal" } });
    const link = linkIn(await lastMail(email));
    expect(new URL(link).searchParams.get("redirect_to")).toBe(SITE);
    const loc = await follow(link.replace(encodeURIComponent(SITE), encodeURIComponent("https://evil.example/steal")));
    expect(loc.origin).toBe(SITE);
    expect(loc.hostname).not.toBe("evil.example");
  });

  it("accepts URLs that match additional_redirect_urls globs", async () => {
    const email = uniqueEmail("glob");
    await client().auth.signUp({ email, password: "redirect-pass", options: { emailRedirectTo: "http://localhost:3000/deep/path?x=1" } });
    const loc = await follow(linkIn(await lastMail(email)));
    expect(loc.origin).toBe("http://localhost:3000");
    expect(loc.pathname).toBe("/deep/path");
  });
});

describe("settings and error shapes", () => {
  it("serves /settings from config.toml", async () => {
    const res = await raw("/settings");
    expect(await res.json()).toMatchObject({
      disable_signup: false, mailer_autoconfirm: false,
      external: { email: true, google: true, notion: true, anonymous_users: true, github: false },
    });
  });

  it("answers in the 2024-01-01 shape or the legacy one depending on the API version header", async () => {
    const body = JSON.stringify({ email: uniqueEmail("shape"), password: "no-such-password" });
    const modern = await raw("/token?grant_type=password", { method: "POST", headers: API_VERSION, body });
    expect(modern.status).toBe(400);
    expect(modern.headers.get("x-supabase-api-version")).toBe("2024-01-01");
    expect(await modern.json()).toEqual({ code: "invalid_credentials", message: "Invalid login credentials" });

    const legacyToken = await raw("/token?grant_type=password", { method: "POST", body });
    expect(await legacyToken.json()).toMatchObject({ error: "invalid_grant", error_description: "Invalid login credentials" });

    const legacy = await raw("/signup", { method: "POST", body: JSON.stringify({ email: uniqueEmail("shape"), password: "x" }) });
    expect(legacy.status).toBe(422);
    expect(await legacy.json()).toEqual({ code: 422, error_code: "weak_password", msg: "Password should be at least 8 characters.", weak_password: { reasons: ["length"] } });
  });
});

describe("hostile input", () => {
  it("refuses malformed JSON, huge bodies and wrong types with a 4xx", async () => {
    const malformed = await raw("/signup", { method: "POST", headers: API_VERSION, body: '{"email": "a@b.c", "password": ' });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).code).toBe("bad_json");

    const huge = await raw("/signup", { method: "POST", headers: API_VERSION, body: JSON.stringify({ email: "big@example.test", password: "x".repeat(2 * 1024 * 1024) }) });
    expect(huge.status).toBe(413);

    for (const body of [{ email: 123, password: "password1" }, { email: "t@example.test", password: ["a"] }, { email: "t@example.test", password: "password1", data: "str" }]) {
      const res = await raw("/signup", { method: "POST", headers: API_VERSION, body: JSON.stringify(body) });
      expect(res.status).toBe(400);
      expect((await res.json()).code).toBe("bad_json");
    }
    const arr = await raw("/token?grant_type=password", { method: "POST", headers: API_VERSION, body: "[1,2]" });
    expect(arr.status).toBe(400);
    const grant = await raw("/token?grant_type=nope", { method: "POST", headers: API_VERSION, body: "{}" });
    expect(grant.status).toBe(400);
  });

  it("never answers 5xx to wrong-typed or odd bodies on any endpoint", { timeout: 120_000 }, async () => {
    const s = stackInfo();
    const { email, password } = await confirmedUser();
    const { session } = await signedIn(email, password);
    const asUser = { authorization: `Bearer ${session.access_token}` };
    const asAdmin = { authorization: `Bearer ${s.serviceRoleKey}` };
    const endpoints: [string, string, Record<string, string>][] = [
      ["POST", "/signup", {}], ["POST", "/token?grant_type=password", {}], ["POST", "/token?grant_type=refresh_token", {}],
      ["POST", "/token?grant_type=pkce", {}], ["POST", "/recover", {}], ["POST", "/otp", {}], ["POST", "/resend", {}],
      ["POST", "/verify", {}], ["PUT", "/user", asUser], ["POST", "/logout?scope=everything", asUser], ["POST", "/invite", asAdmin],
      ["POST", "/admin/users", asAdmin], ["PUT", `/admin/users/${session.user.id}`, asAdmin], ["POST", "/admin/generate_link", asAdmin],
    ];
    const bodies = [
      "null", '"text"', "[]", "42", '{"email":{}}', '{"email":"a@b.c","password":1e308}', '{"data":[]}', '{"type":5,"email":"a@b.c"}',
      `{"email":"${"a".repeat(5000)}@example.test","password":"password1"}`, '{"email":"x@example.test","code_challenge":1}',
      '{"ban_duration":"forever"}', '{"email":"x@example.test","password":"password1","code_challenge":"short","code_challenge_method":"s256"}',
      '{"refresh_token":{"$ne":null}}', '{"auth_code":"\u0000","code_verifier":"\u0000"}', '{"type":"signup","token_hash":"\u0000\u0000"}',
      '{"email":"\u0000@example.test","password":"password1"}', '{"user_metadata":"x","app_metadata":[1]}',
    ];
    for (const [method, path, headers] of endpoints) {
      for (const body of bodies) {
        const res = await raw(path, { method, headers: { ...API_VERSION, ...headers }, body });
        const text = await res.text();
        // Unknown fields are ignored as GoTrue ignores them (a body with none of the known ones
        // is an anonymous sign-up); what matters is that nothing fails inside.
        expect(res.status, `${method} ${path} ${body.slice(0, 60)} -> ${text.slice(0, 200)}`).toBeLessThan(500);
        if (res.status >= 400) expect(JSON.parse(text).code).toEqual(expect.any(String));
      }
    }
    // The session survived all of it.
    expect((await client().auth.getUser(session.access_token)).error).toBeNull();
  });

  it("treats SQL-looking strings as data and changes nothing", async () => {
    const before = await sql<{ n: string }>("select count(*) as n from auth.users where email like '%drop%'");
    const evil = "x'; drop table auth.users; --@example.test";
    const signup = await raw("/signup", { method: "POST", headers: API_VERSION, body: JSON.stringify({ email: evil, password: "password123" }) });
    expect(signup.status).toBe(400);
    expect((await signup.json()).code).toBe("validation_failed");
    const login = await client().auth.signInWithPassword({ email: "' or 1=1 --", password: "' or '1'='1" });
    expect(login.error?.code).toBe("invalid_credentials");
    const s = stackInfo();
    const admin = await raw(`/admin/users/${encodeURIComponent("1' or '1'='1")}`, { headers: { ...API_VERSION, authorization: `Bearer ${s.serviceRoleKey}` } });
    expect(admin.status).toBe(404);
    expect((await admin.json()).code).toBe("user_not_found");
    const malformed = await raw("/admin/users/%E0%A4%A", { headers: { ...API_VERSION, authorization: `Bearer ${s.serviceRoleKey}` } });
    expect(malformed.status).toBe(404);
    const mail = await fetch(`${s.apiUrl}/mail/api/messages/%E0%A4%A`);
    expect(mail.status).toBe(404);
    const after = await sql<{ n: string }>("select count(*) as n from auth.users where email like '%drop%'");
    expect(after).toEqual(before);
    expect((await sql("select to_regclass('auth.users') is not null as ok"))[0]).toEqual({ ok: true });
  });
});
