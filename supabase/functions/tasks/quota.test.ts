// Model spend outside the quota (review C): an ask task asks the model only while the team has
// messages left this month; a task runs at most every 15 minutes; a bot has at most 20 tasks.
import assert from "node:assert/strict";
import { startFakeProvider } from "../_shared/providers/fake-servers.ts";
import { callFunction, sql } from "../_shared/testing.ts";
import { createBot, setProviderKey } from "../chat/test-helpers.ts";

async function runNow(token: string, taskId: string) {
  const res = await callFunction("tasks", { method: "POST", path: `/${taskId}/run`, token, body: "{}" });
  return { status: res.status, body: await res.json() };
}

// (test teams are made on a plan without limits: this one is put on free)
const useUp = async (teamId: string, messages: number) => {
  await sql("update public.teams set plan_id = 'free' where id = $1", [teamId]);
  await sql(
    "insert into public.team_usage (team_id, month, messages) values ($1, date_trunc('month', now() at time zone 'utc')::date, $2) on conflict (team_id, month) do update set messages = $2",
    [teamId, messages],
  );
};

Deno.test(
  "an ask task of a free team asks the model while messages are left, and not once they are used up",
  async () => {
    const server = startFakeProvider("openai", [{ kind: "stream", tokens: ["We open at nine."] }]);
    let bot: string | null = null;
    try {
      const { botId, teamId, owner } = await createBot({
        provider: "openai_compatible",
        model: "llama-test",
        chunks: [
          { title: "Hours", content: "The shop opens at nine in the morning and closes at six in the evening." },
        ],
      });
      bot = botId;
      await setProviderKey(teamId, "openai_compatible", server.baseUrl);
      const ins = await owner.client
        .from("tasks")
        .insert({
          bot_id: botId,
          name: "Hours",
          type: "ask",
          cron: "0 8 * * 1",
          timezone: "UTC",
          settings: { prompt: "When do you open?" },
        })
        .select("id")
        .single();
      assert.equal(ins.error, null, JSON.stringify(ins.error));

      await useUp(teamId, 499);
      const left = await runNow(owner.token, ins.data!.id);
      assert.equal(left.body.status, "succeeded", JSON.stringify(left.body));
      assert.equal(server.received.length, 1, "with a message left, the model answers");

      await useUp(teamId, 500);
      const over = await runNow(owner.token, ins.data!.id);
      assert.equal(over.status, 200);
      assert.equal(over.body.status, "failed", JSON.stringify(over.body));
      assert.match(over.body.error, /^quota_exceeded: /);
      assert.equal(server.received.length, 1, "over the quota, the model is not asked");
      const [run] = await sql<{ status: string; error: string }>(
        "select status::text, error from public.task_runs where task_id = $1 order by started_at desc limit 1",
        [ins.data!.id],
      );
      assert.equal(run.status, "failed");
      assert.match(run.error, /^quota_exceeded: /, "the run log says why");
    } finally {
      // (a later test's tick with a moved clock claims every due task, 20 at most: leave none behind)
      if (bot) await sql("delete from public.tasks where bot_id = $1", [bot]);
      await server.close();
    }
  },
);

Deno.test("a task runs at most every 15 minutes, and a bot has at most 20 tasks", async () => {
  const { botId, owner } = await createBot();
  const often = await owner.client.from("tasks").insert({
    bot_id: botId,
    name: "Often",
    type: "ask",
    cron: "* * * * *",
    timezone: "UTC",
    settings: { prompt: "x" },
  });
  assert.equal(often.error?.code, "22023");
  assert.equal(often.error?.hint, "task_too_frequent");
  const quarter = await owner.client.from("tasks").insert({
    bot_id: botId,
    name: "Quarter",
    type: "ask",
    cron: "*/15 * * * *",
    timezone: "UTC",
    settings: { prompt: "x" },
  });
  assert.equal(quarter.error, null, JSON.stringify(quarter.error));
  const more = await owner.client.from("tasks").insert(
    Array.from({ length: 19 }, (_, i) => ({
      bot_id: botId,
      name: `Digest ${i}`,
      type: "digest" as const,
      every_hours: 24,
    })),
  );
  assert.equal(more.error, null, JSON.stringify(more.error));
  const extra = await owner.client
    .from("tasks")
    .insert({ bot_id: botId, name: "Extra", type: "digest", every_hours: 24 });
  assert.equal(extra.error?.hint, "too_many_tasks");
  const [n] = await sql<{ n: number }>("select count(*)::int n from public.tasks where bot_id = $1", [botId]);
  assert.equal(n.n, 20);
  // (a later test's tick with a moved clock claims every due task, 20 at most: leave none behind)
  await sql("delete from public.tasks where bot_id = $1", [botId]);
});
