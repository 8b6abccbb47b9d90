// `stripe-webhook`: Stripe's events about the platform's subscriptions.
//   POST /functions/v1/stripe-webhook   (public: no token; the Stripe-Signature header is checked first)
// Verifies Stripe-Signature with PARLEY_STRIPE_WEBHOOK_SECRET (HMAC-SHA256, 5-minute tolerance)
// before reading anything, then applies the event as the service role:
//   checkout.session.completed       the team (client_reference_id) gets its customer and subscription
//   customer.subscription.created/updated/deleted   plan, status, period, cancel at period end
//   invoice.paid                     the invoice is stored; a past-due subscription is active again
//   invoice.payment_failed           the invoice is stored (one stored as paid stays paid); the team
//                                    keeps its plan for the grace period, unless the event is older
//                                    than the subscription state held or the invoice was since paid
// Idempotent by event id (public.stripe_events): a replay answers 200 {duplicate: true} and changes
// nothing. Out-of-order subscription events: the newest (event.created) wins (applySubscription).
// Events about a team that no longer exists (deleted after its subscription was cancelled) answer
// 200 {outcome: "ignored"}: there is nothing to apply, and Stripe must not retry them.
import { createServiceClient, type Db } from "../_shared/clients.ts";
import { must } from "../_shared/db.ts";
import { handler, HttpError, json, readBoundedText } from "../_shared/http.ts";
import type { Logger } from "../_shared/log.ts";
import {
  applyInvoice, applySubscription, notConfigured, Stripe, stripeClient, stripeConfig, stripeFailure,
  subscriptionOfInvoice, teamOfSubscription,
} from "../_shared/stripe.ts";

const HANDLED = new Set([
  "checkout.session.completed",
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "invoice.paid",
  "invoice.payment_failed",
]);

async function apply(service: Db, stripe: Stripe, event: Stripe.Event, log: Logger): Promise<string> {
  switch (event.type) {
    case "checkout.session.completed": {
      const session = event.data.object as Stripe.Checkout.Session;
      const teamId = session.client_reference_id ?? session.metadata?.team_id;
      const subId = typeof session.subscription === "string" ? session.subscription : session.subscription?.id;
      if (!teamId || !subId || session.mode !== "subscription") return "ignored";
      const customer = typeof session.customer === "string" ? session.customer : session.customer?.id ?? null;
      must(await service.from("subscriptions").update({ stripe_customer_id: customer, stripe_subscription_id: subId }).eq("team_id", teamId),
        "checkout session");
      // The session carries only the id: read the subscription as it is now.
      const sub = await stripe.subscriptions.retrieve(subId).catch((e) => { throw stripeFailure(e); });
      return await applySubscription(service, teamId, sub, event.created);
    }
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted": {
      const sub = event.data.object as Stripe.Subscription;
      const teamId = await teamOfSubscription(service, sub);
      if (!teamId) {
        log.warn("subscription_without_team", { subscription: sub.id });
        return "ignored";
      }
      return await applySubscription(service, teamId, sub, event.created);
    }
    case "invoice.paid":
    case "invoice.payment_failed": {
      const invoice = event.data.object as Stripe.Invoice;
      const subId = subscriptionOfInvoice(invoice);
      if (!subId) return "ignored";
      const row = must(
        await service.from("subscriptions").select("team_id, status, stripe_updated_at").eq("stripe_subscription_id", subId).maybeSingle(),
        "invoice team",
      );
      const teamId = row?.team_id ?? (invoice.parent?.subscription_details?.metadata?.team_id ?? null);
      if (!teamId || !/^[0-9a-f-]{36}$/i.test(teamId)) return "ignored";
      // A team deleted since (its subscription was cancelled, or it stopped paying): nothing to store.
      if (!row && !must(await service.from("teams").select("id").eq("id", teamId).maybeSingle(), "invoice team")) {
        log.warn("invoice_without_team", { invoice: invoice.id, subscription: subId });
        return "ignored";
      }
      const failed = event.type === "invoice.payment_failed";
      const stored = await applyInvoice(service, teamId, invoice, failed);
      // An invoice of a subscription that is not (or not yet) the team's is recorded only: it does
      // not decide the team's status (an ended subscription's late failure after a granted plan).
      if (!row) return "applied";
      if (failed) {
        // Stripe does not order events: a failure older than the subscription state we hold (a
        // retried delivery arriving after invoice.paid and the subscription's return to active), or
        // for an invoice since paid, changes nothing but the record.
        const stale = stored === "paid" ||
          (row?.stripe_updated_at != null && new Date(row.stripe_updated_at).getTime() > event.created * 1000);
        if (stale) return "stale";
        // The subscription event that follows sets past_due; the grace period starts now either way.
        const graceDays = Number(Deno.env.get("PARLEY_BILLING_GRACE_DAYS") ?? 7);
        must(await service.from("subscriptions").update({ status: "past_due", grace_until: new Date(Date.now() + graceDays * 86_400_000).toISOString() })
          .eq("team_id", teamId).is("grace_until", null).neq("plan_id", "free"), "grace period");
      } else if (row && (row.status === "past_due" || row.status === "unpaid")) {
        must(await service.from("subscriptions").update({ status: "active", grace_until: null }).eq("team_id", teamId), "paid again");
      }
      return "applied";
    }
    default:
      return "ignored";
  }
}

Deno.serve(
  handler("stripe-webhook", async (req, { log }) => {
    if (req.method !== "POST") throw new HttpError(405, "method_not_allowed", "Use POST");
    const config = stripeConfig();
    if (!config?.webhookSecret) throw notConfigured();
    const signature = req.headers.get("stripe-signature");
    if (!signature) throw new HttpError(400, "invalid_signature", "The Stripe-Signature header is missing");
    const body = await readBoundedText(req, 512 * 1024);
    const stripe = stripeClient(config);
    let event: Stripe.Event;
    try {
      event = await stripe.webhooks.constructEventAsync(body, signature, config.webhookSecret, 300, Stripe.createSubtleCryptoProvider());
    } catch {
      throw new HttpError(400, "invalid_signature", "The Stripe-Signature header does not match the payload");
    }
    if (typeof event?.id !== "string" || !/^evt_\w+$/.test(event.id) || typeof event.type !== "string") {
      throw new HttpError(400, "invalid_event", "Not a Stripe event");
    }

    const service = createServiceClient();
    const seen = must(await service.from("stripe_events").select("id").eq("id", event.id).maybeSingle(), "event seen");
    if (seen) return json(200, { received: true, duplicate: true });
    const outcome = HANDLED.has(event.type) ? await apply(service, stripe, event, log) : "ignored";
    // Recorded after it applied: a failure above answers 5xx and Stripe sends it again.
    const recorded = await service.from("stripe_events").insert({
      id: event.id, type: event.type, stripe_created_at: new Date(event.created * 1000).toISOString(),
    });
    if (recorded.error && recorded.error.code !== "23505") must(recorded, "event record");
    log.info("stripe_event", { id: event.id, type: event.type, outcome });
    return json(200, { received: true, outcome });
  }),
);
