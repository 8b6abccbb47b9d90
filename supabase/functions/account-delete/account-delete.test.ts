// account-delete: only the caller is deleted, after auth confirms who they are; the last
// owner of a shared team is refused with the team's name.
import assert from "node:assert/strict";
import { callFunction, serviceClient, signedInUser, stack } from "../_shared/testing.ts";

async function del(token: string, body: unknown = { confirm: "DELETE" }) {
  const res = await callFunction("account-delete", { method: "POST", token, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}

Deno.test("account-delete: deletes the caller and nobody else", async () => {
  const me = await signedInUser();
  const other = await signedInUser();
  assert.equal((await del(me.token, {})).status, 400);
  assert.equal((await del(stack.anonKey)).status, 401);
  const res = await del(me.token);
  assert.deepEqual(res, { status: 200, json: { ok: true } });
  const gone = await serviceClient().auth.admin.getUserById(me.user.id);
  assert.ok(gone.error, "the user is gone");
  const still = await serviceClient().auth.admin.getUserById(other.user.id);
  assert.equal(still.data.user?.id, other.user.id);
});

Deno.test("account-delete: the last owner of a shared team is refused", async () => {
  const me = await signedInUser();
  const { error } = await me.client.rpc("create_team", { name: "Only owner" });
  assert.equal(error, null);
  const res = await del(me.token);
  assert.equal(res.status, 409);
  assert.equal(res.json.error.code, "last_owner");
  assert.deepEqual(res.json.error.details, { teams: ["Only owner"] });
  assert.equal((await serviceClient().auth.admin.getUserById(me.user.id)).data.user?.id, me.user.id);
});
