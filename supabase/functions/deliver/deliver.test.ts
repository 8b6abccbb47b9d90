// The delivery worker against the real stack: events written by triggers reach a local receiver
// signed (Standard Webhooks) and as docs/webhooks.md documents them; retries back off and the
// endpoint is disabled after the last; order per endpoint; redelivery keeps the id; SSRF refused.
import assert from "node:assert/strict";
import { callFunction, serviceClient, sql, stack } from "../_shared/testing.ts";
import { createBot } from "../chat/test-helpers.ts";
import { createEndpoint, receiver, tick } from "./test-helpers.ts";

const ALL = ["chat.created", "message.created", "feedback.created", "lead.created", "handoff.requested", "data_source.synced",
  "data_source.failed", "test_run.completed", "task.completed"];

/** Puts an endpoint's pending deliveries at a time no real-time scheduler tick reaches. */
async function holdUntil(endpointId: string, at: Date) {
  await sql("update public.webhook_deliveries set next_attempt_at = $2 where endpoint_id = $1 and status = 'pending'", [endpointId, at]);
}

async function deliveries(endpointId: string) {
  return await sql<{ id: string; status: string; attempt: number; next_attempt_at: Date; response_status: number | null; error: string | null; event_id: string }>(
    "select d.id, d.status::text, d.attempt, d.next_attempt_at, d.response_status, d.error, d.event_id from public.webhook_deliveries d where endpoint_id = $1 order by event_seq",
    [endpointId],
  );
}

Deno.test("every event reaches the receiver signed, in order, exactly as documented", async () => {
  const hook = receiver();
  try {
    const { botId, owner } = await createBot();
    const ep = await createEndpoint(owner.client, botId, hook.url, ALL);
    hook.setSecret(ep.secret);
    const admin = serviceClient();
    // a chat with a visitor turn and an answer, feedback, a finished sync (as the functions write them)
    const chat = await admin.from("chats").insert({ bot_id: botId, user_id: owner.user.id, title: "Hours" }).select("id, created_at").single();
    if (chat.error) throw chat.error;
    const q = await admin.from("messages").insert({ chat_id: chat.data.id, bot_id: botId, role: "user", content: "When do you open?" }).select("id").single();
    if (q.error) throw q.error;
    const a = await admin.from("messages").insert({ chat_id: chat.data.id, bot_id: botId, role: "assistant", content: "At nine." }).select("id").single();
    if (a.error) throw a.error;
    const fb = await admin.from("message_feedback").insert({ message_id: a.data.id, bot_id: botId, user_id: owner.user.id, rating: "down", comment: "too short" });
    if (fb.error) throw fb.error;
    const lead = await admin.from("leads").insert({ bot_id: botId, chat_id: chat.data.id, fields: { email: "ada@example.com" } }).select("id").single();
    if (lead.error) throw lead.error;
    const handoff = await admin.rpc("request_handoff", { chat_id: chat.data.id });
    assert.equal(handoff.data, true, JSON.stringify(handoff.error));
    const human = await owner.client.rpc("reply_as_human", { chat_id: chat.data.id, content: "A person here." });
    assert.equal(human.error, null);
    const src = await admin.from("data_sources").insert({ bot_id: botId, type: "text", name: "Notes" }).select("id").single();
    if (src.error) throw src.error;
    for (const status of ["succeeded", "failed"] as const) {
      const job = await admin.from("ingestion_jobs").insert({ data_source_id: src.data.id, bot_id: botId, status: "running" }).select("id").single();
      if (job.error) throw job.error;
      const done = await admin.from("ingestion_jobs").update({ status, finished_at: new Date().toISOString() }).eq("id", job.data.id);
      if (done.error) throw done.error;
    }
    const testCase = await admin.from("test_cases").insert({ bot_id: botId, question: "Open on Sundays?" }).select("id").single();
    if (testCase.error) throw testCase.error;
    const testRun = await admin.from("test_runs").insert({ bot_id: botId, status: "running", started_at: new Date().toISOString() }).select("id").single();
    if (testRun.error) throw testRun.error;
    const result = await admin.from("test_results").insert({ run_id: testRun.data.id, case_id: testCase.data.id, bot_id: botId, question: "Open on Sundays?", passed: false });
    if (result.error) throw result.error;
    const tested = await admin.from("test_runs").update({
      status: "succeeded", finished_at: new Date().toISOString(), progress_total: 1, progress_done: 1, failed_count: 1,
      regression_count: 1, regressions: [testCase.data.id],
    }).eq("id", testRun.data.id);
    if (tested.error) throw tested.error;

    const expected = ["chat.created", "message.created", "message.created", "feedback.created", "lead.created", "handoff.requested",
      "message.created", "data_source.synced", "data_source.failed", "test_run.completed"];
    for (let i = 0; i < 20 && hook.received.length < expected.length; i++) await tick("deliver");
    assert.deepEqual(hook.refused, [], "every request carried a valid signature");
    assert.deepEqual(hook.received.map((r) => r.body.type), expected, "events arrive in the order they happened");
    for (const r of hook.received) {
      assert.equal(r.id, r.body.id, "webhook-id is the event id");
      assert.equal(r.body.version, 1);
      assert.equal(r.body.bot_id, botId);
      assert.ok(Math.abs(Number(r.timestamp) - Date.now() / 1000) < 60, "webhook-timestamp is the sending time");
      assert.deepEqual(Object.keys(r.body).sort(), ["bot_id", "data", "id", "timestamp", "type", "version"]);
    }
    const [created, question, answer, feedback, leadCreated, handoffRequested, humanReply, synced, failed, testRunCompleted] = hook.received.map((r) =>
      r.body.data as Record<string, Record<string, unknown>>
    );
    assert.deepEqual(Object.keys(created.chat).sort(), ["bot_id", "channel", "created_at", "id", "title"]);
    assert.equal(created.chat.id, chat.data.id);
    assert.deepEqual(Object.keys(question.message).sort(), ["bot_id", "chat_id", "content", "created_at", "error", "id", "role", "sources"]);
    assert.equal(question.message.role, "user");
    assert.equal(question.message.content, "When do you open?");
    assert.equal(answer.message.role, "assistant");
    assert.deepEqual(Object.keys(feedback.feedback).sort(), ["bot_id", "comment", "created_at", "id", "message_id", "rating"]);
    assert.equal(feedback.feedback.rating, "down");
    assert.equal(synced.data_source.id, src.data.id);
    assert.equal(synced.job.status, "succeeded");
    assert.deepEqual(Object.keys(synced.job).sort(),
      ["error_count", "errors", "finished_at", "id", "progress_done", "progress_total", "started_at", "status", "trigger"]);
    assert.equal(failed.job.status, "failed");
    assert.deepEqual(Object.keys(leadCreated.lead).sort(), ["bot_id", "chat_id", "created_at", "fields", "id", "power_up_id"]);
    assert.equal(leadCreated.lead.id, lead.data.id);
    assert.deepEqual(leadCreated.lead.fields, { email: "ada@example.com" });
    assert.deepEqual(Object.keys(handoffRequested).sort(), ["chat", "last_visitor_message", "requested_by"]);
    assert.deepEqual(Object.keys(handoffRequested.chat).sort(), ["bot_id", "channel", "created_at", "handoff_requested_at", "id", "title"]);
    assert.equal(handoffRequested.chat.id, chat.data.id);
    assert.equal(handoffRequested.requested_by, "visitor", "the visitor (through the engine) asked; the team's reply after that is no new request");
    assert.deepEqual(Object.keys(handoffRequested.last_visitor_message).sort(), ["content", "created_at", "id"]);
    assert.equal(handoffRequested.last_visitor_message.id, q.data.id);
    assert.equal(humanReply.message.role, "human");
    assert.equal(humanReply.message.content, "A person here.");
    const run = testRunCompleted.test_run;
    assert.deepEqual(Object.keys(run).sort(), ["bot_id", "error", "failed", "finished_at", "fixed_count", "id", "passed", "previous_run_id",
      "regression_count", "regressions", "started_at", "status", "task_run_id", "total", "trigger"]);
    assert.equal(run.id, testRun.data.id);
    assert.equal(run.status, "succeeded");
    assert.deepEqual([run.total, run.passed, run.failed, run.regression_count], [1, 0, 1, 1]);
    assert.deepEqual(run.regressions, [{ case_id: testCase.data.id, question: "Open on Sundays?" }]);
    assert.ok((await deliveries(ep.id)).every((d) => d.status === "succeeded" && d.response_status === 200));
  } finally {
    await hook.close();
  }
});

Deno.test("a failing endpoint is retried with backoff over about a day, then disabled; redelivery keeps the event id", async () => {
  let failing = true;
  const hook = receiver(() => (failing ? 503 : 200));
  try {
    const { botId, owner } = await createBot();
    const ep = await createEndpoint(owner.client, botId, hook.url, ["chat.created"]);
    hook.setSecret(ep.secret);
    const sent = await owner.client.rpc("send_test_webhook", { endpoint_id: ep.id });
    assert.equal(sent.error, null);
    const t0 = new Date(Date.now() + 3600_000);
    await holdUntil(ep.id, t0);

    const delays = [30, 120, 600, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600];
    let now = t0;
    for (let attempt = 1; attempt <= 9; attempt++) {
      const early = await tick("deliver", new Date(now.getTime() - 1000));
      assert.equal(early.claimed, 0, `attempt ${attempt} waits for its time`);
      const r = await tick("deliver", now);
      assert.equal(r.claimed, 1, `attempt ${attempt} is made`);
      const [d] = await deliveries(ep.id);
      assert.equal(d.attempt, attempt);
      assert.equal(d.response_status, 503);
      if (attempt < 9) {
        assert.equal(d.status, "pending");
        assert.equal((d.next_attempt_at.getTime() - now.getTime()) / 1000, delays[attempt - 1], `retry ${attempt} backs off`);
        now = d.next_attempt_at;
      } else {
        assert.equal(d.status, "failed");
        assert.deepEqual(r.disabled, [ep.id], "the last failure disables the endpoint");
      }
    }
    assert.equal(hook.requests, 9, "nine attempts in all");
    assert.ok((now.getTime() - t0.getTime()) / 3600_000 > 20, "over about a day");
    const endpoint = await owner.client.from("webhook_endpoints").select("enabled, disabled_reason, failure_count").eq("id", ep.id).single();
    assert.equal(endpoint.data?.enabled, false);
    assert.match(String(endpoint.data?.disabled_reason), /9 failed attempts/);
    assert.equal(endpoint.data?.failure_count, 9);

    // the owner is told by e-mail (through the stack's dev mailbox, its SMTP door)
    const email = owner.user.email!;
    let mails: unknown[] = [];
    for (let i = 0; i < 50 && mails.length === 0; i++) {
      if (i) await new Promise((r) => setTimeout(r, 100));
      mails = await (await fetch(`${stack.mailboxUrl}/api/messages?to=${encodeURIComponent(email)}`)).json();
    }
    assert.equal(mails.length, 1, "one mail reached the owner");
    const mail = decodeURIComponent(JSON.stringify(mails));
    assert.ok(mail.includes(hook.url), "the mail names the endpoint");
    assert.ok(mail.includes(`/app/bots/${botId}/webhooks`), "the mail links to the bot's webhooks");

    // the owner fixes the receiver, enables the endpoint and redelivers what failed
    failing = false;
    assert.equal((await owner.client.from("webhook_endpoints").update({ enabled: true }).eq("id", ep.id)).error, null);
    const again = await owner.client.rpc("redeliver_failed_webhooks", { endpoint_id: ep.id });
    assert.equal(again.data, 1);
    await tick("deliver");
    const [d] = await deliveries(ep.id);
    assert.equal(d.status, "succeeded");
    assert.equal(hook.received.length, 1);
    assert.equal(hook.received[0].id, d.event_id, "the redelivered event keeps its id");
    assert.equal(hook.received[0].body.type, "webhook.test");
  } finally {
    await hook.close();
  }
});

Deno.test("a later event waits while an earlier one to the same endpoint is retried", async () => {
  const hook = receiver((n) => (n === 1 ? 500 : 200));
  try {
    const { botId, owner } = await createBot();
    const ep = await createEndpoint(owner.client, botId, hook.url, ["chat.created"]);
    hook.setSecret(ep.secret);
    const admin = serviceClient();
    for (const title of ["first", "second"]) {
      const c = await admin.from("chats").insert({ bot_id: botId, user_id: owner.user.id, title });
      if (c.error) throw c.error;
    }
    const t0 = new Date(Date.now() + 3600_000);
    await holdUntil(ep.id, t0);
    await tick("deliver", t0); // first fails
    const r = await tick("deliver", new Date(t0.getTime() + 10_000));
    assert.equal(r.claimed, 0, "the second event is not sent past the first");
    await tick("deliver", new Date(t0.getTime() + 31_000));
    assert.deepEqual(hook.received.map((x) => (x.body.data as { chat: { title: string } }).chat.title), ["first", "second"]);
  } finally {
    await hook.close();
  }
});

Deno.test("an endpoint on a metadata address is never called", async () => {
  const { botId, owner } = await createBot();
  const ep = await createEndpoint(owner.client, botId, "http://169.254.169.254/latest/meta-data", ["chat.created"]);
  assert.equal((await owner.client.rpc("send_test_webhook", { endpoint_id: ep.id })).error, null);
  const t0 = new Date(Date.now() + 3600_000);
  await holdUntil(ep.id, t0);
  await tick("deliver", t0);
  const [d] = await deliveries(ep.id);
  assert.equal(d.status, "pending");
  assert.match(String(d.error), /^blocked_address/);
});

Deno.test("only the scheduler may tick, with a valid body; strangers cannot queue or read", async () => {
  const { botId, owner } = await createBot();
  const ep = await createEndpoint(owner.client, botId, "https://hooks.example.com/x", ["chat.created"]);
  const asUser = await callFunction("deliver", { method: "POST", path: "/tick", token: owner.token, body: "{}" });
  assert.equal(asUser.status, 403);
  assert.equal(((await asUser.json()) as { error: { code: string } }).error.code, "forbidden");
  const bad = await callFunction("deliver", { method: "POST", path: "/tick", token: stack.serviceRoleKey, body: '{"now": "yesterday"}' });
  assert.equal(bad.status, 400);
  assert.equal(((await bad.json()) as { error: { code: string } }).error.code, "invalid_request");
  const other = await createBot();
  const refused = await other.owner.client.rpc("send_test_webhook", { endpoint_id: ep.id });
  assert.equal(refused.error?.code, "PT404");
  const secret = await other.owner.client.rpc("get_webhook_secret", { endpoint_id: ep.id });
  assert.equal(secret.error?.code, "PT404");
});
