// The invitation flow end to end against the real stack: the owner invites through
// `team-invite`, the mail arrives through auth's mail path in the dev mailbox with a link
// that lands on the invite page, and the invitee accepts with their own session.
import assert from "node:assert/strict";
import { anonClient, callFunction, mailsTo, serviceClient, signedInUser, stack, type MailboxMessage } from "../_shared/testing.ts";
import { createTeam, signedInUser as visitorWithToken } from "../chat/test-helpers.ts";


async function invite(token: string, body: unknown) {
  const res = await callFunction("team-invite", {
    method: "POST",
    token,
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

/**
 * The invite page link inside the mail (`<site>/<lang>/app/auth/invite?token=...#token_hash=...&type=...`,
 * the page verifies the hash in any browser): its invitation token, after checking that the hash
 * signs the invitee in as `type` says.
 */
async function inviteTokenFromMail(mail: MailboxMessage, type: "invite" | "magiclink"): Promise<string> {
  const raw = /https?:\/\/[^\s"'<>()]+\/app\/auth\/invite\?token=[^\s"'<>()#]+#token_hash=[0-9a-z_]+&(?:amp;)?type=[a-z]+/.exec(mail.text || mail.html)?.[0];
  assert.ok(raw, `no invite link in ${mail.subject}`);
  const link = new URL(raw.replaceAll("&amp;", "&"));
  const hash = new URLSearchParams(link.hash.slice(1));
  assert.equal(hash.get("type"), type);
  const verified = await anonClient().auth.verifyOtp({ token_hash: hash.get("token_hash")!, type });
  assert.equal(verified.error, null);
  assert.equal(verified.data.user?.email, mail.to);
  return link.searchParams.get("token")!;
}

async function teamWithOwner() {
  const owner = await signedInUser();
  assert.equal((await owner.client.from("profiles").update({ display_name: "Olga Owner" }).eq("id", owner.user.id)).error, null);
  const teamName = `Invite test ${crypto.randomUUID().slice(0, 8)}`;
  const { data: team, error } = await owner.client.rpc("create_team", { name: teamName });
  assert.equal(error, null);
  return { owner, teamId: (team as { id: string }).id, teamName };
}

Deno.test("team-invite: a new address gets the invitation e-mail naming inviter and team, and joins as admin after accepting", async () => {
  const { owner, teamId, teamName } = await teamWithOwner();
  const email = `new-${crypto.randomUUID()}@parley.test`;
  const res = await invite(owner.token, { team_id: teamId, email: email.toUpperCase(), locale: "de" });
  assert.equal(res.status, 200);
  assert.deepEqual(res.json, { ok: true, email, role: "admin", delivery: "invite" });

  const mails = await mailsTo(email);
  assert.equal(mails.length, 1);
  // A new address: the inviter's language; the e-mail names who invited and to which team.
  assert.equal(mails[0].subject, `Olga Owner (${owner.user.email}) hat Sie zu „${teamName}“ bei Parley eingeladen`);
  assert.match(mails[0].text, /als Administrator beizutreten/);
  const token = await inviteTokenFromMail(mails[0], "invite");
  assert.ok(token.length >= 16);

  // The owner sees the pending invitation; the raw token is never stored.
  const pending = await owner.client.from("team_invitations").select("email, role, accepted_at").eq("team_id", teamId);
  assert.deepEqual(pending.data, [{ email, role: "admin", accepted_at: null }]);

  // The invitee finishes the account (as the invite page does) and accepts with their own session.
  const invitee = await signedInUser(`other-${crypto.randomUUID()}@parley.test`);
  const wrongPerson = await invitee.client.rpc("accept_invitation", { token });
  assert.ok(wrongPerson.error, "an invitation is for its own address only");

  const { data: users } = await serviceClient().auth.admin.listUsers({ perPage: 1000 });
  const invited = users.users.find((u) => u.email === email);
  assert.ok(invited, "inviteUserByEmail created the account");
  await serviceClient().auth.admin.updateUserById(invited.id, { password: "correct-horse-9", email_confirm: true });
  const me = await signedInAs(email);
  const accepted = await me.rpc("accept_invitation", { token });
  assert.equal(accepted.error, null);
  assert.equal(accepted.data, teamId);
  const members = await owner.client.rpc("get_team_members", { team_id: teamId });
  assert.deepEqual(
    (members.data as { email: string; role: string }[]).map((m) => [m.email, m.role]).sort(),
    [[email, "admin"], [owner.user.email, "owner"]].sort(),
  );
  const again = await me.rpc("accept_invitation", { token });
  assert.ok(again.error, "a token works once");
});

Deno.test("team-invite: an existing user gets a sign-in link to the invite page, in their own language", async () => {
  const { owner, teamId, teamName } = await teamWithOwner();
  const existing = await signedInUser();
  // The invitee's own language wins over the inviter's.
  assert.equal((await serviceClient().auth.admin.updateUserById(existing.user.id, { user_metadata: { locale: "pl" } })).error, null);
  const res = await invite(owner.token, { team_id: teamId, email: existing.user.email, role: "owner", locale: "de" });
  assert.equal(res.status, 200);
  assert.equal(res.json.delivery, "sign_in_link");
  const mails = await mailsTo(existing.user.email!);
  assert.equal(mails.length, 1);
  assert.equal(mails[0].subject, `Olga Owner (${owner.user.email}) zaprasza Cię do zespołu „${teamName}” w Parley`);
  assert.match(mails[0].text, /w roli: właściciel/);
  assert.match(mails[0].text, /\/pl\/app\/auth\/invite\?token=/, "the invite page in the invitee's language");
  const token = await inviteTokenFromMail(mails[0], "magiclink");
  const { data: shown } = await existing.client.rpc("get_invitation", { token });
  assert.equal((shown as { team_id: string; role: string }[])[0].team_id, teamId);
  assert.equal((shown as { role: string }[])[0].role, "owner");
  const accepted = await existing.client.rpc("accept_invitation", { token });
  assert.equal(accepted.error, null);
  const { data: role } = await existing.client.from("team_members").select("role").eq("team_id", teamId).eq("user_id", existing.user.id).single();
  assert.deepEqual(role, { role: "owner" });
});

Deno.test("team-invite: admins, strangers, platform admins, other teams' owners and anon are refused; bad input is a 400", async () => {
  const { owner, teamId } = await teamWithOwner();
  const admin = await signedInUser();
  const inv = await owner.client.rpc("invite_team_member", { team_id: teamId, email: admin.user.email, role: "admin" });
  assert.equal((await admin.client.rpc("accept_invitation", { token: inv.data })).error, null);

  const target = `nobody-${crypto.randomUUID()}@parley.test`;
  const byAdmin = await invite(admin.token, { team_id: teamId, email: target });
  assert.equal(byAdmin.status, 403);
  assert.equal(byAdmin.json.error.code, "forbidden");
  const stranger = await signedInUser();
  assert.equal((await invite(stranger.token, { team_id: teamId, email: target })).status, 403);
  // A platform administrator reads every team but writes none of them; another team's owner neither.
  // Users with minted tokens: the suite shares auth's sign-in limit (30 per 5 minutes per address).
  const platform = await visitorWithToken({ aal: "aal2" });
  const promoted = await serviceClient().from("platform_admins").insert({ user_id: platform.user.id });
  assert.equal(promoted.error, null);
  assert.equal((await invite(platform.token, { team_id: teamId, email: target })).status, 403);
  const otherOwner = (await createTeam()).owner;
  assert.equal((await invite(otherOwner.token, { team_id: teamId, email: target })).status, 403);
  assert.equal((await invite(stack.anonKey, { team_id: teamId, email: target })).status, 401);
  assert.deepEqual(await mailsTo(target), [], "no mail went out for refused invitations");

  assert.equal((await invite(owner.token, "{nope")).json.error.code, "invalid_json");
  assert.equal((await invite(owner.token, { team_id: teamId, email: "not-an-address" })).status, 400);
  assert.equal((await invite(owner.token, { team_id: "x", email: target })).status, 400);
  assert.equal((await invite(owner.token, { team_id: teamId, email: target, role: "root" })).status, 400);
  assert.equal((await invite(owner.token, { team_id: teamId, email: target, extra: 1 })).status, 400);
  const get = await callFunction("team-invite", { token: owner.token });
  await get.body?.cancel();
  assert.equal(get.status, 405);
});

async function signedInAs(email: string) {
  const { createClient } = await import("npm:@supabase/supabase-js@2.119.1");
  const client = createClient(stack.url, stack.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const { error } = await client.auth.signInWithPassword({ email, password: "correct-horse-9" });
  assert.equal(error, null);
  return client;
}

Deno.test("team-invite: a team with as many members as its plan allows cannot invite (402 plan_limit, members)", async () => {
  const { owner, teamId } = await teamWithOwner();
  // A one-member plan for this team (the service role sets plans and a team's plan).
  const plan = `solo-${crypto.randomUUID().slice(0, 8)}`;
  const names = Object.fromEntries(["en", "de", "es", "fr", "it", "jp", "cn", "el", "pl", "nl"].map((l) => [l, "Solo"]));
  assert.equal((await serviceClient().from("plans").insert({ id: plan, name: names, chat_requests_per_minute: 60, members: 1 })).error, null);
  try {
    assert.equal((await serviceClient().from("teams").update({ plan_id: plan }).eq("id", teamId)).error, null);
    const email = `full-${crypto.randomUUID()}@parley.test`;
    const res = await invite(owner.token, { team_id: teamId, email });
    assert.equal(res.status, 402);
    assert.equal(res.json.error.code, "plan_limit");
    assert.equal(res.json.error.details, "members");
    assert.deepEqual(await mailsTo(email), [], "nothing is sent");
  } finally {
    // Other suites read the plans table (pricing, billing): leave it as it was.
    await serviceClient().from("teams").update({ plan_id: "free" }).eq("id", teamId);
    await serviceClient().from("subscriptions").update({ plan_id: "free" }).eq("team_id", teamId);
    assert.equal((await serviceClient().from("plans").delete().eq("id", plan)).error, null);
  }
});

Deno.test("team-invite: one address gets at most three invitation e-mails a day; the refused one leaves the pending invitation alone", async () => {
  const { owner, teamId } = await teamWithOwner();
  const email = `resend-${crypto.randomUUID()}@parley.test`;
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) statuses.push((await invite(owner.token, { team_id: teamId, email })).status);
  const pending = async () => (await owner.client.from("team_invitations").select("id").eq("team_id", teamId).eq("email", email)).data;
  const before = await pending();
  const res = await callFunction("team-invite", {
    method: "POST",
    token: owner.token,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ team_id: teamId, email }),
  });
  statuses.push(res.status);
  assert.deepEqual(statuses, [200, 200, 200, 429]);
  assert.equal((await res.json()).error.code, "rate_limited");
  assert.ok(Number(res.headers.get("retry-after")) > 3600, "the address's budget is a day's");
  assert.equal((await mailsTo(email)).length, 3);
  assert.deepEqual(await pending(), before, "the last mailed link still works");

  // Another team's owner cannot mail that address either; refused invitations spend none of its budget.
  const other = await teamWithOwner();
  assert.equal((await invite(other.owner.token, { team_id: other.teamId, email })).status, 429);
  const fresh = `fresh-${crypto.randomUUID()}@parley.test`;
  const stranger = await visitorWithToken();
  for (let i = 0; i < 4; i++) assert.equal((await invite(stranger.token, { team_id: teamId, email: fresh })).status, 403);
  assert.equal((await invite(owner.token, { team_id: teamId, email: fresh })).status, 200);
});

Deno.test("team-invite: an owner makes at most 20 invitations an hour", async () => {
  // The free plan's seats run out after a few, so most are refused (402): they count too.
  const { owner, teamId } = await teamWithOwner();
  const statuses = new Set<number>();
  for (let i = 0; i < 20; i++) statuses.add((await invite(owner.token, { team_id: teamId, email: `many-${i}-${crypto.randomUUID()}@parley.test` })).status);
  assert.ok(!statuses.has(429), [...statuses].join());
  const res = await invite(owner.token, { team_id: teamId, email: `many-21-${crypto.randomUUID()}@parley.test` });
  assert.equal(res.status, 429);
  assert.equal(res.json.error.code, "rate_limited");
});
