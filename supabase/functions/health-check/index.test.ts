import assert from "node:assert/strict";
import { callFunction, signedInUser } from "../_shared/testing.ts";

Deno.test("health-check answers through the stack's gateway without a JWT", async () => {
  const r = await fetch(`${Deno.env.get("SUPABASE_URL")}/functions/v1/health-check`);
  assert.equal(r.status, 200);
  const body = await r.json();
  assert.equal(body.ok, true);
});

Deno.test("a signed-in user's token reaches functions", async () => {
  const { token } = await signedInUser();
  const r = await callFunction("health-check", { token });
  assert.equal(r.status, 200);
  await r.body?.cancel();
});
