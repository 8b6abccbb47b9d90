// Billing tests: the fake Stripe (e2e/lib/fakes/stripe.ts) served where the stack's functions were
// told Stripe is (PARLEY_STRIPE_API_BASE, set by scripts/test.mjs for the functions suite), and a
// team with its owner.
import { fakeStripe, type FakeStripe } from "../../../e2e/lib/fakes/stripe.ts";
import { callFunction, serviceClient, signedInUser, stack } from "../_shared/testing.ts";

function required(name: string): string {
  const v = Deno.env.get(name);
  if (!v) throw new Error(`${name} is not set: run billing tests through \`npm test -- functions\` (scripts/test.mjs sets it)`);
  return v;
}

export async function withFakeStripe(run: (fake: FakeStripe) => Promise<void>): Promise<void> {
  const base = new URL(required("PARLEY_STRIPE_API_BASE"));
  const fake = fakeStripe({
    secretKey: required("PARLEY_STRIPE_SECRET_KEY"),
    webhookSecret: required("PARLEY_STRIPE_WEBHOOK_SECRET"),
    webhookUrl: `${stack.url}/functions/v1/stripe-webhook`,
  });
  const server = Deno.serve({ hostname: base.hostname, port: Number(base.port), onListen: () => {} }, fake.handle);
  try {
    await run(fake);
  } finally {
    await server.shutdown();
  }
}

export async function ownedTeam(plan = "free") {
  const owner = await signedInUser();
  const { data, error } = await owner.client.rpc("create_team", { name: "Billing test team", slug: `billing-${crypto.randomUUID().slice(0, 12)}` });
  if (error) throw error;
  const teamId = (data as { id: string }).id;
  if (plan !== "free") {
    const moved = await serviceClient().from("teams").update({ plan_id: plan }).eq("id", teamId);
    if (moved.error) throw moved.error;
  }
  return { owner, teamId };
}

export async function billing(path: string, token: string, body?: unknown) {
  const res = await callFunction("billing", {
    method: body === undefined ? "GET" : "POST",
    path,
    token,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}
