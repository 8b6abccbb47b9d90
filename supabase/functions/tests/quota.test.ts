// Model spend outside the quota (review C): suggestions are limited per bot (10 an hour) and,
// like test runs, refused once the team's monthly messages are used up; a run queued before
// then ends failed without asking the model.
import assert from "node:assert/strict";
import { startFakeProvider } from "../_shared/providers/fake-servers.ts";
import { callFunction, serviceClient, sql, stack } from "../_shared/testing.ts";
import { createBot, setProviderKey } from "../chat/test-helpers.ts";
import { QUOTA_EXCEEDED } from "./runner.ts";

const knowledge = [
  {
    title: "Hours",
    heading: "Hours",
    content: "The shop opens at nine in the morning and closes at six in the evening every weekday.",
  },
  {
    title: "Returns",
    heading: "Returns",
    content: "Returns are accepted within thirty days with a receipt, at any shop or by parcel post.",
  },
];

async function call(token: string, path: string) {
  const res = await callFunction("tests", { method: "POST", token, path, body: "{}" });
  return { status: res.status, body: await res.json(), retryAfter: res.headers.get("retry-after") };
}

// (test teams are made on a plan without limits: this one is put on free)
const useUp = async (teamId: string) => {
  await sql("update public.teams set plan_id = 'free' where id = $1", [teamId]);
  await sql(
    "insert into public.team_usage (team_id, month, messages) values ($1, date_trunc('month', now() at time zone 'utc')::date, 500) on conflict (team_id, month) do update set messages = 500",
    [teamId],
  );
};

Deno.test("suggestions: 10 an hour per bot, then 429 with Retry-After; another bot is not held up", async () => {
  const { botId, owner } = await createBot({ chunks: knowledge });
  for (let i = 0; i < 10; i++) {
    const r = await call(owner.token, `/bots/${botId}/suggestions`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
  }
  const refused = await call(owner.token, `/bots/${botId}/suggestions`);
  assert.equal(refused.status, 429);
  assert.equal(refused.body.error.code, "rate_limited");
  assert.ok(Number(refused.retryAfter) > 0 && Number(refused.retryAfter) <= 3600, `Retry-After ${refused.retryAfter}`);
  const other = await createBot({
    chunks: knowledge,
    team: {
      owner,
      teamId: (await sql<{ team_id: string }>("select team_id from public.bots where id = $1", [botId]))[0].team_id,
    },
  });
  assert.equal((await call(owner.token, `/bots/${other.botId}/suggestions`)).status, 200);
});

Deno.test(
  "over the month's messages: suggestions and manual runs are refused (402), a queued run fails without a model call",
  async () => {
    const server = startFakeProvider("openai", [{ kind: "stream", tokens: ["We open at nine."] }]);
    try {
      const { botId, teamId, owner } = await createBot({
        provider: "openai_compatible",
        model: "llama-test",
        chunks: knowledge,
      });
      await setProviderKey(teamId, "openai_compatible", server.baseUrl);
      const c = await serviceClient()
        .from("test_cases")
        .insert({ bot_id: botId, question: "When do you open?", required_phrases: ["nine"] });
      assert.equal(c.error, null);
      await useUp(teamId);

      const suggested = await call(owner.token, `/bots/${botId}/suggestions`);
      assert.equal(suggested.status, 402);
      assert.equal(suggested.body.error.code, "plan_limit");
      assert.equal(suggested.body.error.details, "messages_per_month");
      const manual = await call(owner.token, `/bots/${botId}/runs`);
      assert.equal(manual.status, 402);
      assert.equal(manual.body.error.code, "plan_limit");

      // queued by a schedule (or before the messages ran out): /tick takes it and ends it at once
      const queued = await serviceClient()
        .from("test_runs")
        .insert({ bot_id: botId, trigger: "schedule" })
        .select("id")
        .single();
      assert.equal(queued.error, null, JSON.stringify(queued.error));
      const tick = await callFunction("tests", { method: "POST", token: stack.serviceRoleKey, path: "/tick" });
      assert.equal(tick.status, 200);
      await tick.body?.cancel();
      let run: { status: string; error: string | null } | undefined;
      for (let i = 0; i < 100; i++) {
        [run] = await sql<{ status: string; error: string | null }>(
          "select status::text, error from public.test_runs where id = $1",
          [queued.data!.id],
        );
        if (run.status === "failed" || run.status === "succeeded") break;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(run?.status, "failed");
      assert.equal(run?.error, QUOTA_EXCEEDED);
      assert.equal(server.received.length, 0, "no model call over the quota");
    } finally {
      await server.close();
    }
  },
);
