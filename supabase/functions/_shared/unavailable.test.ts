// While the database cannot be reached, functions answer 503 with Retry-After (issue 13), not
// 500. The outage is real: PostgREST's login role is locked out and its connections closed, so
// PostgREST answers as it does when Postgres is down (503, PGRST000/PGRST001); then it comes back.
import assert from "node:assert/strict";
import { callFunction, serviceClient, sql } from "./testing.ts";
import { chat, createBot, signedInUser } from "../chat/test-helpers.ts";

async function databaseOutage(run: () => Promise<void>) {
  await sql("alter role authenticator nologin");
  await sql("select pg_terminate_backend(pid) from pg_stat_activity where usename = 'authenticator'");
  try {
    await run();
  } finally {
    await sql("alter role authenticator login");
    // Wait until PostgREST has reconnected, so the next tests find it as before: several answers
    // in a row over a second and a half (one success right after the outage was not enough: its
    // connection worker, woken by the refused logins, could still answer PGRST000 a moment later
    // and fail the next file's first test).
    let streak = 0;
    for (let i = 0; i < 240 && streak < 6; i++) {
      const { error } = await serviceClient().from("bots").select("id").limit(1);
      streak = error ? 0 : streak + 1;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

Deno.test("while the database is down, chat, bot-login, ingest, the HTTP API and channels-connect answer 503 with Retry-After", async () => {
  const { botId } = await createBot({ visibility: "password", password: "right-pass-9" });
  const visitor = await signedInUser();
  await databaseOutage(async () => {
    const answers = [
      await chat(visitor.token, { bot_id: botId, message: "hello?" }).then((r) => ({ status: r.status, headers: r.headers, json: r.json })),
      await callFunction("bot-login", {
        method: "POST",
        token: visitor.token,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ bot_id: botId, password: "right-pass-9" }),
      }).then(async (r) => ({ status: r.status, headers: r.headers, json: await r.json() })),
      await callFunction("ingest", { method: "POST", path: `/sources/${crypto.randomUUID()}/sync`, token: visitor.token, body: "{}" })
        .then(async (r) => ({ status: r.status, headers: r.headers, json: await r.json() })),
      // A well-formed key: looking it up is the first thing that needs the database.
      await callFunction("api", {
        method: "POST",
        path: "/v1/chat",
        headers: { "content-type": "application/json", authorization: `Bearer pk_${"a".repeat(43)}` },
        body: JSON.stringify({ message: "hello?" }),
      }).then(async (r) => ({ status: r.status, headers: r.headers, json: await r.json() })),
      await callFunction("channels-connect", {
        method: "POST",
        token: visitor.token,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ channel_id: crypto.randomUUID(), action: "test" }),
      }).then(async (r) => ({ status: r.status, headers: r.headers, json: await r.json() })),
    ];
    for (const [i, a] of answers.entries()) {
      assert.equal(a.status, 503, `answer ${i}: ${JSON.stringify(a.json)}`);
      assert.equal(a.json.error.code, "service_unavailable");
      assert.ok(Number(a.headers.get("retry-after")) >= 1, "Retry-After says when to try again");
    }
  });
  const after = await chat(visitor.token, { bot_id: botId, message: "hello?" });
  assert.equal(after.status, 403, "once the database is back, the bot answers as before (password first)");
});
