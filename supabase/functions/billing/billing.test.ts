// The billing function against the fake Stripe: a team owner upgrades through Checkout (the fake's
// page "pays" and sends the signed webhooks), the limits lift, the plan changes with proration, a
// cancellation takes effect at the period's end with the data kept, the portal opens; who may do
// what; the scheduler's tick (deadlines, quota e-mails); and the over-quota chat turn.
import assert from "node:assert/strict";
import { sql, stack } from "../_shared/testing.ts";
import { chat, createBot, signedInUser } from "../chat/test-helpers.ts";
import { billing, ownedTeam, withFakeStripe } from "./test-helpers.ts";

const bots = async (teamId: string) =>
  (await sql<{ n: number }>("select count(*)::int as n from public.bots where team_id = $1", [teamId]))[0]!.n;
const subscription = async (teamId: string) =>
  (await sql<Record<string, unknown>>(
    "select s.*, t.plan_id as team_plan from public.subscriptions s join public.teams t on t.id = s.team_id where s.team_id = $1",
    [teamId],
  ))[0]!;

Deno.test("billing: free → checkout → pro (limits lift) → business yearly → cancel at period end → free, data kept", async (t) => {
  await withFakeStripe(async (fake) => {
    const { owner, teamId } = await ownedTeam();
    const insertBot = (name: string) => owner.client.from("bots").insert({ team_id: teamId, name });

    await t.step("payments are configured", async () => {
      const res = await billing("/config", owner.token);
      assert.deepEqual(res, { status: 200, json: { configured: true } });
    });

    await t.step("on free the 4th bot is refused with the plan limit error", async () => {
      for (const name of ["one", "two", "three"]) assert.equal((await insertBot(name)).error, null);
      const refused = await insertBot("four");
      assert.equal(refused.error?.code, "PT402");
      assert.equal(refused.error?.details, "bots");
      assert.equal(refused.error?.hint, "plan_limit");
    });

    let checkoutUrl = "";
    await t.step("checkout: a Stripe Checkout session in subscription mode", async () => {
      const res = await billing("/checkout", owner.token, { team_id: teamId, plan_id: "pro", interval: "month", locale: "de" });
      assert.equal(res.status, 200, JSON.stringify(res.json));
      checkoutUrl = res.json.url;
      assert.match(checkoutUrl, /\/checkout\/cs_test_/);
      const created = fake.requests.find((r) => r.method === "POST" && r.path === "/v1/checkout/sessions")!;
      assert.equal(created.form.mode, "subscription");
      assert.equal(created.form.client_reference_id, teamId);
      assert.deepEqual(created.form.line_items, [{ price: "price_pro_usd_month", quantity: "1" }]);
      assert.match(String(created.form.success_url), /\/de\/app\/billing\/success\?team=.*&session_id=\{CHECKOUT_SESSION_ID\}$/);
      assert.match(String(created.form.cancel_url), /\/de\/app\/billing\/cancel/);
    });

    await t.step("paying sends signed webhooks; the team is on pro, with its invoice", async () => {
      const paid = await fetch(`${checkoutUrl}/pay`, { method: "POST", redirect: "manual" });
      await paid.body?.cancel();
      assert.equal(paid.status, 303);
      assert.match(paid.headers.get("location")!, /\/de\/app\/billing\/success\?team=.*&session_id=cs_test_/);
      assert.deepEqual(fake.sent.map((s) => [s.event.type, s.status]), [
        ["checkout.session.completed", 200], ["customer.subscription.created", 200], ["invoice.paid", 200],
      ]);
      const sub = await subscription(teamId);
      assert.equal(sub.team_plan, "pro");
      assert.equal(sub.plan_id, "pro");
      assert.equal(sub.status, "active");
      assert.equal(sub.billing_interval, "month");
      assert.match(String(sub.stripe_subscription_id), /^sub_/);
      assert.ok(sub.current_period_end, "the renewal date is known");
      const invoices = await sql("select status, amount_paid from public.invoices where team_id = $1", [teamId]);
      assert.deepEqual(invoices, [{ status: "paid", amount_paid: 1900 }]);
    });

    await t.step("the limits lift: the 4th bot is created", async () => {
      assert.equal((await insertBot("four")).error, null);
      assert.equal(await bots(teamId), 4);
    });

    await t.step("a second checkout is refused: change the plan instead", async () => {
      const res = await billing("/checkout", owner.token, { team_id: teamId, plan_id: "business" });
      assert.equal(res.status, 409);
      assert.equal(res.json.error.code, "already_subscribed");
    });

    await t.step("change to business, yearly, prorated", async () => {
      const res = await billing("/change", owner.token, { team_id: teamId, plan_id: "business", interval: "year" });
      assert.equal(res.status, 200, JSON.stringify(res.json));
      const update = fake.requests.findLast((r) => r.method === "POST" && r.path.startsWith("/v1/subscriptions/"))!;
      assert.equal(update.form.proration_behavior, "create_prorations");
      assert.equal((update.form.items as { price: string }[])[0]!.price, "price_business_usd_year");
      const sub = await subscription(teamId);
      assert.equal(sub.team_plan, "business");
      assert.equal(sub.billing_interval, "year");
    });

    await t.step("cancel: the plan stays until the period's end", async () => {
      const res = await billing("/cancel", owner.token, { team_id: teamId });
      assert.equal(res.status, 200, JSON.stringify(res.json));
      const sub = await subscription(teamId);
      assert.equal(sub.cancel_at_period_end, true);
      assert.equal(sub.team_plan, "business");
    });

    await t.step("the portal opens for the team's customer", async () => {
      const res = await billing("/portal", owner.token, { team_id: teamId });
      assert.equal(res.status, 200);
      assert.match(res.json.url, /\/portal\/bps_/);
    });

    await t.step("at the period's end Stripe deletes it: free, nothing deleted, the 4th bot read-only", async () => {
      const subId = String((await subscription(teamId)).stripe_subscription_id);
      await fake.endPeriod(subId);
      assert.equal(fake.sent.at(-1)!.status, 200);
      const sub = await subscription(teamId);
      assert.equal(sub.team_plan, "free");
      assert.equal(sub.status, "canceled");
      assert.equal(await bots(teamId), 4, "no bot was deleted");
      const newest = (await sql<{ id: string }>("select id from public.bots where team_id = $1 and name = 'four'", [teamId]))[0]!.id;
      const edit = await owner.client.from("bots").update({ description: "x" }).eq("id", newest).select("id");
      assert.equal(edit.error?.code, "PT402", "the bot beyond the free limit is read-only");
    });
  });
});

Deno.test("billing: who may, and bad input", async () => {
  await withFakeStripe(async () => {
    const { owner, teamId } = await ownedTeam();
    const stranger = await signedInUser();
    const noAuth = await billing("/checkout", stack.anonKey, { team_id: teamId, plan_id: "pro" });
    assert.equal(noAuth.status, 401);
    const notOwner = await billing("/checkout", stranger.token, { team_id: teamId, plan_id: "pro" });
    assert.equal(notOwner.status, 403);
    assert.equal(notOwner.json.error.code, "forbidden");
    for (const [body, status, code] of [
      ["{not json", 400, "invalid_json"],
      [{ team_id: "x", plan_id: "pro" }, 400, "invalid_request"],
      [{ team_id: teamId, plan_id: "pro", interval: "week" }, 400, "invalid_request"],
      [{ team_id: teamId, plan_id: "gold" }, 404, "plan_not_found"],
      [{ team_id: teamId, plan_id: "free" }, 400, "price_not_found"],
      [{ team_id: teamId, plan_id: "pro", currency: "jpy" }, 400, "price_not_found"],
    ] as const) {
      const res = await billing("/checkout", owner.token, body);
      assert.equal(res.status, status, JSON.stringify(res.json));
      assert.equal(res.json.error.code, code);
    }
    const cancel = await billing("/cancel", owner.token, { team_id: teamId });
    assert.equal(cancel.status, 409, "nothing to cancel on free");
    assert.equal(cancel.json.error.code, "no_subscription");
    const portal = await billing("/portal", owner.token, { team_id: teamId });
    assert.equal(portal.status, 409);
    assert.equal((await billing("/nope", owner.token, {})).status, 404);
    const tick = await billing("/tick", owner.token, {});
    assert.equal(tick.status, 403, "only the scheduler ticks");
  });
});

Deno.test("billing tick: the month's quota e-mails at 80 % and 100 %, once; then visitors get a polite refusal", async () => {
  const { owner, teamId } = await ownedTeam();
  const { botId } = await createBot({ language: "de", team: { owner, teamId } });
  const month = new Date().toISOString().slice(0, 7) + "-01";
  await sql(
    "insert into public.team_usage (team_id, month, messages) values ($1, $2, 400) on conflict (team_id, month) do update set messages = 400",
    [teamId, month],
  );
  const tick = () => billing("/tick", Deno.env.get("SUPABASE_SERVICE_ROLE_KEY")!, {});
  const first = await tick();
  assert.equal(first.status, 200, JSON.stringify(first.json));
  const mails = async () =>
    (await (await fetch(`${stack.mailboxUrl}/api/messages?to=${encodeURIComponent(owner.user.email!)}`)).json()) as { subject: string }[];
  assert.deepEqual((await mails()).map((m) => m.subject), ["Billing test team: 80 % of this month's message quota used"]);
  await tick();
  assert.equal((await mails()).length, 1, "each notice is sent once a month");

  const visitor = await signedInUser({ anonymous: true });
  const below = await chat(visitor.token, { bot_id: botId, message: "Hallo?" });
  assert.equal(below.status, 200, "under the quota the bot answers");

  await sql("update public.team_usage set messages = 500 where team_id = $1 and month = $2", [teamId, month]);
  const over = await chat(visitor.token, { bot_id: botId, message: "Noch da?" });
  assert.equal(over.status, 429);
  assert.equal(over.json.error.code, "quota_exceeded");
  assert.equal(over.json.error.message, "Entschuldigung, dieser Assistent ist gerade nicht verfügbar. Bitte versuchen Sie es später noch einmal.");
  const stored = await sql<{ n: number }>("select count(*)::int as n from public.messages where bot_id = $1 and content = 'Noch da?'", [botId]);
  assert.equal(stored[0]!.n, 0, "the refused turn is not stored");

  // The owner now reads Parley in German: the 100 % mail comes in German.
  await sql("update public.profiles set preferred_language = 'de' where id = $1", [owner.user.id]);
  await tick();
  assert.deepEqual((await mails()).map((m) => m.subject).sort(), [
    "Billing test team: 80 % of this month's message quota used",
    "Billing test team: das Nachrichtenkontingent dieses Monats ist aufgebraucht",
  ]);
});

Deno.test("API keys made on a plan with the API stop answering after a downgrade to a plan without it", async () => {
  const { owner, teamId } = await ownedTeam("pro");
  const { botId } = await createBot({ team: { owner, teamId }, chunks: [{ title: "Hours", content: "We are open from nine to five." }] });
  const { data, error } = await owner.client.rpc("create_api_key", { bot_id: botId, name: "before the downgrade" });
  assert.equal(error, null);
  const key = (data as { key: string }[])[0]!.key;
  const ask = () =>
    fetch(`${stack.url}/functions/v1/api/v1/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ message: "When are you open?" }),
    }).then(async (r) => ({ status: r.status, json: await r.json() }));
  assert.equal((await ask()).status, 200, "on pro the key answers");
  await sql("update public.teams set plan_id = 'free' where id = $1", [teamId]);
  const refused = await ask();
  assert.equal(refused.status, 402, JSON.stringify(refused.json));
  assert.equal(refused.json.error.code, "plan_limit");
  const refusedKey = await owner.client.rpc("create_api_key", { bot_id: botId, name: "after" });
  assert.equal(refusedKey.error?.code, "PT402", "no new keys on free either");
});

Deno.test("billing: a platform administrator (aal2) manages no team's subscription; its owner still does", async () => {
  await withFakeStripe(async (fake) => {
    const { owner, teamId } = await ownedTeam();
    const paid = await billing("/checkout", owner.token, { team_id: teamId, plan_id: "pro" });
    assert.equal(paid.status, 200, JSON.stringify(paid.json));
    await (await fetch(`${paid.json.url}/pay`, { method: "POST", redirect: "manual" })).body?.cancel();
    const subId = (await subscription(teamId)).stripe_subscription_id as string;
    assert.ok(subId, "the owner's checkout made a subscription");
    const admin = await signedInUser({ aal: "aal2" });
    await sql("insert into public.platform_admins (user_id) values ($1)", [admin.user.id]);
    const token = admin.token;
    const stripeCalls = fake.requests.length;
    for (const [path, body] of [
      ["/change", { team_id: teamId, plan_id: "business", interval: "year" }],
      ["/cancel", { team_id: teamId }],
      ["/portal", { team_id: teamId }],
      ["/checkout", { team_id: teamId, plan_id: "business" }],
    ] as const) {
      const res = await billing(path, token, body);
      assert.equal(res.status, 403, `${path}: ${JSON.stringify(res.json)}`);
      assert.equal(res.json.error.code, "forbidden");
    }
    assert.equal(fake.requests.length, stripeCalls, "the administrator's calls never reached Stripe");
    const sub = await subscription(teamId);
    assert.equal(sub.team_plan, "pro");
    assert.equal(sub.cancel_at_period_end, false);
    // The owner still manages it.
    const change = await billing("/change", owner.token, { team_id: teamId, plan_id: "business", interval: "year" });
    assert.equal(change.status, 200, JSON.stringify(change.json));
    assert.equal((await billing("/cancel", owner.token, { team_id: teamId })).status, 200);
    assert.equal((await billing("/portal", owner.token, { team_id: teamId })).status, 200);
    assert.equal((await subscription(teamId)).team_plan, "business");
  });
});

Deno.test("billing: a new checkout expires the team's earlier open one, so a team never pays for two subscriptions", async () => {
  await withFakeStripe(async (fake) => {
    const { owner, teamId } = await ownedTeam();
    const first = await billing("/checkout", owner.token, { team_id: teamId, plan_id: "pro" });
    const second = await billing("/checkout", owner.token, { team_id: teamId, plan_id: "business" });
    assert.deepEqual([first.status, second.status], [200, 200]);
    const payFirst = await fetch(`${first.json.url}/pay`, { method: "POST", redirect: "manual" });
    await payFirst.body?.cancel();
    assert.equal(payFirst.status, 410, "the earlier checkout page no longer takes a payment");
    await (await fetch(`${second.json.url}/pay`, { method: "POST", redirect: "manual" })).body?.cancel();
    const live = [...fake.subscriptions.values()].filter((s) =>
      s.status === "active" && (s.metadata as Record<string, string>).team_id === teamId
    );
    assert.equal(live.length, 1, "one live Stripe subscription");
    const sub = await subscription(teamId);
    assert.equal(sub.team_plan, "business");
    assert.equal(sub.stripe_subscription_id, live[0]!.id);
    const third = await billing("/checkout", owner.token, { team_id: teamId, plan_id: "pro" });
    assert.equal(third.status, 409);
    assert.equal(third.json.error.code, "already_subscribed");
  });
});
