// Stripe for the billing and stripe-webhook functions: the configuration (read per request, so a
// deployment turns payments on by setting secrets, and a test points it at a fake), the client,
// and the one place Stripe's objects are written to the database (subscriptions, teams.plan_id,
// invoices) by the service role.
//   PARLEY_STRIPE_SECRET_KEY      sk_... ; without it payments are "not configured" (plans and usage still show)
//   PARLEY_STRIPE_WEBHOOK_SECRET  whsec_... the endpoint's signing secret (stripe-webhook)
//   PARLEY_STRIPE_API_BASE        default https://api.stripe.com (a local fake in tests)
//   PARLEY_BILLING_GRACE_DAYS     days a team keeps its plan after a failed payment (default 7)
import Stripe from "npm:stripe@23.1.0";
import type { Db } from "./clients.ts";
import { must } from "./db.ts";
import { HttpError } from "./http.ts";

export { Stripe };

export interface StripeConfig {
  secretKey: string;
  webhookSecret: string | undefined;
  apiBase: URL;
}

export function stripeConfig(): StripeConfig | null {
  const secretKey = Deno.env.get("PARLEY_STRIPE_SECRET_KEY");
  if (!secretKey) return null;
  return {
    secretKey,
    webhookSecret: Deno.env.get("PARLEY_STRIPE_WEBHOOK_SECRET") || undefined,
    apiBase: new URL(Deno.env.get("PARLEY_STRIPE_API_BASE") || "https://api.stripe.com"),
  };
}

export function notConfigured(): HttpError {
  return new HttpError(503, "payments_not_configured", "Payments are not configured on this server.");
}

export function stripeClient(config: StripeConfig): Stripe {
  const { apiBase } = config;
  const protocol = apiBase.protocol === "http:" ? "http" : "https";
  return new Stripe(config.secretKey, {
    host: apiBase.hostname,
    port: apiBase.port ? Number(apiBase.port) : protocol === "http" ? 80 : 443,
    protocol,
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 1,
    timeout: 20_000,
  });
}

/** A Stripe error as our one error shape: the caller's mistake stays 4xx, Stripe being down is 502. */
export function stripeFailure(e: unknown): HttpError {
  if (e instanceof Stripe.errors.StripeError) {
    if (e.type === "StripeInvalidRequestError") return new HttpError(400, "stripe_refused", e.message);
    if (e.type === "StripeCardError") return new HttpError(402, "payment_failed", e.message);
    return new HttpError(502, "stripe_unavailable", "Payments are unavailable for a moment. Please try again.");
  }
  throw e;
}

export type PlanRow = { id: string; stripe_price_ids: unknown };

/** The plan and billing interval a Stripe price id belongs to (plans.stripe_price_ids), or null. */
export function planOfPrice(plans: PlanRow[], priceId: string): { planId: string; interval: string; currency: string } | null {
  for (const plan of plans) {
    const byCurrency = (plan.stripe_price_ids ?? {}) as Record<string, Record<string, string>>;
    for (const [currency, byInterval] of Object.entries(byCurrency)) {
      for (const [interval, id] of Object.entries(byInterval ?? {})) {
        if (id === priceId) return { planId: plan.id, interval, currency };
      }
    }
  }
  return null;
}

/** The Stripe price of a plan, interval and currency (plans.stripe_price_ids), or a 400. */
export function priceOfPlan(plan: PlanRow, interval: string, currency: string): string {
  const id = ((plan.stripe_price_ids ?? {}) as Record<string, Record<string, string>>)[currency]?.[interval];
  if (!id) throw new HttpError(400, "price_not_found", `The ${plan.id} plan has no ${interval}ly price in ${currency.toUpperCase()}.`);
  return id;
}

const iso = (unix: number | null | undefined) => (typeof unix === "number" ? new Date(unix * 1000).toISOString() : null);

/** The team a Stripe subscription belongs to: its metadata, else our record of its id or customer. */
export async function teamOfSubscription(service: Db, sub: Stripe.Subscription): Promise<string | null> {
  const fromMetadata = sub.metadata?.team_id;
  if (fromMetadata && /^[0-9a-f-]{36}$/i.test(fromMetadata)) return fromMetadata;
  const customer = typeof sub.customer === "string" ? sub.customer : sub.customer?.id;
  const rows = must(
    await service.from("subscriptions").select("team_id")
      .or(`stripe_subscription_id.eq.${sub.id},stripe_customer_id.eq.${customer ?? "none"}`).limit(1),
    "subscription owner",
  );
  return rows[0]?.team_id ?? null;
}

const ENDED = new Set(["canceled", "incomplete_expired"]);

/**
 * Writes a Stripe subscription to the team's row and plan. `at` is when Stripe produced it (the
 * event's `created`): a change older than the last one applied is ignored (events arrive out of
 * order). Answers "applied", "stale" (older, or about a subscription the team replaced) or
 * "ignored" (no such team: it was deleted).
 */
export async function applySubscription(
  service: Db, teamId: string, sub: Stripe.Subscription, at: number,
): Promise<"applied" | "stale" | "ignored"> {
  const current = must(
    await service.from("subscriptions").select("stripe_updated_at, stripe_subscription_id, grace_until").eq("team_id", teamId).maybeSingle(),
    "subscription",
  );
  if (!current) return "ignored";
  const atIso = new Date(at * 1000).toISOString();
  if (current.stripe_updated_at && new Date(current.stripe_updated_at).getTime() > at * 1000) return "stale";
  // A subscription the team replaced (a new checkout) no longer decides its plan.
  if (current.stripe_subscription_id && current.stripe_subscription_id !== sub.id && ENDED.has(sub.status)) return "stale";

  const plans = must(await service.from("plans").select("id, stripe_price_ids"), "plans");
  const item = sub.items?.data?.[0] as (Stripe.SubscriptionItem & { current_period_start?: number; current_period_end?: number }) | undefined;
  const price = item?.price?.id ?? null;
  const mapped = price ? planOfPrice(plans, price) : null;
  const legacy = sub as unknown as { current_period_start?: number; current_period_end?: number };
  const ended = ENDED.has(sub.status);
  const planId = ended ? "free" : mapped?.planId ?? null;
  if (!planId) throw new HttpError(422, "unknown_price", `No plan has the Stripe price ${price ?? "(none)"}.`);
  const pastDue = sub.status === "past_due" || sub.status === "unpaid";
  const graceDays = Number(Deno.env.get("PARLEY_BILLING_GRACE_DAYS") ?? 7);

  must(
    await service.from("subscriptions").update({
      status: sub.status,
      billing_interval: mapped?.interval ?? null,
      currency: mapped?.currency ?? sub.currency ?? null,
      current_period_start: iso(item?.current_period_start ?? legacy.current_period_start),
      current_period_end: iso(item?.current_period_end ?? legacy.current_period_end),
      cancel_at_period_end: !ended && sub.cancel_at_period_end,
      canceled_at: iso(sub.canceled_at),
      grace_until: pastDue ? current.grace_until ?? new Date(Date.now() + graceDays * 86_400_000).toISOString() : null,
      stripe_customer_id: typeof sub.customer === "string" ? sub.customer : sub.customer?.id ?? null,
      stripe_subscription_id: sub.id,
      stripe_price_id: price,
      stripe_updated_at: atIso,
    }).eq("team_id", teamId),
    "subscription update",
  );
  // teams.plan_id is what every limit reads; its trigger moves the subscription's plan_id with it.
  must(await service.from("teams").update({ plan_id: planId }).eq("id", teamId), "team plan");
  return "applied";
}

/**
 * Stores or updates an invoice (invoice.paid, invoice.payment_failed) and returns its stored status.
 * Stripe does not order its events (a failed delivery is retried hours later): an invoice stored
 * as paid stays paid, whatever a late payment_failed says.
 */
export async function applyInvoice(service: Db, teamId: string, invoice: Stripe.Invoice, failed: boolean): Promise<string> {
  const url = (u: string | null | undefined) => (u && /^https?:\/\//.test(u) ? u.slice(0, 2048) : null);
  const row = {
    team_id: teamId,
    stripe_invoice_id: invoice.id!,
    number: invoice.number ?? null,
    status: failed ? "payment_failed" : invoice.status ?? "paid",
    currency: invoice.currency,
    amount_due: invoice.amount_due ?? 0,
    amount_paid: invoice.amount_paid ?? 0,
    hosted_invoice_url: url(invoice.hosted_invoice_url),
    invoice_pdf: url(invoice.invoice_pdf),
    period_start: iso(invoice.period_start),
    period_end: iso(invoice.period_end),
  };
  if (!failed) {
    must(await service.from("invoices").upsert(row, { onConflict: "stripe_invoice_id" }), "invoice");
    return row.status;
  }
  // A failure: a new invoice is stored; a known one is updated unless it is paid (one statement each,
  // so an invoice.paid delivered at the same moment is not overwritten either).
  const inserted = must(
    await service.from("invoices").upsert(row, { onConflict: "stripe_invoice_id", ignoreDuplicates: true }).select("status"),
    "invoice",
  );
  if (inserted.length) return row.status;
  must(await service.from("invoices").update(row).eq("stripe_invoice_id", row.stripe_invoice_id).neq("status", "paid"), "invoice");
  const stored = must(await service.from("invoices").select("status").eq("stripe_invoice_id", row.stripe_invoice_id).single(), "invoice");
  return stored.status;
}

/** The subscription id an invoice is for (older API versions: invoice.subscription). */
export function subscriptionOfInvoice(invoice: Stripe.Invoice): string | null {
  const parent = (invoice as unknown as { parent?: { subscription_details?: { subscription?: string | { id: string } } } }).parent;
  const legacy = (invoice as unknown as { subscription?: string | { id: string } | null }).subscription;
  const ref = parent?.subscription_details?.subscription ?? legacy ?? null;
  return typeof ref === "string" ? ref : ref?.id ?? null;
}
