// account-notice against the running stack: an address with a confirmed account gets the
// "you already have an account" e-mail in its own language; an unknown address gets nothing;
// both answer the same 202; bad input is a 400; one address is not flooded.
import assert from "node:assert/strict";
import { callFunction, mailsTo, serviceClient, testIp } from "../_shared/testing.ts";


function notice(body: unknown, ip = testIp()) {
  return callFunction("account-notice", {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": ip },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

Deno.test("account-notice: a confirmed account gets the e-mail in its language; an unknown address the same answer and no mail", async () => {
  const email = `exists-${crypto.randomUUID()}@parley.test`;
  const created = await serviceClient().auth.admin.createUser({ email, password: "correct-horse-9", email_confirm: true, user_metadata: { locale: "de" } });
  assert.equal(created.error, null);

  const known = await notice({ email: email.toUpperCase(), locale: "fr" });
  assert.equal(known.status, 202);
  const unknownEmail = `nobody-${crypto.randomUUID()}@parley.test`;
  const unknown = await notice({ email: unknownEmail, locale: "fr" });
  assert.equal(unknown.status, 202);
  assert.deepEqual(await known.json(), await unknown.json(), "the answer does not tell which address has an account");

  const mails = await mailsTo(email);
  assert.equal(mails.length, 1);
  assert.equal(mails[0].subject, "Sie haben bereits ein Parley-Konto", "the account's language, not the screen's");
  assert.match(mails[0].html, /\/de\/app\/auth\/login"/);
  assert.match(mails[0].html, /\/de\/app\/auth\/forgotten-password"/);
  assert.deepEqual(await mailsTo(unknownEmail), []);

  // Without a stored language, the screen's.
  const plain = `plain-${crypto.randomUUID()}@parley.test`;
  assert.equal((await serviceClient().auth.admin.createUser({ email: plain, password: "correct-horse-9", email_confirm: true })).error, null);
  assert.equal((await notice({ email: plain, locale: "nl" })).status, 202);
  assert.equal((await mailsTo(plain))[0]?.subject, "U hebt al een Parley-account");
});

Deno.test("account-notice: bad input is a 400; one address gets at most three a day", async () => {
  for (const body of ["{", "[]", { email: "not-an-address" }, { email: "a@b.co", locale: "xx" }, { email: "a@b.co", extra: 1 }, { email: 42 }]) {
    const res = await notice(body);
    assert.equal(res.status, 400, JSON.stringify(body));
    const answer = await res.json();
    assert.ok(answer.error?.code, "a clear error code");
  }
  const email = `flood-${crypto.randomUUID()}@parley.test`;
  assert.equal((await serviceClient().auth.admin.createUser({ email, password: "correct-horse-9", email_confirm: true })).error, null);
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) {
    const res = await notice({ email });
    await res.body?.cancel();
    statuses.push(res.status);
  }
  assert.deepEqual(statuses, [202, 202, 202, 429]);
  assert.equal((await mailsTo(email)).length, 3);
});

Deno.test("account-notice: IPv6 callers count by their /64 (five an hour from one network, whatever the address)", async () => {
  const net = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:${Math.floor(Math.random() * 0xffff).toString(16)}`;
  const statuses: number[] = [];
  for (let i = 1; i <= 6; i++) {
    const res = await notice({ email: `v6-${crypto.randomUUID()}@parley.test` }, `${net}::${i.toString(16)}`);
    await res.body?.cancel();
    statuses.push(res.status);
  }
  assert.deepEqual(statuses, [202, 202, 202, 202, 202, 429]);
});
