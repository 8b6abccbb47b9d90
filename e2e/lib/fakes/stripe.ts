// A stand-in for Stripe on 127.0.0.1, as a web-standard handler (Request → Response) so the Deno
// function tests and the Node browser tests serve the same fake. It speaks Stripe's wire format
// for what the billing function calls (form-encoded requests with bracketed keys, JSON objects
// with `object` and `id`, errors as {error: {type, message}}), checks the secret key, and sends
// signed webhook events (Stripe-Signature: t=<unix>,v1=<HMAC-SHA256 of "t.payload">) to the
// stripe-webhook function like Stripe does:
//   POST /v1/customers                        create a customer
//   POST /v1/checkout/sessions                subscription mode; its url is the fake's checkout page
//   GET  /v1/checkout/sessions?customer=&status=   list (newest first)
//   POST /v1/checkout/sessions/<id>/expire    an open session expires (its page no longer pays)
//   GET  /checkout/<id>                       the "hosted" checkout page: Pay or Cancel
//   POST /checkout/<id>/pay                   pays: subscription + paid invoice, sends
//                                             checkout.session.completed, customer.subscription.created
//                                             and invoice.paid, then redirects to success_url
//   GET  /v1/subscriptions/<id>               retrieve
//   POST /v1/subscriptions/<id>               update (items[0][price], cancel_at_period_end, proration_behavior)
//   POST /v1/billing_portal/sessions          the portal page's url (a page linking back to return_url)
// Test controls (not Stripe API, methods on the returned object): endPeriod (a subscription set to
// cancel at its period's end ends: customer.subscription.deleted), failPayment (invoice.payment_failed),
// event (a signed event of any type, for replay and ordering cases).

export interface FakeStripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** Where events go (the stripe-webhook function); set later with setWebhookUrl when unknown. */
  webhookUrl?: string;
}

type Obj = Record<string, unknown>;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "request-id": `req_${rand()}` } });
const stripeError = (status: number, message: string, type = "invalid_request_error") => json({ error: { type, message } }, status);
const rand = () => crypto.randomUUID().replace(/-/g, "").slice(0, 24);
const now = () => Math.floor(Date.now() / 1000);
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Stripe's form encoding: a[b][0][c]=v → {a: {b: [{c: v}]}}. */
export function parseStripeForm(body: string): Obj {
  const out: Obj = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, "").split("[");
    let node: Record<string, unknown> = out;
    path.forEach((part, i) => {
      if (i === path.length - 1) {
        node[part] = value;
        return;
      }
      const nextIsIndex = /^\d+$/.test(path[i + 1]!);
      node[part] ??= nextIsIndex ? [] : {};
      node = node[part] as Record<string, unknown>;
    });
  }
  return out;
}

async function hmacHex(secret: string, text: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const sig = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(text)));
  return [...sig].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The Stripe-Signature header Stripe sends with a payload. */
export async function stripeSignature(payload: string, secret: string, timestamp = now()): Promise<string> {
  return `t=${timestamp},v1=${await hmacHex(secret, `${timestamp}.${payload}`)}`;
}

export function fakeStripe(opts: FakeStripeOptions) {
  let webhookUrl = opts.webhookUrl;
  let base = "";
  const customers = new Map<string, Obj>();
  const sessions = new Map<string, Obj>();
  const subscriptions = new Map<string, Obj>();
  const invoices = new Map<string, Obj>();
  /** Every request the fake received (method, path, form), for assertions. */
  const requests: { method: string; path: string; form: Obj }[] = [];
  /** Every event sent and the webhook's answer status. */
  const sent: { event: Obj; status: number }[] = [];

  async function buildEvent(type: string, object: Obj, created = now()): Promise<Obj> {
    return { id: `evt_${rand()}`, object: "event", api_version: "2025-10-29.clover", created, type, livemode: false, data: { object } };
  }

  async function deliver(event: Obj, signatureSecret = opts.webhookSecret): Promise<number> {
    if (!webhookUrl) throw new Error("fake Stripe: no webhook URL");
    const payload = JSON.stringify(event);
    const res = await fetch(webhookUrl, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": await stripeSignature(payload, signatureSecret) },
      body: payload,
    });
    await res.body?.cancel();
    sent.push({ event, status: res.status });
    return res.status;
  }

  async function send(type: string, object: Obj): Promise<Obj> {
    const event = await buildEvent(type, structuredClone(object));
    await deliver(event);
    return event;
  }

  function periodEnd(start: number, interval: string): number {
    const d = new Date(start * 1000);
    if (interval === "year") d.setUTCFullYear(d.getUTCFullYear() + 1);
    else d.setUTCMonth(d.getUTCMonth() + 1);
    return Math.floor(d.getTime() / 1000);
  }

  function priceObject(priceId: string): Obj {
    const interval = /_year$/.test(priceId) ? "year" : "month";
    const currency = /_eur_/.test(priceId) ? "eur" : "usd";
    return { id: priceId, object: "price", currency, recurring: { interval }, unit_amount: 0 };
  }

  function makeInvoice(sub: Obj, status: "paid" | "open"): Obj {
    const item = (sub.items as { data: Obj[] }).data[0]!;
    const price = item.price as Obj;
    const id = `in_${rand()}`;
    const invoice: Obj = {
      id, object: "invoice", customer: sub.customer, subscription: sub.id,
      parent: { type: "subscription_details", subscription_details: { subscription: sub.id, metadata: sub.metadata } },
      number: `FAKE-${invoices.size + 1}`, status, currency: price.currency,
      amount_due: 1900, amount_paid: status === "paid" ? 1900 : 0,
      hosted_invoice_url: `${base}/invoices/${id}`, invoice_pdf: `${base}/invoices/${id}.pdf`,
      period_start: item.current_period_start, period_end: item.current_period_end, created: now(),
    };
    invoices.set(id, invoice);
    return invoice;
  }

  function subscriptionFor(session: Obj): Obj {
    const price = ((session.line_items as Obj[])[0]!.price) as string;
    const p = priceObject(price);
    const start = now();
    const end = periodEnd(start, (p.recurring as Obj).interval as string);
    const id = `sub_${rand()}`;
    const sub: Obj = {
      id, object: "subscription", customer: session.customer, status: "active",
      cancel_at_period_end: false, canceled_at: null, currency: p.currency,
      metadata: (session.subscription_data as Obj | undefined)?.metadata ?? session.metadata ?? {},
      items: { object: "list", data: [{ id: `si_${rand()}`, object: "subscription_item", price: p, quantity: 1, current_period_start: start, current_period_end: end }] },
      created: start,
    };
    subscriptions.set(id, sub);
    return sub;
  }

  async function handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    base = `${url.protocol}//${url.host}`;
    const path = url.pathname;
    const form = req.method === "POST" ? parseStripeForm(await req.text()) : {};
    requests.push({ method: req.method, path, form });

    // The pages a browser sees (and the icon it asks them for).
    if (path === "/favicon.ico") return new Response(null, { status: 204 });
    let m = /^\/checkout\/(cs_\w+)(\/pay)?$/.exec(path);
    if (m) {
      const session = sessions.get(m[1]!);
      if (!session) return new Response("No such checkout session", { status: 404 });
      if (session.status === "expired") return new Response("This checkout session has expired", { status: 410 });
      if (!m[2]) {
        return new Response(
          `<!doctype html><title>Fake Stripe Checkout</title><h1>Fake Stripe Checkout</h1>
<p>Subscribe with price <code>${escapeHtml(String((session.line_items as Obj[])[0]!.price))}</code></p>
<form method="post" action="/checkout/${session.id}/pay"><button type="submit">Pay</button></form>
<p><a href="${escapeHtml(String(session.cancel_url))}">Cancel</a></p>`,
          { headers: { "content-type": "text/html; charset=utf-8" } },
        );
      }
      if (session.status !== "complete") {
        const sub = subscriptionFor(session);
        Object.assign(session, { status: "complete", payment_status: "paid", subscription: sub.id });
        await send("checkout.session.completed", session);
        await send("customer.subscription.created", sub);
        await send("invoice.paid", makeInvoice(sub, "paid"));
      }
      const to = String(session.success_url).replace("{CHECKOUT_SESSION_ID}", String(session.id));
      return new Response(null, { status: 303, headers: { location: to } });
    }
    m = /^\/portal\/(bps_\w+)$/.exec(path);
    if (m) {
      return new Response(`<!doctype html><title>Fake Stripe portal</title><h1>Fake Stripe customer portal</h1>
<p><a href="${escapeHtml(portalReturns.get(m[1]!) ?? "/")}">Return</a></p>`, { headers: { "content-type": "text/html; charset=utf-8" } });
    }

    // The API.
    if (!path.startsWith("/v1/")) return new Response("Not found", { status: 404 });
    if (req.headers.get("authorization") !== `Bearer ${opts.secretKey}`) {
      return stripeError(401, "Invalid API Key provided", "invalid_request_error");
    }
    if (req.method === "POST" && path === "/v1/customers") {
      const customer = { id: `cus_${rand()}`, object: "customer", email: form.email ?? null, name: form.name ?? null, metadata: form.metadata ?? {} };
      customers.set(customer.id, customer);
      return json(customer);
    }
    if (req.method === "POST" && path === "/v1/checkout/sessions") {
      if (form.mode !== "subscription") return stripeError(400, "Only subscription mode is supported by this fake");
      const items = form.line_items as Obj[] | undefined;
      if (!items?.[0]?.price) return stripeError(400, "Missing required param: line_items[0][price].");
      if (!form.success_url || !form.cancel_url) return stripeError(400, "Missing required param: success_url.");
      if (form.customer && !customers.has(String(form.customer))) return stripeError(404, `No such customer: '${form.customer}'`);
      const id = `cs_test_${rand()}`;
      const session: Obj = { id, object: "checkout.session", status: "open", payment_status: "unpaid", url: `${base}/checkout/${id}`, subscription: null, ...form };
      sessions.set(id, session);
      return json(session);
    }
    if (req.method === "GET" && path === "/v1/checkout/sessions") {
      const customer = url.searchParams.get("customer");
      const status = url.searchParams.get("status");
      const data = [...sessions.values()].reverse()
        .filter((x) => (!customer || x.customer === customer) && (!status || x.status === status));
      return json({ object: "list", url: "/v1/checkout/sessions", has_more: false, data });
    }
    m = /^\/v1\/checkout\/sessions\/(cs_\w+)\/expire$/.exec(path);
    if (m && req.method === "POST") {
      const session = sessions.get(m[1]!);
      if (!session) return stripeError(404, `No such checkout.session: '${m[1]}'`);
      if (session.status !== "open") {
        return stripeError(400, `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`);
      }
      Object.assign(session, { status: "expired", url: null });
      return json(session);
    }
    if (req.method === "POST" && path === "/v1/billing_portal/sessions") {
      if (!form.customer || !customers.has(String(form.customer))) return stripeError(404, `No such customer: '${form.customer}'`);
      const id = `bps_${rand()}`;
      portalReturns.set(id, String(form.return_url ?? "/"));
      return json({ id, object: "billing_portal.session", customer: form.customer, return_url: form.return_url, url: `${base}/portal/${id}` });
    }
    m = /^\/v1\/subscriptions\/(sub_\w+)$/.exec(path);
    if (m) {
      const sub = subscriptions.get(m[1]!);
      if (!sub) return stripeError(404, `No such subscription: '${m[1]}'`);
      if (req.method === "GET") return json(sub);
      if (req.method === "POST") {
        if (form.cancel_at_period_end !== undefined) {
          sub.cancel_at_period_end = form.cancel_at_period_end === "true";
          sub.canceled_at = sub.cancel_at_period_end ? now() : null;
        }
        const item = (form.items as Obj[] | undefined)?.[0];
        if (item?.price) {
          const current = (sub.items as { data: Obj[] }).data[0]!;
          if (item.id && item.id !== current.id) return stripeError(400, `No such subscription item: '${item.id}'`);
          current.price = priceObject(String(item.price));
          sub.currency = (current.price as Obj).currency;
        }
        await send("customer.subscription.updated", sub);
        return json(sub);
      }
    }
    return stripeError(404, `Unrecognized request URL (${req.method}: ${path}).`);
  }
  const portalReturns = new Map<string, string>();

  return {
    handle,
    requests,
    sent,
    subscriptions,
    setWebhookUrl(url: string) {
      webhookUrl = url;
    },
    /** A subscription set to cancel at its period's end reaches it: Stripe deletes it. */
    async endPeriod(subscriptionId: string) {
      const sub = subscriptions.get(subscriptionId);
      if (!sub) throw new Error(`fake Stripe: no subscription ${subscriptionId}`);
      Object.assign(sub, { status: "canceled", ended_at: now() });
      return await send("customer.subscription.deleted", sub);
    },
    /** The renewal payment fails: the invoice stays open, the subscription goes past_due. */
    async failPayment(subscriptionId: string) {
      const sub = subscriptions.get(subscriptionId);
      if (!sub) throw new Error(`fake Stripe: no subscription ${subscriptionId}`);
      sub.status = "past_due";
      const event = await send("invoice.payment_failed", makeInvoice(sub, "open"));
      await send("customer.subscription.updated", sub);
      return event;
    },
    /** A signed event built like Stripe's (not yet sent): for replays, ordering and bad signatures. */
    buildEvent,
    /** Sends an event (optionally signed with another secret). Returns the webhook's status. */
    deliver,
  };
}

export type FakeStripe = ReturnType<typeof fakeStripe>;
