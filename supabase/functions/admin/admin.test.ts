// admin: only platform administrators (asked of Postgres as the caller) act; a ban stops the
// user signing in and an unban lets them back; every action leaves an audit-log row.
import assert from "node:assert/strict";
import { createClient } from "npm:@supabase/supabase-js@2.119.1";
import { callFunction, enrollTotp, serviceClient, signedInUser, sql, stack, testIp, totpCode } from "../_shared/testing.ts";

const PASSWORD = "correct-horse-9";

async function admin(token: string, body: unknown) {
  const res = await callFunction("admin", { method: "POST", token, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}

/** A platform administrator signed in with a second factor (aal2): administrators act only so. */
async function platformAdmin() {
  const me = await signedInUser();
  await sql("insert into public.platform_admins (user_id) values ($1)", [me.user.id]);
  const { token, secret, factorId } = await enrollTotp(me.client);
  return { ...me, token, aal1Token: me.token, secret, factorId };
}

async function canSignIn(email: string): Promise<boolean> {
  const client = createClient(stack.url, stack.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const { error } = await client.auth.signInWithPassword({ email, password: PASSWORD });
  return error === null;
}

async function auditRows(targetId: string) {
  return await sql<{ action: string; actor_id: string; before: Record<string, unknown>; after: Record<string, unknown> | null }>(
    "select action, actor_id::text, before, after from public.admin_audit_log where target_id = $1 order by id",
    [targetId],
  );
}

Deno.test("admin: anon, signed-in non-administrators and bad input are refused; nothing is logged", async () => {
  const target = await signedInUser();
  const stranger = await signedInUser();
  assert.equal((await admin(stack.anonKey, { action: "ban", user_id: target.user.id })).status, 401);
  const refused = await admin(stranger.token, { action: "ban", user_id: target.user.id });
  assert.equal(refused.status, 403);
  assert.equal(refused.json.error.code, "forbidden");
  assert.ok(await canSignIn(target.user.email!), "the target was not banned");

  const me = await platformAdmin();
  for (const body of [{ action: "explode", user_id: target.user.id }, { action: "ban", user_id: "not-a-uuid" }, { action: "ban", user_id: target.user.id, hours: 0 }]) {
    const res = await admin(me.token, body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.json.error.code, "invalid_request");
  }
  assert.equal((await admin(me.token, { action: "ban", user_id: crypto.randomUUID() })).status, 404);
  assert.equal((await admin(me.token, { action: "ban", user_id: me.user.id })).status, 400, "no banning yourself");
  assert.deepEqual(await auditRows(target.user.id), []);
});

Deno.test("admin: ban stops the user signing in, unban lets them back, both are in the audit log", async () => {
  const me = await platformAdmin();
  const target = await signedInUser();
  const banned = await admin(me.token, { action: "ban", user_id: target.user.id });
  assert.equal(banned.status, 200);
  assert.ok(Date.parse(banned.json.banned_until) > Date.now() + 365 * 24 * 3600 * 1000, "banned until unbanned");
  assert.equal(await canSignIn(target.user.email!), false, "a banned user cannot sign in");

  const unbanned = await admin(me.token, { action: "unban", user_id: target.user.id });
  assert.deepEqual(unbanned, { status: 200, json: { ok: true, user_id: target.user.id, banned_until: null } });
  assert.equal(await canSignIn(target.user.email!), true, "an unbanned user signs in again");

  const rows = await auditRows(target.user.id);
  assert.deepEqual(rows.map((r) => [r.action, r.actor_id]), [["user.ban", me.user.id], ["user.unban", me.user.id]]);
  assert.equal(rows[0].before.banned_until, null);
  assert.equal(rows[0].after?.banned_until, banned.json.banned_until);
  assert.equal(rows[1].after?.banned_until, null);
});

Deno.test("admin: a password reset is sent and logged; a user is deleted only with the typed confirmation", async () => {
  const me = await platformAdmin();
  const target = await signedInUser();
  const reset = await admin(me.token, { action: "reset_password", user_id: target.user.id });
  assert.deepEqual(reset, { status: 200, json: { ok: true, user_id: target.user.id, reset_sent_to: target.user.email } });
  const [{ sent }] = await sql<{ sent: boolean }>("select recovery_sent_at is not null as sent from auth.users where id = $1", [target.user.id]);
  assert.equal(sent, true, "auth sent the recovery e-mail");

  const wrong = await admin(me.token, { action: "delete_user", user_id: target.user.id, confirm: "someone@else.test" });
  assert.equal(wrong.status, 400);
  assert.equal((await serviceClient().auth.admin.getUserById(target.user.id)).data.user?.id, target.user.id, "still there");
  const deleted = await admin(me.token, { action: "delete_user", user_id: target.user.id, confirm: target.user.email!.toUpperCase() });
  assert.deepEqual(deleted, { status: 200, json: { ok: true, user_id: target.user.id, deleted: true } });
  assert.ok((await serviceClient().auth.admin.getUserById(target.user.id)).error, "the user is gone");

  const rows = await auditRows(target.user.id);
  assert.deepEqual(rows.map((r) => r.action), ["user.password_reset", "user.delete"]);
  assert.equal(rows[1].before.email, target.user.email);
  assert.equal(rows[1].after, null);
});

Deno.test("admin: a user whose personal team pays through Stripe is not deleted until it is cancelled (409, not a 500)", async () => {
  const me = await platformAdmin();
  const target = await signedInUser();
  const [{ team_id }] = await sql<{ team_id: string }>(
    "select tm.team_id from public.team_members tm join public.teams t on t.id = tm.team_id where tm.user_id = $1 and t.personal",
    [target.user.id],
  );
  await sql(
    "update public.subscriptions set plan_id = 'pro', status = 'active', stripe_subscription_id = 'sub_admin_test', cancel_at_period_end = false where team_id = $1",
    [team_id],
  );
  const refused = await admin(me.token, { action: "delete_user", user_id: target.user.id, confirm: target.user.email! });
  assert.deepEqual([refused.status, refused.json.error.code], [409, "user_team_pays_through_stripe"]);
  assert.equal((await serviceClient().auth.admin.getUserById(target.user.id)).data.user?.id, target.user.id, "still there");
  await sql("update public.subscriptions set cancel_at_period_end = true where team_id = $1", [team_id]);
  const deleted = await admin(me.token, { action: "delete_user", user_id: target.user.id, confirm: target.user.email! });
  assert.equal(deleted.status, 200, "once its cancellation is scheduled");
});

Deno.test("admin: a platform administrator without a second factor (aal1) is refused until the session passes one", async () => {
  const target = await signedInUser();
  const me = await signedInUser();
  await sql("insert into public.platform_admins (user_id) values ($1)", [me.user.id]);
  const noFactor = await admin(me.token, { action: "ban", user_id: target.user.id });
  assert.deepEqual([noFactor.status, noFactor.json.error.code], [403, "forbidden"], "listed, but at aal1 without any factor");

  const { secret, factorId } = await enrollTotp(me.client);
  // A new sign-in of the same administrator starts at aal1 again: refused until its own code step.
  const again = createClient(stack.url, stack.anonKey, { auth: { persistSession: false, autoRefreshToken: false }, global: { headers: { "x-forwarded-for": testIp() } } });
  const signIn = await again.auth.signInWithPassword({ email: me.user.email!, password: PASSWORD });
  if (signIn.error) throw signIn.error;
  const aal1 = await admin(signIn.data.session!.access_token, { action: "ban", user_id: target.user.id });
  assert.deepEqual([aal1.status, aal1.json.error.code], [403, "forbidden"], "a factor exists but this session has not used it");
  assert.ok(await canSignIn(target.user.email!), "the target was not banned");
  assert.deepEqual(await auditRows(target.user.id), []);

  const stepped = await again.auth.mfa.challengeAndVerify({ factorId, code: await totpCode(secret) });
  if (stepped.error) throw stepped.error;
  const aal2 = await admin(stepped.data.access_token, { action: "ban", user_id: target.user.id });
  assert.equal(aal2.status, 200, "the same administrator at aal2 acts");
  assert.deepEqual((await auditRows(target.user.id)).map((r) => [r.action, r.actor_id]), [["user.ban", me.user.id]]);
});
