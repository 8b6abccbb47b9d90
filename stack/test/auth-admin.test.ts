// The auth admin API (service role only) through supabase-js: users, invites and
// generated links; refused for anon keys and user tokens with GoTrue's codes.
import { describe, expect, it } from "vitest";
import { createClient } from "@supabase/supabase-js";
import { decodeJwt } from "jose";
import { anonClient, nodeClientOptions, serviceClient, sql, stackInfo } from "./helpers.ts";

const SITE = "http://127.0.0.1:3000";
const uniqueEmail = (tag: string) => `${tag}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}@example.test`;

function plainClient() {
  const s = stackInfo();
  return createClient(s.apiUrl, s.anonKey, { ...nodeClientOptions, auth: { persistSession: false, autoRefreshToken: false } });
}

async function lastMail(email: string) {
  const res = await fetch(`${stackInfo().apiUrl}/mail/api/messages?to=${encodeURIComponent(email)}`);
  const list = (await res.json()) as { subject: string; text: string }[];
  expect(list.length).toBeGreaterThan(0);
  return list[0]!;
}

async function follow(link: string): Promise<URL> {
  const res = await fetch(link, { redirect: "manual" });
  expect(res.status).toBe(303);
  return new URL(res.headers.get("location")!);
}

const fragment = (u: URL) => new URLSearchParams(u.hash.slice(1));

describe("admin users", () => {
  const admin = serviceClient().auth.admin;

  it("creates, reads, updates, bans and deletes users", async () => {
    const email = uniqueEmail("admin");
    const created = await admin.createUser({ email, password: "admin-made-1", email_confirm: true, user_metadata: { locale: "it" }, app_metadata: { plan: "pro" } });
    expect(created.error).toBeNull();
    const id = created.data.user!.id;
    expect(created.data.user!.email_confirmed_at).toBeTruthy();
    expect(created.data.user!.app_metadata).toMatchObject({ provider: "email", providers: ["email"], plan: "pro" });
    expect((await sql("select locale from public.auth_fixture_profiles where id = $1", [id]))).toEqual([{ locale: "it" }]);

    const signIn = await plainClient().auth.signInWithPassword({ email, password: "admin-made-1" });
    expect(signIn.error).toBeNull();
    expect(decodeJwt(signIn.data.session!.access_token).app_metadata).toMatchObject({ plan: "pro" });

    const dup = await admin.createUser({ email, password: "admin-made-1" });
    expect(dup.error?.code).toBe("email_exists");
    expect(dup.error?.status).toBe(422);

    const got = await admin.getUserById(id);
    expect(got.data.user!.email).toBe(email);

    const upd = await admin.updateUserById(id, { app_metadata: { plan: "team" }, user_metadata: { nickname: "Z" }, password: "admin-changed-2" });
    expect(upd.error).toBeNull();
    expect(upd.data.user!.app_metadata.plan).toBe("team");
    expect(upd.data.user!.user_metadata).toEqual({ locale: "it", nickname: "Z" });
    expect((await plainClient().auth.signInWithPassword({ email, password: "admin-changed-2" })).error).toBeNull();

    const banned = await admin.updateUserById(id, { ban_duration: "24h" });
    expect(new Date(banned.data.user!.banned_until!).getTime()).toBeGreaterThan(Date.now());
    const refused = await plainClient().auth.signInWithPassword({ email, password: "admin-changed-2" });
    expect(refused.error?.code).toBe("user_banned");
    expect((await plainClient().auth.refreshSession({ refresh_token: signIn.data.session!.refresh_token })).error).not.toBeNull();
    await admin.updateUserById(id, { ban_duration: "none" });
    expect((await plainClient().auth.signInWithPassword({ email, password: "admin-changed-2" })).error).toBeNull();

    expect((await admin.deleteUser(id)).error).toBeNull();
    expect((await admin.getUserById(id)).error?.status).toBe(404);
    expect(await sql("select 1 from public.auth_fixture_profiles where id = $1", [id])).toEqual([]);
  });

  it("soft-deletes a user, keeping the row but ending sign-in", async () => {
    const email = uniqueEmail("soft");
    const { data } = await admin.createUser({ email, password: "soft-delete-1", email_confirm: true });
    expect((await admin.deleteUser(data.user!.id, true)).error).toBeNull();
    const rows = await sql<{ deleted_at: string | null; email: string | null }>("select deleted_at, email from auth.users where id = $1", [data.user!.id]);
    expect(rows[0]!.deleted_at).toBeTruthy();
    expect(rows[0]!.email).toBeNull();
    expect((await plainClient().auth.signInWithPassword({ email, password: "soft-delete-1" })).error?.code).toBe("invalid_credentials");
  });

  it("lists users a page at a time with GoTrue's paging headers", async () => {
    for (let i = 0; i < 3; i++) await admin.createUser({ email: uniqueEmail("page"), password: "paging-pass-1" });
    const { data, error } = await admin.listUsers({ page: 1, perPage: 2 });
    expect(error).toBeNull();
    expect(data.users).toHaveLength(2);
    expect("total" in data && data.total).toBeGreaterThanOrEqual(3);
    expect("nextPage" in data && data.nextPage).toBe(2);
    // (supabase-js reads only the first digit of the last page number, so check the header itself.)
    const s = stackInfo();
    const res = await fetch(`${s.apiUrl}/auth/v1/admin/users?page=2&per_page=1`, { headers: { apikey: s.serviceRoleKey, authorization: `Bearer ${s.serviceRoleKey}` } });
    const total = Number(res.headers.get("x-total-count"));
    expect(total).toBeGreaterThanOrEqual(3);
    expect(res.headers.get("link")).toMatch(/page=3&per_page=1>; rel="next"/);
    expect(res.headers.get("link")).toMatch(new RegExp(`page=${total}&per_page=1>; rel="last"`));
    expect(((await res.json()) as { users: unknown[] }).users).toHaveLength(1);
  });

  it("refuses the admin API without the service key", async () => {
    const anon = await anonClient().auth.admin.listUsers();
    expect(anon.error?.status).toBe(403);
    expect(anon.error?.code).toBe("not_admin");
    const email = uniqueEmail("notadmin");
    await admin.createUser({ email, password: "not-admin-1", email_confirm: true });
    const { data } = await plainClient().auth.signInWithPassword({ email, password: "not-admin-1" });
    const s = stackInfo();
    const asUser = createClient(s.apiUrl, s.anonKey, {
      ...nodeClientOptions, auth: { persistSession: false, autoRefreshToken: false }, global: { headers: { Authorization: `Bearer ${data.session!.access_token}` } },
    });
    const res = await asUser.auth.admin.createUser({ email: uniqueEmail("sneaky"), password: "sneaky-pass" });
    expect(res.error?.status).toBe(403);
    expect(res.error?.code).toBe("not_admin");
    const noAuth = await fetch(`${s.apiUrl}/auth/v1/admin/users`, { headers: { "x-supabase-api-version": "2024-01-01" } });
    expect(noAuth.status).toBe(401);
    expect((await noAuth.json()).message).toBe("No API key found in request"); // the gateway's, as hosted
    const keyOnly = await fetch(`${s.apiUrl}/auth/v1/admin/users`, { headers: { "x-supabase-api-version": "2024-01-01", apikey: s.anonKey } });
    expect(keyOnly.status).toBe(403);
    expect((await keyOnly.json()).code).toBe("not_admin");
  });
});

describe("invites and generated links", () => {
  const admin = serviceClient().auth.admin;

  it("invites by email; the link signs the invitee in to set a password", async () => {
    const email = uniqueEmail("invitee");
    const { data, error } = await admin.inviteUserByEmail(email, { data: { locale: "nl" }, redirectTo: `${SITE}/app/auth/invite` });
    expect(error).toBeNull();
    expect(data.user!.invited_at).toBeTruthy();
    const mail = await lastMail(email);
    expect(mail.subject).toBe("Je bent uitgenodigd");
    // The project's invite e-mail links to the page with the token hash in the fragment; the
    // page verifies it (verifyOtp), in whatever browser the invitee opens it.
    const link = /(https?:\/\/[^\s#()]+)#token_hash=([0-9a-z_]+)&(?:amp;)?type=invite/.exec(mail.text);
    expect(link, mail.text).toBeTruthy();
    expect(new URL(link![1]!).pathname).toBe("/app/auth/invite");
    const c = plainClient();
    const verified = await c.auth.verifyOtp({ token_hash: link![2]!, type: "invite" });
    expect(verified.error).toBeNull();
    expect((decodeJwt(verified.data.session!.access_token).amr as { method: string }[])[0]!.method).toBe("invite");
    expect((await c.auth.updateUser({ password: "invited-pass-1" })).error).toBeNull();
    expect((await plainClient().auth.signInWithPassword({ email, password: "invited-pass-1" })).error).toBeNull();
    const again = await admin.inviteUserByEmail(email);
    expect(again.error?.code).toBe("email_exists");
  });

  it("generates magic link, recovery, signup and email change links without sending mail", async () => {
    const email = uniqueEmail("gen");
    const signup = await admin.generateLink({ type: "signup", email, password: "generated-1", options: { redirectTo: `${SITE}/x` } });
    expect(signup.error).toBeNull();
    expect(signup.data.properties!.verification_type).toBe("signup");
    expect(signup.data.properties!.email_otp).toMatch(/^\d{6}$/);
    expect(signup.data.user!.email).toBe(email);
    const mails = await (await fetch(`${stackInfo().apiUrl}/mail/api/messages?to=${encodeURIComponent(email)}`)).json();
    expect(mails).toEqual([]);
    expect(fragment(await follow(signup.data.properties!.action_link)).get("type")).toBe("signup");

    const magic = await admin.generateLink({ type: "magiclink", email });
    const m = await plainClient().auth.verifyOtp({ token_hash: magic.data.properties!.hashed_token, type: "magiclink" });
    expect(m.error).toBeNull();
    expect(m.data.session!.user.email).toBe(email);

    const recovery = await admin.generateLink({ type: "recovery", email });
    expect(fragment(await follow(recovery.data.properties!.action_link)).get("type")).toBe("recovery");

    const next = uniqueEmail("gen-new");
    const change = await admin.generateLink({ type: "email_change_new", email, newEmail: next });
    expect(change.error).toBeNull();
    expect(change.data.user!.new_email).toBe(next);

    const missing = await admin.generateLink({ type: "magiclink", email: uniqueEmail("missing") });
    expect(missing.error?.status).toBe(404);
  });
});
