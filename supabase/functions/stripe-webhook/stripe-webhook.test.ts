// stripe-webhook: the signature is checked before anything else, an event id is applied once,
// subscription events arriving out of order do not undo newer ones, and a failed payment keeps
// the plan for the grace period, then the billing tick moves the team to free; a failure delivered
// after the invoice was paid changes neither.
import assert from "node:assert/strict";
import { stripeSignature } from "../../../e2e/lib/fakes/stripe.ts";
import { callFunction, signedInUser, sql, stack } from "../_shared/testing.ts";
import { billing, ownedTeam, withFakeStripe } from "../billing/test-helpers.ts";

const webhookUrl = () => `${stack.url}/functions/v1/stripe-webhook`;

async function post(body: string, signature: string | null) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (signature !== null) headers["stripe-signature"] = signature;
  const res = await fetch(webhookUrl(), { method: "POST", headers, body });
  return { status: res.status, json: await res.json() };
}

const planOf = async (teamId: string) =>
  (await sql<{ plan: string; status: string; grace: boolean }>(
    "select t.plan_id as plan, s.status, s.grace_until is not null as grace from public.teams t join public.subscriptions s on s.team_id = t.id where t.id = $1",
    [teamId],
  ))[0]!;

/** A team that paid for pro through the fake (checkout, pay): its Stripe subscription id. */
async function paidTeam(fake: Parameters<Parameters<typeof withFakeStripe>[0]>[0]) {
  const { owner, teamId } = await ownedTeam();
  const res = await billing("/checkout", owner.token, { team_id: teamId, plan_id: "pro" });
  assert.equal(res.status, 200, JSON.stringify(res.json));
  await (await fetch(`${res.json.url}/pay`, { method: "POST", redirect: "manual" })).body?.cancel();
  const subId = (await sql<{ id: string }>("select stripe_subscription_id as id from public.subscriptions where team_id = $1", [teamId]))[0]!.id;
  assert.equal((await planOf(teamId)).plan, "pro");
  return { owner, teamId, subId, sub: fake.subscriptions.get(subId)! };
}

Deno.test("stripe-webhook: signatures", async () => {
  await withFakeStripe(async (fake) => {
    const event = JSON.stringify(await fake.buildEvent("invoice.paid", { id: "in_x", object: "invoice" }));
    const secret = Deno.env.get("PARLEY_STRIPE_WEBHOOK_SECRET")!;
    const missing = await post(event, null);
    assert.equal(missing.status, 400);
    assert.equal(missing.json.error.code, "invalid_signature");
    const wrongSecret = await post(event, await stripeSignature(event, "whsec_someone_else"));
    assert.equal(wrongSecret.status, 400);
    assert.equal(wrongSecret.json.error.code, "invalid_signature");
    const tampered = await post(event.replace("in_x", "in_y"), await stripeSignature(event, secret));
    assert.equal(tampered.status, 400, "a body changed after signing is refused");
    const old = await post(event, await stripeSignature(event, secret, Math.floor(Date.now() / 1000) - 3600));
    assert.equal(old.status, 400, "a signature older than the tolerance is refused (replayed capture)");
    const garbage = await post("not json", await stripeSignature("not json", secret));
    assert.equal(garbage.status, 400);
    const get = await fetch(webhookUrl());
    await get.body?.cancel();
    assert.equal(get.status, 405);
    const good = await post(event, await stripeSignature(event, secret));
    assert.equal(good.status, 200, JSON.stringify(good.json));
    assert.equal(good.json.outcome, "ignored", "an invoice of no known subscription changes nothing");
  });
});

Deno.test("stripe-webhook: a replayed event id is applied once", async () => {
  await withFakeStripe(async (fake) => {
    const { teamId, sub } = await paidTeam(fake);
    // The subscription is cancelled in Stripe; the same event arrives twice.
    const deleted = await fake.buildEvent("customer.subscription.deleted", { ...structuredClone(sub), status: "canceled" });
    assert.equal(await fake.deliver(deleted), 200);
    assert.equal((await planOf(teamId)).plan, "free");
    // Meanwhile the team paid again (an admin or a new checkout put it on pro): the replay must not undo that.
    await sql("update public.teams set plan_id = 'pro' where id = $1", [teamId]);
    const replay = await post(JSON.stringify(deleted), await stripeSignature(JSON.stringify(deleted), Deno.env.get("PARLEY_STRIPE_WEBHOOK_SECRET")!));
    assert.equal(replay.status, 200);
    assert.equal(replay.json.duplicate, true);
    assert.equal((await planOf(teamId)).plan, "pro", "the replay changed nothing");
    const recorded = await sql<{ n: number }>("select count(*)::int as n from public.stripe_events where id = $1", [deleted.id]);
    assert.equal(recorded[0]!.n, 1);
  });
});

Deno.test("stripe-webhook: an older subscription event arriving late does not undo a newer one", async () => {
  await withFakeStripe(async (fake) => {
    const { teamId, sub } = await paidTeam(fake);
    const now = Math.floor(Date.now() / 1000) + 5;
    const business = structuredClone(sub);
    (business.items as { data: { price: { id: string } }[] }).data[0]!.price.id = "price_business_usd_month";
    const newer = await fake.buildEvent("customer.subscription.updated", business, now + 10);
    const older = await fake.buildEvent("customer.subscription.updated", { ...structuredClone(sub), cancel_at_period_end: true }, now);
    assert.equal(await fake.deliver(newer), 200);
    assert.equal(await fake.deliver(older), 200);
    assert.equal(fake.sent.at(-1)!.status, 200);
    const row = (await sql<{ plan: string; cancel: boolean }>(
      "select plan_id as plan, cancel_at_period_end as cancel from public.subscriptions where team_id = $1", [teamId]))[0]!;
    assert.deepEqual(row, { plan: "business", cancel: false }, "the newer state stands");
    const unknownPrice = structuredClone(sub);
    (unknownPrice.items as { data: { price: { id: string } }[] }).data[0]!.price.id = "price_nobody";
    assert.equal(await fake.deliver(await fake.buildEvent("customer.subscription.updated", unknownPrice, now + 20)), 422,
      "a price no plan has is refused (Stripe retries; nothing is applied)");
    assert.equal((await planOf(teamId)).plan, "business");
  });
});

Deno.test("stripe-webhook: a failed payment keeps the plan for the grace period, then the tick moves the team to free", async () => {
  await withFakeStripe(async (fake) => {
    const { teamId, subId } = await paidTeam(fake);
    await fake.failPayment(subId);
    assert.deepEqual(fake.sent.slice(-2).map((s) => [s.event.type, s.status]), [["invoice.payment_failed", 200], ["customer.subscription.updated", 200]]);
    assert.deepEqual(await planOf(teamId), { plan: "pro", status: "past_due", grace: true });
    const invoices = await sql<{ status: string }>("select status from public.invoices where team_id = $1 order by created_at", [teamId]);
    assert.deepEqual(invoices.map((i) => i.status), ["paid", "payment_failed"]);
    const tick = () => billing("/tick", Deno.env.get("SUPABASE_SERVICE_ROLE_KEY")!, {});
    await tick();
    assert.equal((await planOf(teamId)).plan, "pro", "still within the grace period");
    await sql("update public.subscriptions set grace_until = now() - interval '1 minute' where team_id = $1", [teamId]);
    const res = await tick();
    assert.equal(res.status, 200);
    assert.ok(res.json.moved >= 1);
    assert.deepEqual(await planOf(teamId), { plan: "free", status: "canceled", grace: false });
  });
});

Deno.test("stripe-webhook: a failed payment delivered after the invoice was paid starts no grace period and leaves the invoice paid", async () => {
  await withFakeStripe(async (fake) => {
    const { teamId, subId, sub } = await paidTeam(fake);
    const t0 = Math.floor(Date.now() / 1000) + 10;
    const invoice = {
      id: `in_late${crypto.randomUUID().slice(0, 8)}`, object: "invoice", customer: sub.customer, subscription: subId,
      parent: { type: "subscription_details", subscription_details: { subscription: subId, metadata: sub.metadata } },
      number: "LATE-1", status: "open", currency: "usd", amount_due: 1900, amount_paid: 0, period_start: t0, period_end: t0 + 1000, created: t0,
    };
    const failed = await fake.buildEvent("invoice.payment_failed", structuredClone(invoice), t0);
    const pastDue = await fake.buildEvent("customer.subscription.updated", { ...structuredClone(sub), status: "past_due" }, t0);
    const paid = await fake.buildEvent("invoice.paid", { ...structuredClone(invoice), status: "paid", amount_paid: 1900 }, t0 + 30);
    const active = await fake.buildEvent("customer.subscription.updated", { ...structuredClone(sub), status: "active" }, t0 + 30);
    // The failure's first delivery failed; Stripe's retry arrives after everything else.
    for (const e of [pastDue, paid, active, failed]) assert.equal(await fake.deliver(e), 200);
    assert.deepEqual(await planOf(teamId), { plan: "pro", status: "active", grace: false });
    const stored = await sql<{ status: string; amount_paid: number }>(
      "select status, amount_paid from public.invoices where stripe_invoice_id = $1", [invoice.id]);
    assert.deepEqual(stored, [{ status: "paid", amount_paid: 1900 }], "a paid invoice stays paid");
    await billing("/tick", Deno.env.get("SUPABASE_SERVICE_ROLE_KEY")!, {});
    assert.equal((await planOf(teamId)).plan, "pro", "the tick leaves the paying team alone");

    // Paid first, then a failure for the same invoice with no subscription event in between: still paid.
    const second = { ...structuredClone(invoice), id: `in_late${crypto.randomUUID().slice(0, 8)}`, number: "LATE-2" };
    const t1 = t0 + 60;
    assert.equal(await fake.deliver(await fake.buildEvent("invoice.paid", { ...structuredClone(second), status: "paid", amount_paid: 1900 }, t1 + 5)), 200);
    assert.equal(await fake.deliver(await fake.buildEvent("invoice.payment_failed", structuredClone(second), t1)), 200);
    assert.deepEqual(await planOf(teamId), { plan: "pro", status: "active", grace: false });
    assert.deepEqual(await sql("select status from public.invoices where stripe_invoice_id = $1", [second.id]), [{ status: "paid" }]);
  });
});

Deno.test("a team paying through Stripe is not deleted until it cancels; Stripe's later events about it are ignored", async () => {
  await withFakeStripe(async (fake) => {
    const { owner, teamId, subId, sub } = await paidTeam(fake);
    const refused = await owner.client.from("teams").delete().eq("id", teamId).select("id");
    assert.equal(refused.error?.code, "PT409", JSON.stringify(refused));
    assert.equal(refused.error?.hint, "team_pays_through_stripe");
    assert.equal((await planOf(teamId)).plan, "pro", "the team is still there");
    // Cancelled at the period's end: Stripe bills nothing more, so the team may go.
    assert.equal((await billing("/cancel", owner.token, { team_id: teamId })).status, 200);
    const deleted = await owner.client.from("teams").delete().eq("id", teamId).select("id");
    assert.equal(deleted.error, null);
    assert.equal(deleted.data?.length, 1);
    // Stripe's last events for the deleted team: 200 ignored (no 500, so no retries for days).
    const secret = Deno.env.get("PARLEY_STRIPE_WEBHOOK_SECRET")!;
    const send = async (type: string, object: Record<string, unknown>) => {
      const body = JSON.stringify(await fake.buildEvent(type, object));
      return await post(body, await stripeSignature(body, secret));
    };
    const invoice = {
      id: `in_gone${crypto.randomUUID().slice(0, 8)}`, object: "invoice", customer: sub.customer, subscription: subId,
      parent: { type: "subscription_details", subscription_details: { subscription: subId, metadata: sub.metadata } },
      status: "paid", currency: "usd", amount_due: 1900, amount_paid: 1900,
    };
    for (const [type, object] of [
      ["invoice.paid", invoice],
      ["invoice.payment_failed", { ...invoice, id: `in_gone${crypto.randomUUID().slice(0, 8)}`, status: "open" }],
      ["customer.subscription.updated", { ...structuredClone(sub), cancel_at_period_end: true }],
      ["customer.subscription.deleted", { ...structuredClone(sub), status: "canceled" }],
    ] as const) {
      const res = await send(type, object as Record<string, unknown>);
      assert.equal(res.status, 200, `${type}: ${JSON.stringify(res.json)}`);
      assert.equal(res.json.outcome, "ignored", type);
    }
    assert.deepEqual(await sql("select id from public.invoices where team_id = $1", [teamId]), []);
  });
});

Deno.test("an account whose personal team pays through Stripe is not deleted until it cancels", async () => {
  await withFakeStripe(async () => {
    const user = await signedInUser();
    const personal = (await sql<{ id: string }>("select id from public.teams where created_by = $1 and personal", [user.user.id]))[0]!.id;
    const res = await billing("/checkout", user.token, { team_id: personal, plan_id: "pro" });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    await (await fetch(`${res.json.url}/pay`, { method: "POST", redirect: "manual" })).body?.cancel();
    assert.equal((await planOf(personal)).plan, "pro");
    const remove = () =>
      callFunction("account-delete", { method: "POST", token: user.token, headers: { "content-type": "application/json" }, body: '{"confirm":"DELETE"}' });
    const refused = await remove();
    assert.equal(refused.status, 409);
    assert.equal((await refused.json()).error.code, "personal_team_pays_through_stripe");
    assert.equal((await sql("select 1 from auth.users where id = $1", [user.user.id])).length, 1, "the account is still there");
    assert.equal((await billing("/cancel", user.token, { team_id: personal })).status, 200);
    const done = await remove();
    assert.equal(done.status, 200, await done.text());
    assert.equal((await sql("select 1 from auth.users where id = $1", [user.user.id])).length, 0);
  });
});
