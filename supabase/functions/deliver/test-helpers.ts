// Fixtures for the deliver and tasks tests: a receiver on 127.0.0.1 that verifies Standard
// Webhooks signatures, endpoints, and the worker's tick.
import assert from "node:assert/strict";
import { Webhook } from "npm:standardwebhooks@1.1.1";
import type { SupabaseClient } from "npm:@supabase/supabase-js@2.119.1";
import { callFunction, stack } from "../_shared/testing.ts";

export interface Received {
  id: string;
  timestamp: string;
  body: Record<string, unknown>;
  raw: string;
}

/**
 * A webhook receiver: answers with `respond(n)` (the status for the n-th request, 1-based),
 * verifies every request's signature with the standardwebhooks package and keeps the verified
 * ones. `secret` may be set later (after the endpoint exists).
 */
export function receiver(respond: (n: number) => number = () => 200) {
  const received: Received[] = [];
  const refused: string[] = [];
  let count = 0;
  const state = { secret: "" };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    count++;
    const raw = await req.text();
    const headers = Object.fromEntries(req.headers);
    try {
      new Webhook(state.secret).verify(raw, headers);
    } catch (e) {
      refused.push(String((e as Error).message));
      return new Response("bad signature", { status: 400 });
    }
    const status = respond(count);
    if (status >= 200 && status < 300) {
      received.push({ id: headers["webhook-id"], timestamp: headers["webhook-timestamp"], body: JSON.parse(raw), raw });
    }
    return new Response(status < 300 ? "thanks" : "not now", { status });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/hook`,
    received,
    refused,
    get requests() {
      return count;
    },
    setSecret(s: string) {
      state.secret = s;
    },
    close: () => server.shutdown(),
  };
}

/** An endpoint of the bot, made by its owner; returns its id and secret. */
export async function createEndpoint(owner: SupabaseClient, botId: string, url: string, events: string[]) {
  const { data, error } = await owner.from("webhook_endpoints").insert({ bot_id: botId, url, events }).select("id").single();
  if (error) throw error;
  const secret = await owner.rpc("get_webhook_secret", { endpoint_id: data.id });
  if (secret.error) throw secret.error;
  return { id: data.id as string, secret: secret.data as string };
}

/** One worker tick as the scheduler calls it (optionally at another time). */
export async function tick(fn: "deliver" | "tasks", now?: Date) {
  const res = await callFunction(fn, {
    method: "POST",
    path: "/tick",
    token: stack.serviceRoleKey,
    body: JSON.stringify(now ? { now: now.toISOString() } : {}),
  });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  return body;
}
