// Tasks against the real stack: cron in a time zone fires at the right time with a controlled
// clock (DST, exactly once, the catch-up rule), every-N-hours, and each type run by hand (a test
// task through a real test run that ends its task run with the result and regressions).
import assert from "node:assert/strict";
import { callFunction, serviceClient, sql } from "../_shared/testing.ts";
import { addChunks, createBot, seededPlatformAdmin } from "../chat/test-helpers.ts";
import { createEndpoint, receiver, tick } from "../deliver/test-helpers.ts";

type Tick = { runs: { run_id: string; task_id: string; ok: boolean }[] };

async function nextRun(taskId: string): Promise<string | null> {
  const [row] = await sql<{ next_run_at: Date | null }>("select next_run_at from public.tasks where id = $1", [taskId]);
  return row.next_run_at?.toISOString() ?? null;
}

const runsOf = (t: Tick, taskId: string) => t.runs.filter((r) => r.task_id === taskId);

async function runNow(token: string, taskId: string) {
  const res = await callFunction("tasks", { method: "POST", path: `/${taskId}/run`, token, body: "{}" });
  return { status: res.status, body: await res.json() };
}

Deno.test("a cron task in a time zone fires at its local time, once, and a late one catches up once", async () => {
  const { botId, owner } = await createBot();
  const ins = await owner.client.from("tasks").insert({
    bot_id: botId, name: "Morning digest", type: "digest", cron: "0 9 * * *", timezone: "Europe/Berlin",
  }).select("id").single();
  assert.equal(ins.error, null);
  const id = ins.data!.id as string;

  await tick("tasks", new Date("2030-01-15T07:00:00Z"));
  assert.equal(await nextRun(id), "2030-01-15T08:00:00.000Z", "09:00 in Berlin in winter is 08:00 UTC");
  assert.equal(runsOf(await tick("tasks", new Date("2030-01-15T07:59:59Z")), id).length, 0, "not before its time");
  const fired = runsOf(await tick("tasks", new Date("2030-01-15T08:00:30Z")), id);
  assert.equal(fired.length, 1, "it fires at its time");
  assert.equal(fired[0].ok, true);
  assert.equal(runsOf(await tick("tasks", new Date("2030-01-15T08:00:40Z")), id).length, 0, "exactly once");
  assert.equal(await nextRun(id), "2030-01-16T08:00:00.000Z");

  // the scheduler was down for four days: one run, then the next slot after now
  const late = runsOf(await tick("tasks", new Date("2030-01-20T12:00:00Z")), id);
  assert.equal(late.length, 1, "a late task runs once however many slots it missed");
  assert.equal(await nextRun(id), "2030-01-21T08:00:00.000Z");

  // summer time: 09:00 in Berlin is 07:00 UTC
  await sql("update public.tasks set next_run_at = null where id = $1", [id]);
  await tick("tasks", new Date("2030-07-15T05:00:00Z"));
  assert.equal(await nextRun(id), "2030-07-15T07:00:00.000Z");

  const [run] = await sql<{ status: string; trigger: string; scheduled_for: Date; duration_ms: number }>(
    "select status::text, trigger, scheduled_for, duration_ms from public.task_runs where task_id = $1 and scheduled_for = '2030-01-15T08:00:00Z'", [id]);
  assert.equal(run.status, "succeeded");
  assert.equal(run.trigger, "schedule");
  assert.equal(run.scheduled_for.toISOString(), "2030-01-15T08:00:00.000Z");
  assert.ok(run.duration_ms >= 0);
});

Deno.test("an every-N-hours task fires every N hours", async () => {
  const { botId, owner } = await createBot();
  const ins = await owner.client.from("tasks").insert({ bot_id: botId, name: "Often", type: "digest", every_hours: 6 }).select("id, next_run_at").single();
  assert.equal(ins.error, null);
  const id = ins.data!.id as string;
  const first = new Date(ins.data!.next_run_at as string);
  assert.equal(runsOf(await tick("tasks", new Date(first.getTime() - 1000)), id).length, 0);
  assert.equal(runsOf(await tick("tasks", new Date(first.getTime() + 1000)), id).length, 1, "due at its time (the stored time has microseconds)");
  assert.equal(await nextRun(id), new Date(first.getTime() + 6 * 3600_000).toISOString());
});

Deno.test("digest by hand: counts, top and unanswered questions, negative feedback, leads, sent to the task's webhook", async () => {
  const hook = receiver();
  try {
    const { botId, owner } = await createBot();
    const ep = await createEndpoint(owner.client, botId, hook.url, []);
    hook.setSecret(ep.secret);
    const admin = serviceClient();
    const chat = await admin.from("chats").insert({ bot_id: botId, user_id: owner.user.id }).select("id").single();
    if (chat.error) throw chat.error;
    for (const [role, content] of [["user", "Do you ship to Mars?"], ["assistant", "I do not know."], ["user", "Do you ship to Mars?"]] as const) {
      const m = await admin.from("messages").insert({ chat_id: chat.data.id, bot_id: botId, role, content }).select("id").single();
      if (m.error) throw m.error;
      if (role === "assistant") {
        const f = await admin.from("message_feedback").insert({ message_id: m.data.id, bot_id: botId, user_id: owner.user.id, rating: "down", comment: "useless" });
        if (f.error) throw f.error;
      }
    }
    const lead = await admin.from("leads").insert({ bot_id: botId, chat_id: chat.data.id, fields: { name: "Ada", email: "ada@example.com" } });
    if (lead.error) throw lead.error;
    const ins = await owner.client.from("tasks").insert({
      bot_id: botId, name: "Digest", type: "digest", every_hours: 24, recipient_ids: [owner.user.id], webhook_endpoint_id: ep.id,
    }).select("id").single();
    assert.equal(ins.error, null);
    const r = await runNow(owner.token, ins.data!.id);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.status, "succeeded");
    const d = r.body.output.digest;
    assert.deepEqual(d.counts, { chats: 1, questions: 2, answers: 1, feedback_up: 0, feedback_down: 1, leads: 1 });
    assert.deepEqual(d.leads.map((l: { chat_id: string; fields: unknown }) => [l.chat_id, l.fields]), [[chat.data.id, { name: "Ada", email: "ada@example.com" }]]);
    assert.deepEqual(d.top_questions, [{ question: "do you ship to mars?", count: 2 }]);
    assert.equal(d.unanswered_questions[0].question, "Do you ship to Mars?");
    assert.equal(d.negative_feedback[0].comment, "useless");
    assert.ok("sent" in r.body.output.emailed);

    for (let i = 0; i < 5 && hook.received.length === 0; i++) await tick("deliver");
    assert.equal(hook.received.length, 1, "the task's endpoint gets task.completed though it subscribed to nothing");
    const data = hook.received[0].body.data as { task: { id: string; type: string }; run: { status: string; trigger: string; output: { digest: unknown } } };
    assert.equal(data.task.type, "digest");
    assert.equal(data.run.trigger, "manual");
    assert.deepEqual(data.run.output.digest, d);
  } finally {
    await hook.close();
  }
});

Deno.test("ask by hand: the bot answers from its knowledge and nothing is stored as a chat", async () => {
  const { botId, owner } = await createBot();
  await addChunks(botId, [{ title: "Opening hours", content: "The shop opens at nine in the morning and closes at six." }]);
  const ins = await owner.client.from("tasks").insert({
    bot_id: botId, name: "Hours", type: "ask", cron: "0 8 * * 1", timezone: "UTC", settings: { prompt: "When does the shop open?" },
  }).select("id").single();
  assert.equal(ins.error, null);
  const r = await runNow(owner.token, ins.data!.id);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.status, "succeeded", JSON.stringify(r.body));
  assert.match(r.body.output.answer, /nine/);
  assert.equal(r.body.output.sources[0].title, "Opening hours");
  const chats = await sql<{ n: number }>("select count(*)::int n from public.chats where bot_id = $1", [botId]);
  assert.equal(chats[0].n, 0);
});

Deno.test("sync by hand re-syncs the chosen data sources; a test task of a bot without test cases fails clearly", async () => {
  const { botId, owner } = await createBot();
  const admin = serviceClient();
  const src = await admin.from("data_sources").insert({ bot_id: botId, type: "text", name: "Notes", settings: { title: "Notes", text: "Parcels leave on Mondays." } })
    .select("id").single();
  if (src.error) throw src.error;
  const ins = await owner.client.from("tasks").insert({
    bot_id: botId, name: "Resync", type: "sync", every_hours: 24, settings: { data_source_ids: [src.data.id, crypto.randomUUID()] },
  }).select("id").single();
  assert.equal(ins.error, null);
  const r = await runNow(owner.token, ins.data!.id);
  assert.equal(r.body.status, "succeeded", JSON.stringify(r.body));
  assert.equal(r.body.output.started.length, 1);
  assert.equal(r.body.output.skipped[0].reason, "not_found");
  let status = "";
  for (let i = 0; i < 50 && status !== "succeeded" && status !== "failed"; i++) {
    await new Promise((ok) => setTimeout(ok, 200));
    status = (await sql<{ status: string }>("select status::text from public.ingestion_jobs where id = $1", [r.body.output.started[0].job_id]))[0].status;
  }
  assert.equal(status, "succeeded", "the enqueued ingestion job ran");

  const t = await owner.client.from("tasks").insert({ bot_id: botId, name: "Regressions", type: "test", every_hours: 24 }).select("id").single();
  const tr = await runNow(owner.token, t.data!.id);
  assert.equal(tr.body.status, "failed");
  assert.match(tr.body.error, /^no_test_cases/);
});

/** The task run once its test run has ended it (and the recipients' mail is recorded). */
async function endedRun(runId: string) {
  for (let i = 0; i < 300; i++) {
    const [run] = await sql<{ status: string; output: Record<string, any>; error: string | null; duration_ms: number | null }>(
      "select status::text, output, error, duration_ms from public.task_runs where id = $1", [runId]);
    if (run.status !== "running" && "emailed" in run.output) return run;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  throw new Error(`task run ${runId} did not end`);
}

Deno.test("test by hand runs the bot's test cases; the run log reports the result, then the regressions", async () => {
  const { botId, owner } = await createBot({ chunks: [{ title: "Opening hours", content: "The shop opens at nine in the morning." }] });
  const c = await serviceClient().from("test_cases").insert({ bot_id: botId, question: "When does the shop open?", required_phrases: ["nine"] })
    .select("id").single();
  if (c.error) throw c.error;
  const ins = await owner.client.from("tasks").insert({
    bot_id: botId, name: "Regressions", type: "test", every_hours: 24, recipient_ids: [owner.user.id],
  }).select("id").single();
  assert.equal(ins.error, null);

  const first = await runNow(owner.token, ins.data!.id);
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.equal(first.body.status, "running", "the task run waits for its test run");
  const testRunId = first.body.output.test_run_id as string;
  const [testRun] = await sql<{ trigger: string; task_run_id: string }>("select trigger::text, task_run_id from public.test_runs where id = $1", [testRunId]);
  assert.deepEqual(testRun, { trigger: "manual", task_run_id: first.body.run_id }, "a real test run, linked to the task run");
  const passed = await endedRun(first.body.run_id);
  assert.equal(passed.status, "succeeded");
  assert.equal(passed.output.test_run_id, testRunId);
  assert.deepEqual(passed.output.test_run, { status: "succeeded", total: 1, passed: 1, failed: 0, regression_count: 0, fixed_count: 0, previous_run_id: null });
  assert.deepEqual(passed.output.regressions, []);
  assert.ok(passed.duration_ms !== null && passed.duration_ms >= 0);
  assert.ok("sent" in passed.output.emailed, "the recipients' mail is recorded");

  // the knowledge is gone: the case that passed fails now, a regression
  await sql("delete from public.chunks where bot_id = $1", [botId]);
  const second = await runNow(owner.token, ins.data!.id);
  assert.equal(second.body.status, "running");
  const regressed = await endedRun(second.body.run_id);
  assert.equal(regressed.status, "succeeded", "the run did its job: its report is the regressions");
  assert.equal(regressed.output.test_run.regression_count, 1);
  assert.equal(regressed.output.test_run.previous_run_id, testRunId);
  assert.deepEqual(regressed.output.regressions, [{ case_id: c.data.id, question: "When does the shop open?" }]);
  const [task] = await sql<{ last_status: string }>("select last_status::text from public.tasks where id = $1", [ins.data!.id]);
  assert.equal(task.last_status, "succeeded");
});

Deno.test("run now and tick refuse who may not", async () => {
  const { botId, owner } = await createBot();
  const ins = await owner.client.from("tasks").insert({ bot_id: botId, name: "Digest", type: "digest", every_hours: 24 }).select("id").single();
  const other = await createBot();
  const refused = await runNow(other.owner.token, ins.data!.id);
  assert.equal(refused.status, 404);
  assert.equal(refused.body.error.code, "not_found");
  // The platform administrator reads the task but may not run it.
  const platform = await seededPlatformAdmin();
  assert.equal((await platform.client.from("tasks").select("id").eq("id", ins.data!.id)).data?.length, 1);
  const byAdmin = await runNow(platform.token, ins.data!.id);
  assert.equal(byAdmin.status, 404);
  assert.equal(byAdmin.body.error.code, "not_found");
  const [{ runs }] = await sql<{ runs: number }>("select count(*)::int as runs from public.task_runs where task_id = $1", [ins.data!.id]);
  assert.equal(runs, 0, "neither refused caller started a run");
  assert.equal((await runNow(owner.token, crypto.randomUUID())).status, 404);
  const anon = await callFunction("tasks", { method: "POST", path: `/${ins.data!.id}/run`, body: "{}" });
  assert.equal(anon.status, 404);
  await anon.body?.cancel();
  const userTick = await callFunction("tasks", { method: "POST", path: "/tick", token: owner.token, body: "{}" });
  assert.equal(userTick.status, 403);
  await userTick.body?.cancel();
  const check = await callFunction("tasks", { method: "POST", path: "/validate", token: owner.token, body: JSON.stringify({ cron: "61 * * * *", timezone: "UTC" }) });
  assert.equal(check.status, 400);
  assert.equal(((await check.json()) as { error: { code: string } }).error.code, "invalid_request");
  const good = await callFunction("tasks", { method: "POST", path: "/validate", token: owner.token, body: JSON.stringify({ cron: "*/15 * * * *", timezone: "Asia/Tokyo" }) });
  assert.equal(((await good.json()) as { next_runs: string[] }).next_runs.length, 3);
});
