// The delivery worker: claim the due head delivery of each endpoint, POST it signed, record the
// attempt. Claims are leases (public.claim_webhook_deliveries), so a worker that dies mid-way
// leaves its deliveries to be claimed again: at least once, with the event id as webhook-id.
import { Webhook } from "npm:standardwebhooks@1.1.1";
import type { Db } from "../_shared/clients.ts";
import { must } from "../_shared/db.ts";
import { describe, type Logger } from "../_shared/log.ts";
import { escapeHtml } from "../_shared/mail.ts";
import { sendMailInLanguages } from "../_shared/mail-text.ts";
import { SafeFetchError, safeFetch } from "../_shared/safe-fetch.ts";
import { env } from "../_shared/env.ts";

/** A receiver has this long to answer; the lease outlives it. */
export const DELIVERY_TIMEOUT_MS = 10_000;
const LEASE_SECONDS = 60;

export interface Claimed {
  delivery_id: string;
  endpoint_id: string;
  url: string;
  secret: string;
  event_id: string;
  event_type: string;
  event_version: number;
  event_data: unknown;
  event_created_at: string;
  bot_id: string;
  attempt: number;
}

/** The body a receiver gets (docs/webhooks.md, version 1). */
export function eventBody(c: Claimed): string {
  return JSON.stringify({
    id: c.event_id,
    type: c.event_type,
    version: c.event_version,
    timestamp: new Date(c.event_created_at).toISOString(),
    bot_id: c.bot_id,
    data: c.event_data,
  });
}

/** Standard Webhooks headers for a body, signed at `at`. */
export function signedHeaders(secret: string, id: string, body: string, at: Date): Record<string, string> {
  return {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(id, at, body),
  };
}

export interface TickResult {
  claimed: number;
  succeeded: number;
  failed: number;
  disabled: string[];
}

/** One pass: claims up to `max` deliveries (one per endpoint) and sends them in parallel. */
export async function deliverDue(service: Db, opts: { now?: Date; max?: number; log: Logger }): Promise<TickResult> {
  const at = opts.now ?? new Date();
  const claimed = must(
    await service.rpc("claim_webhook_deliveries", {
      max_deliveries: opts.max ?? 20,
      lease_seconds: LEASE_SECONDS,
      at_time: at.toISOString(),
    }),
    "claim deliveries",
  ) as Claimed[];
  const result: TickResult = { claimed: claimed.length, succeeded: 0, failed: 0, disabled: [] };
  await Promise.all(claimed.map(async (c) => {
    const outcome = await attempt(c);
    const done = must(
      await service.rpc("complete_webhook_delivery", { delivery_id: c.delivery_id, ...outcome, at_time: (opts.now ?? new Date()).toISOString() }),
      "complete delivery",
    ) as { status: string; disabled: boolean };
    if (outcome.ok) result.succeeded++;
    else result.failed++;
    opts.log.info("webhook_attempt", { delivery_id: c.delivery_id, endpoint_id: c.endpoint_id, attempt: c.attempt, ok: outcome.ok,
      response_status: outcome.response_status, error: outcome.error });
    if (done.disabled) {
      result.disabled.push(c.endpoint_id);
      await tellOwners(service, c, outcome, opts.log);
    }
  }));
  return result;
}

interface Outcome {
  ok: boolean;
  response_status?: number;
  response_excerpt?: string;
  error?: string;
  duration_ms: number;
}

async function attempt(c: Claimed): Promise<Outcome> {
  const body = eventBody(c);
  const started = performance.now();
  try {
    const res = await safeFetch(c.url, {
      method: "POST",
      body,
      headers: signedHeaders(c.secret, c.event_id, body, new Date()), // real time, whatever the queue's clock
      timeoutMs: DELIVERY_TIMEOUT_MS,
      maxBytes: 4096,
      onTooLarge: "truncate",
      maxRedirects: 0, // a redirect is a failure: the signature was made for this address
    });
    const ok = res.status >= 200 && res.status < 300;
    return { ok, response_status: res.status, response_excerpt: res.text().slice(0, 1000), error: ok ? undefined : `http_${res.status}`,
      duration_ms: Math.round(performance.now() - started) };
  } catch (e) {
    const code = e instanceof SafeFetchError ? e.code : "network_error";
    const message = e instanceof Error ? e.message : String(e);
    return { ok: false, error: `${code}: ${message}`.slice(0, 500),
      duration_ms: Math.round(performance.now() - started) };
  }
}

async function tellOwners(service: Db, c: Claimed, outcome: Outcome, log: Logger) {
  try {
    const owners = must(await service.rpc("webhook_endpoint_owner_emails", { endpoint_id: c.endpoint_id }), "owner emails");
    const link = `${env.siteUrl.replace(/\/+$/, "")}/app/bots/${c.bot_id}/webhooks`;
    const why = outcome.error ?? `HTTP ${outcome.response_status}`;
    // each owner reads it in the language they use Parley in
    const sent = await sendMailInLanguages(owners, (t) => ({
      subject: t.endpointDisabledSubject,
      text: `${t.endpointDisabled(c.url, why)}\n\n${t.endpointDisabledAction} ${link}\n`,
      html: `<p>${escapeHtml(t.endpointDisabled(c.url, why))}</p><p><a href="${escapeHtml(link)}">${escapeHtml(t.endpointDisabledAction)}</a></p>`,
    }));
    log.info("webhook_endpoint_disabled", { endpoint_id: c.endpoint_id, mailed: sent.sent, skipped: sent.skipped });
  } catch (e) {
    log.error("webhook_disabled_mail_failed", { endpoint_id: c.endpoint_id, error: describe(e) });
  }
}
