// `billing`: a team owner's payments, through Stripe (see ../_shared/stripe.ts for the settings).
//   GET  /billing/config                      → {configured}: may this server take payments?
//   POST /billing/checkout {team_id, plan_id, interval, currency?, locale?}
//        → {url}: Stripe Checkout (subscription mode), back on /app/billing/success or /cancel;
//        the team's earlier checkouts still open are expired first (only the newest can be paid)
//   POST /billing/change   {team_id, plan_id, interval, currency?}  a paid team moves to another paid
//        plan or interval, prorated (Stripe subscription update) → {subscription}
//   POST /billing/cancel   {team_id, resume?}  cancels at the period's end (or takes that back) → {subscription}
//   POST /billing/portal   {team_id, locale?} → {url}: Stripe's customer portal (cards, invoices)
//   POST /billing/tick     (service role: the scheduler) moves teams whose paid period or grace period
//        ended to free, and e-mails owners at 80 % and 100 % of the month's message quota
// Who may: the team's owners, and no one else (a platform administrator neither: they read every
// team's billing, and change none). The check is Postgres's: public.owned_subscription, called as the
// caller, returns the subscription only to an owner; everything after that is the service role's.
// Changes Stripe confirms are written at once and again by stripe-webhook.
import { z } from "npm:zod@3.25.76";
import { callerClaims, requireVerifiedCaller } from "../_shared/caller.ts";
import { createServiceClient, createUserClient, type Db } from "../_shared/clients.ts";
import { dbFailure, isSessionInvalid, must, sessionInvalid } from "../_shared/db.ts";
import { env } from "../_shared/env.ts";
import { handler, HttpError, json, readJson } from "../_shared/http.ts";
import { sendMail } from "../_shared/mail.ts";
import {
  applySubscription, notConfigured, priceOfPlan, Stripe, stripeClient, stripeConfig, stripeFailure,
} from "../_shared/stripe.ts";
import { quotaMails, type Recipient } from "./quota-mail.ts";

import { LOCALES } from "../_shared/contracts/team-invite.ts";
const team = z.string().uuid("team_id must be a team id");
const planChange = z.object({
  team_id: team,
  plan_id: z.string().regex(/^[a-z][a-z0-9_-]{0,39}$/, "plan_id must be a plan id"),
  interval: z.enum(["month", "year"]).default("month"),
  currency: z.string().regex(/^[a-z]{3}$/, "currency must be a three-letter code").default("usd"),
  locale: z.enum(LOCALES).default("en"),
}).strict();
const cancelBody = z.object({ team_id: team, resume: z.boolean().default(false) }).strict();
const portalBody = z.object({ team_id: team, locale: z.enum(LOCALES).default("en") }).strict();

function parse<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new HttpError(400, "invalid_request", parsed.error.issues[0]?.message ?? "Invalid request", parsed.error.issues);
  }
  return parsed.data;
}

function appUrl(locale: string, path: string): string {
  return `${env.siteUrl.replace(/\/+$/, "")}${locale === "en" ? "" : `/${locale}`}${path}`;
}

type SubscriptionRow = {
  team_id: string; plan_id: string; status: string; stripe_customer_id: string | null; stripe_subscription_id: string | null;
};

/**
 * The team's subscription, if the caller is one of its owners, else 403. Postgres decides
 * (public.owned_subscription: private.has_team_role(team, 'owner') as the caller); being able to
 * read the row is not enough: platform administrators read every team's, and change none.
 */
async function ownedSubscription(req: Request, teamId: string): Promise<SubscriptionRow> {
  if ((await callerClaims(req)).role !== "authenticated") throw new HttpError(401, "session_required", "Sign in to manage billing.");
  const { data, error } = await createUserClient(req).rpc("owned_subscription", { team_id: teamId })
    .select("team_id, plan_id, status, stripe_customer_id, stripe_subscription_id").maybeSingle();
  if (error) throw isSessionInvalid(error) ? sessionInvalid() : dbFailure(error, "subscription");
  if (!data) throw new HttpError(403, "forbidden", "Only the team's owners manage its billing.");
  return data;
}

async function paidPlan(service: Db, planId: string) {
  const plan = must(await service.from("plans").select("id, stripe_price_ids").eq("id", planId).maybeSingle(), "plan");
  if (!plan) throw new HttpError(404, "plan_not_found", "No such plan");
  return plan;
}

const hasLiveSubscription = (s: SubscriptionRow) =>
  !!s.stripe_subscription_id && s.plan_id !== "free" && !["canceled", "incomplete_expired"].includes(s.status);

async function ensureCustomer(service: Db, stripe: Stripe, sub: SubscriptionRow, ownerEmail: string | null): Promise<string> {
  if (sub.stripe_customer_id) return sub.stripe_customer_id;
  const customer = await stripe.customers.create({ email: ownerEmail ?? undefined, metadata: { team_id: sub.team_id } })
    .catch((e) => { throw stripeFailure(e); });
  must(await service.from("subscriptions").update({ stripe_customer_id: customer.id }).eq("team_id", sub.team_id), "customer id");
  return customer.id;
}

/** Expires the customer's checkouts still open (an earlier page left unpaid), so only a new one can be paid. */
async function expireOpenCheckouts(stripe: Stripe, customer: string): Promise<void> {
  const open = await stripe.checkout.sessions.list({ customer, status: "open", limit: 100 }).catch((e) => { throw stripeFailure(e); });
  for (const session of open.data) {
    await stripe.checkout.sessions.expire(session.id).catch((e) => {
      // Paid or expired meanwhile: nothing left to expire (a paid one makes the team subscribed,
      // and the webhook keeps its plan; this checkout then answers already_subscribed next time).
      if (e instanceof Stripe.errors.StripeInvalidRequestError) return;
      throw stripeFailure(e);
    });
  }
}

async function checkout(req: Request): Promise<Response> {
  const body = parse(planChange, await readJson(req, 8 * 1024));
  const sub = await ownedSubscription(req, body.team_id);
  const config = stripeConfig();
  if (!config) throw notConfigured();
  if (hasLiveSubscription(sub)) {
    throw new HttpError(409, "already_subscribed", "This team already has a subscription: change its plan instead.");
  }
  const service = createServiceClient();
  const price = priceOfPlan(await paidPlan(service, body.plan_id), body.interval, body.currency);
  const stripe = stripeClient(config);
  const claims = await callerClaims(req);
  const owner = claims.userId ? (await service.auth.admin.getUserById(claims.userId)).data.user?.email ?? null : null;
  const customer = await ensureCustomer(service, stripe, sub, owner);
  // Only the newest checkout may be paid: two open checkouts paid one after the other would give the
  // team two live subscriptions (both charged). The customer is the team's alone.
  await expireOpenCheckouts(stripe, customer);
  const session = await stripe.checkout.sessions.create({
    mode: "subscription",
    customer,
    client_reference_id: body.team_id,
    line_items: [{ price, quantity: 1 }],
    metadata: { team_id: body.team_id },
    subscription_data: { metadata: { team_id: body.team_id } },
    success_url: `${appUrl(body.locale, "/app/billing/success")}?team=${body.team_id}&session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${appUrl(body.locale, "/app/billing/cancel")}?team=${body.team_id}`,
  }).catch((e) => { throw stripeFailure(e); });
  if (!session.url) throw new HttpError(502, "stripe_unavailable", "Stripe did not return a checkout page.");
  return json(200, { url: session.url });
}

async function liveSubscription(stripe: Stripe, sub: SubscriptionRow): Promise<Stripe.Subscription> {
  if (!hasLiveSubscription(sub)) throw new HttpError(409, "no_subscription", "This team has no paid subscription.");
  return await stripe.subscriptions.retrieve(sub.stripe_subscription_id!).catch((e) => { throw stripeFailure(e); });
}

async function change(req: Request): Promise<Response> {
  const body = parse(planChange, await readJson(req, 8 * 1024));
  const sub = await ownedSubscription(req, body.team_id);
  const config = stripeConfig();
  if (!config) throw notConfigured();
  const service = createServiceClient();
  const price = priceOfPlan(await paidPlan(service, body.plan_id), body.interval, body.currency);
  const stripe = stripeClient(config);
  const current = await liveSubscription(stripe, sub);
  const item = current.items.data[0];
  if (!item) throw new HttpError(409, "no_subscription", "This team's subscription has no item to change.");
  const updated = await stripe.subscriptions.update(current.id, {
    items: [{ id: item.id, price }],
    proration_behavior: "create_prorations",
    cancel_at_period_end: false,
  }).catch((e) => { throw stripeFailure(e); });
  await applySubscription(service, body.team_id, updated, Math.floor(Date.now() / 1000));
  return json(200, { subscription: { id: updated.id, status: updated.status, plan_id: body.plan_id } });
}

async function cancel(req: Request): Promise<Response> {
  const body = parse(cancelBody, await readJson(req, 4 * 1024));
  const sub = await ownedSubscription(req, body.team_id);
  const config = stripeConfig();
  if (!config) throw notConfigured();
  const stripe = stripeClient(config);
  const current = await liveSubscription(stripe, sub);
  const updated = await stripe.subscriptions.update(current.id, { cancel_at_period_end: !body.resume })
    .catch((e) => { throw stripeFailure(e); });
  await applySubscription(createServiceClient(), body.team_id, updated, Math.floor(Date.now() / 1000));
  return json(200, { subscription: { id: updated.id, status: updated.status, cancel_at_period_end: updated.cancel_at_period_end } });
}

async function portal(req: Request): Promise<Response> {
  const body = parse(portalBody, await readJson(req, 4 * 1024));
  const sub = await ownedSubscription(req, body.team_id);
  const config = stripeConfig();
  if (!config) throw notConfigured();
  if (!sub.stripe_customer_id) throw new HttpError(409, "no_customer", "This team has not paid through Stripe yet.");
  const session = await stripeClient(config).billingPortal.sessions.create({
    customer: sub.stripe_customer_id,
    return_url: `${appUrl(body.locale, "/app/billing")}?team=${body.team_id}`,
  }).catch((e) => { throw stripeFailure(e); });
  return json(200, { url: session.url });
}

async function tick(req: Request): Promise<Response> {
  if ((await callerClaims(req)).role !== "service_role") throw new HttpError(403, "forbidden", "Only the scheduler may call /tick");
  const service = createServiceClient();
  const moved = must(await service.rpc("apply_billing_deadlines"), "billing deadlines");
  const notices = must(await service.rpc("claim_quota_notices"), "quota notices") ?? [];
  let mailed = 0;
  for (const notice of notices) {
    const owners = must(await service.from("team_members").select("user_id").eq("team_id", notice.team_id).eq("role", "owner"), "owners");
    const languages = must(await service.from("profiles").select("id, preferred_language").in("id", owners.map((o) => o.user_id)), "owner languages");
    const billing = must(await service.from("teams").select("billing_email").eq("id", notice.team_id).single(), "billing e-mail");
    const to: Recipient[] = [];
    for (const o of owners) {
      const email = (await service.auth.admin.getUserById(o.user_id)).data.user?.email;
      if (email) to.push({ email, language: languages.find((p) => p.id === o.user_id)?.preferred_language ?? null });
    }
    if (billing.billing_email) to.push({ email: billing.billing_email, language: to[0]?.language ?? null });
    for (const mail of quotaMails(notice, to, appUrl("en", `/app/billing?team=${notice.team_id}`))) {
      mailed += (await sendMail(mail)).sent;
    }
  }
  return json(200, { moved, notices: notices.length, mailed });
}

Deno.serve(
  handler("billing", async (req) => {
    const route = new URL(req.url).pathname.replace(/^.*\/billing/, "") || "/";
    if (req.method === "GET" && route === "/config") return json(200, { configured: stripeConfig() !== null });
    if (req.method !== "POST") throw new HttpError(405, "method_not_allowed", "Use POST");
    switch (route) {
      case "/checkout":
        return await checkout(req);
      case "/change":
        return await change(req);
      case "/cancel":
        return await cancel(req);
      case "/portal":
        return await portal(req);
      case "/tick":
        return await tick(req);
      default:
        throw new HttpError(404, "not_found", "No such billing action");
    }
  }, { verifyCaller: requireVerifiedCaller }),
);
