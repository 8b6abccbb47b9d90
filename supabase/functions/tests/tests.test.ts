// The `tests` function end to end against the real stack: runs with the extractive default and
// with a model provider on a local fake server (the judge included), regression detection across
// two runs after a data source changes (the sync trigger queues the run, /tick processes it,
// the owners get a mail), cancel, suggestions, CSV import and export, and refusals.
import assert from "node:assert/strict";
import { callFunction, mailsTo, serviceClient, stack } from "../_shared/testing.ts";
import type { TestScore } from "../_shared/contracts/tests.ts";
import { startRoutedFakeProvider } from "../_shared/providers/fake-servers.ts";
import { createBot, seededPlatformAdmin, setProviderKey, signedInUser } from "../chat/test-helpers.ts";
import { JUDGE_MARKER } from "./judge.ts";

const knowledge = [
  {
    title: "Passwords",
    heading: "Account > Passwords",
    content: "To reset your password, open Settings, choose Security and click Reset password. The link works for one hour.",
    url: "https://docs.example.test/passwords",
  },
  {
    title: "Billing",
    heading: "Billing > Invoices",
    content: "Invoices are sent on the first day of each month. You can download past invoices from the Billing page.",
    url: "https://docs.example.test/billing",
  },
];

async function call(token: string, path: string, init: RequestInit = {}) {
  const res = await callFunction("tests", { method: "POST", token, path, ...init });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch { /* CSV */ }
  return { status: res.status, body, headers: res.headers };
}

async function addCases(botId: string, ownerId: string, cases: Record<string, unknown>[]) {
  const { data, error } = await serviceClient().from("test_cases").insert(cases.map((c) => ({
    bot_id: botId,
    created_by: ownerId,
    expected_answer: "",
    required_phrases: [],
    forbidden_phrases: [],
    expected_sources: [],
    ...c,
  })))
    .select("id, question");
  if (error) throw error;
  return data as { id: string; question: string }[];
}

async function waitForRun(runId: string, done = (r: any) => ["succeeded", "failed", "cancelled"].includes(r.status)) {
  for (let i = 0; i < 300; i++) {
    const { data } = await serviceClient().from("test_runs").select("*").eq("id", runId).single();
    if (data && done(data)) return data;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`run ${runId} did not finish`);
}

async function resultsOf(runId: string) {
  const { data, error } = await serviceClient().from("test_results").select("*").eq("run_id", runId);
  if (error) throw error;
  return data as { case_id: string; passed: boolean; answer: string; scores: TestScore[]; sources: unknown[]; error: string | null }[];
}

Deno.test("extractive default: a run answers every case through the engine, scores each and stores no chat", async () => {
  const { botId, owner } = await createBot({ chunks: knowledge });
  const cases = await addCases(botId, owner.user.id, [
    {
      question: "How do I reset my password?",
      expected_answer: "Open Settings, choose Security and click Reset password.",
      required_phrases: ["Reset password"],
      forbidden_phrases: ["call us"],
      expected_sources: ["https://docs.example.test/passwords"],
    },
    { question: "When are invoices sent?", required_phrases: ["first day"], expected_sources: ["Billing"] },
    { question: "Do you sell bicycles in Mongolia?", required_phrases: ["bicycle"] },
  ]);
  const chatsBefore = await serviceClient().from("chats").select("id", { count: "exact", head: true }).eq("bot_id", botId);

  const started = await call(owner.token, `/bots/${botId}/runs`);
  assert.equal(started.status, 202);
  const again = await call(owner.token, `/bots/${botId}/runs`);
  assert.ok(again.status === 409 || again.status === 202, "a second start while running is refused");
  if (again.status === 409) assert.equal(again.body.error.code, "run_in_progress");

  const run = await waitForRun(started.body.run_id);
  assert.equal(run.status, "succeeded");
  assert.equal(run.trigger, "manual");
  assert.equal(run.progress_total, 3);
  assert.equal(run.progress_done, 3);
  assert.equal(run.passed_count, 2);
  assert.equal(run.failed_count, 1);
  assert.equal(run.snapshot.provider, "extractive");
  assert.equal(run.snapshot.knowledge.chunks, 2);
  assert.ok(run.started_at && run.finished_at);

  const results = await resultsOf(run.id);
  const byCase = new Map(results.map((r) => [r.case_id, r]));
  const password = byCase.get(cases[0].id)!;
  assert.equal(password.passed, true);
  assert.match(password.answer, /Reset password/);
  assert.deepEqual(password.scores.map((s) => s.name).sort(), ["answered", "phrases", "similarity", "source"]);
  for (const s of password.scores) assert.ok(s.explanation.length > 10, `${s.name} is explained`);
  assert.match(password.scores.find((s) => s.name === "source")!.explanation, /position 1/);
  // Stored with its reasons as codes and parameters, for the app to say in the reader's language.
  assert.deepEqual(password.scores.find((s) => s.name === "source")!.reasons, [{ code: "source.found", params: { k: 5, positions: [1] } }]);
  const similarity = password.scores.find((s) => s.name === "similarity")!;
  assert.ok(similarity.score > 0.3 && similarity.score <= 1, `similarity ${similarity.score}`);
  assert.equal(byCase.get(cases[1].id)!.passed, true, "an expected source may be named by its title");
  const nothing = byCase.get(cases[2].id)!;
  assert.equal(nothing.passed, false);
  const answered = nothing.scores.find((s) => s.name === "answered")!;
  assert.equal(answered.passed, false);
  assert.equal(answered.explanation, "The bot said it found nothing.");
  assert.deepEqual(answered.reasons, [{ code: "answered.nothing", params: {} }]);

  const chatsAfter = await serviceClient().from("chats").select("id", { count: "exact", head: true }).eq("bot_id", botId);
  assert.equal(chatsAfter.count, chatsBefore.count, "ephemeral answers store no chat");
});

Deno.test("model provider: the judge grades each answer against the expected one with its reasoning", async () => {
  const server = startRoutedFakeProvider(
    "openai",
    [{ kind: "stream", tokens: ["Open Settings, ", "then Security [1]."] }],
    [
      { kind: "stream", tokens: ['{"score": 0.9, "reasoning": "Same steps as expected."}'] },
      { kind: "stream", tokens: ["```json\n", '{"score": 0.2, "reasoning": "It talks about passwords, not invoices."}', "\n```"] },
    ],
    (body) => String(body.messages?.[0]?.content ?? "").startsWith(JUDGE_MARKER),
  );
  try {
    const { botId, teamId, owner } = await createBot({ provider: "openai_compatible", model: "llama-test", chunks: knowledge });
    await setProviderKey(teamId, "openai_compatible", server.baseUrl);
    await serviceClient().from("bot_test_settings").insert({ bot_id: botId, require_source: false, min_similarity: 0 });
    const cases = await addCases(botId, owner.user.id, [
      { question: "How do I reset my password?", expected_answer: "Open Settings and choose Security." },
    ]);
    await addCases(botId, owner.user.id, [
      { question: "When are invoices sent?", expected_answer: "On the first day of each month." },
    ]);
    const started = await call(owner.token, `/bots/${botId}/runs`);
    assert.equal(started.status, 202);
    const run = await waitForRun(started.body.run_id);
    assert.equal(run.status, "succeeded");
    assert.equal(run.snapshot.provider, "openai_compatible");
    assert.equal(run.snapshot.model, "llama-test");
    const results = await resultsOf(run.id);
    const judged = results.map((r) => r.scores.find((s) => s.name === "judge")!);
    assert.ok(judged.every(Boolean), "every case with an expected answer is judged");
    const grades = judged.map((j) => j.score).sort();
    assert.deepEqual(grades, [0.2, 0.9]);
    const low = results.find((r) => r.scores.some((s) => s.name === "judge" && s.score === 0.2))!;
    assert.equal(low.passed, false, "a low grade fails the case");
    assert.equal(low.scores.find((s) => s.name === "judge")!.reasoning, "It talks about passwords, not invoices.");
    const high = results.find((r) => r.scores.some((s) => s.name === "judge" && s.score === 0.9))!;
    assert.equal(high.passed, true);
    assert.ok(cases[0].id);
    const judgeRequests = server.second.received;
    assert.equal(judgeRequests.length, 2);
    assert.match(judgeRequests[0].body.messages[1].content, /Expected answer:\n/);
    assert.equal(server.first.received.length, 2, "each case was answered once by the bot's model");
  } finally {
    await server.close();
  }
});

Deno.test("regression: after a data source changes, the sync queues a run, /tick runs it, the chosen recipients are told in their languages", async () => {
  const { botId, teamId, owner } = await createBot({});
  const email = owner.user.email!;
  const service = serviceClient();
  // The owner reads Parley in French, an admin in German, a second admin is not chosen, and an
  // extra address without an account reads the bot's language (English).
  must(await service.from("profiles").update({ preferred_language: "fr" }).eq("id", owner.user.id));
  const admin = await signedInUser();
  const otherAdmin = await signedInUser();
  must(await service.from("team_members").insert([
    { team_id: teamId, user_id: admin.user.id, role: "admin" },
    { team_id: teamId, user_id: otherAdmin.user.id, role: "admin" },
  ]));
  must(await service.from("profiles").update({ preferred_language: "de" }).eq("id", admin.user.id));
  const extra = `support-${crypto.randomUUID()}@example.test`;
  must(await service.from("bot_test_settings").insert({
    bot_id: botId,
    run_after_sync: true,
    notify_owners: true,
    notify_member_ids: [admin.user.id],
    notify_emails: [` ${extra.toUpperCase()} `],
  }));
  await addCases(botId, owner.user.id, [
    { question: "How long does the reset link work?", required_phrases: ["one hour"] },
    { question: "When are invoices sent?", required_phrases: ["first day"] },
  ]);
  const { data: source } = await service.from("data_sources").insert({
    bot_id: botId,
    type: "text",
    name: "Help",
    settings: { title: "Help", text: "# Help\n\n## Passwords\n\nThe password reset link works for one hour.\n\n## Invoices\n\nInvoices are sent on the first day of each month." },
  }).select("id").single();

  const sync = async () => {
    const res = await callFunction("ingest", { method: "POST", token: owner.token, path: `/sources/${source!.id}/sync`, body: "{}" });
    assert.equal(res.status, 202, await res.clone().text());
    const { job_id } = await res.json();
    for (let i = 0; i < 300; i++) {
      const { data } = await service.from("ingestion_jobs").select("status").eq("id", job_id).single();
      if (data!.status === "succeeded") return;
      assert.notEqual(data!.status, "failed");
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error("sync did not finish");
  };
  const tick = async () => {
    const res = await callFunction("tests", { method: "POST", token: stack.serviceRoleKey, path: "/tick" });
    assert.equal(res.status, 200);
    return await res.json();
  };

  await sync();
  const first = await tick();
  assert.equal(first.processed.length >= 1, true);
  const { data: runs1 } = await service.from("test_runs").select("*").eq("bot_id", botId);
  assert.equal(runs1!.length, 1);
  assert.equal(runs1![0].trigger, "sync");
  assert.equal(runs1![0].passed_count, 2);
  assert.equal(runs1![0].regression_count, 0);

  // The help text loses the invoices section.
  must(await service.from("data_sources").update({
    settings: { title: "Help", text: "# Help\n\n## Passwords\n\nThe password reset link works for one hour." },
  }).eq("id", source!.id));
  await sync();
  const second = await tick();
  assert.equal(second.processed.length >= 1, true);
  const { data: runs2 } = await service.from("test_runs").select("*").eq("bot_id", botId).order("created_at");
  assert.equal(runs2!.length, 2);
  const latest = runs2![1];
  assert.equal(latest.previous_run_id, runs2![0].id);
  assert.equal(latest.regression_count, 1);
  const { data: invoices } = await service.from("test_cases").select("id").eq("bot_id", botId).eq("question", "When are invoices sent?").single();
  assert.deepEqual(latest.regressions, [invoices!.id]);
  assert.ok(latest.notified_at, "the recipients were mailed");
  const link = `/app/bots/${botId}/tests/${latest.id}?filter=new`;
  const [toOwner] = await mailsTo(email);
  assert.equal(toOwner.subject, "Test Bot : 1 cas de test échoue depuis la dernière exécution");
  assert.match(toOwner.text, /Nouveaux échecs :\n- When are invoices sent\?/);
  assert.ok(toOwner.text.includes(link), "the mail links to the run's new failures");
  const [toAdmin] = await mailsTo(admin.user.email!);
  assert.equal(toAdmin.subject, "Test Bot: 1 Testfall schlägt seit dem letzten Lauf fehl");
  assert.match(toAdmin.text, /Bestanden: 1 von 2/);
  const [toExtra] = await mailsTo(extra);
  assert.equal(toExtra.subject, "Test Bot: 1 test case failing since the last run");
  assert.ok(toExtra.html.includes(link));
  assert.deepEqual(await mailsTo(otherAdmin.user.email!), [], "an admin nobody chose is not mailed");
});

Deno.test("cancel, suggestions, CSV import and export, and refusals", async () => {
  const { botId, owner } = await createBot({ chunks: knowledge });
  const stranger = await signedInUser();

  // refusals
  assert.equal((await call(owner.token, `/bots/${botId}/runs`)).body.error.code, "no_test_cases");
  assert.equal((await call(stranger.token, `/bots/${botId}/runs`)).status, 404);
  assert.equal((await call(stack.anonKey, `/bots/${botId}/runs`)).status, 404);
  assert.equal((await call(owner.token, `/bots/not-a-uuid/runs`)).status, 404);
  assert.equal((await call(owner.token, "/tick")).status, 403);
  assert.equal((await call(owner.token, `/bots/${botId}/runs`, { method: "GET" })).status, 405);

  // suggestions from headings and titles
  const suggested = await call(owner.token, `/bots/${botId}/suggestions`);
  assert.equal(suggested.status, 200);
  assert.equal(suggested.body.created, 2);
  const { data: suggestions } = await owner.client.from("test_cases").select("question, status, expected_sources").eq("bot_id", botId);
  assert.deepEqual(suggestions!.map((s) => s.question).sort(), ["What can you tell me about Invoices?", "What can you tell me about Passwords?"]);
  assert.ok(suggestions!.every((s) => s.status === "suggested" && s.expected_sources.length === 1));
  assert.equal((await call(owner.token, `/bots/${botId}/suggestions`)).body.created, 0, "no suggestion twice");

  // import
  const csv = 'question,expected_answer,required_phrases,tags,history\n' +
    '"How do I reset my password?","Open Settings, then Security.",Reset password | Settings,account,\n' +
    ',missing question,,,\n' +
    'When are invoices sent?,,first day,billing | monthly,"[{""role"":""user"",""content"":""Hi""}]"\n';
  const imported = await call(owner.token, `/bots/${botId}/import`, { body: csv, headers: { "content-type": "text/csv" } });
  assert.equal(imported.status, 200);
  assert.equal(imported.body.created, 2);
  assert.equal(imported.body.errors.length, 1);
  assert.equal(imported.body.errors[0].row, 3);
  assert.equal((await call(stranger.token, `/bots/${botId}/import`, { body: csv })).status, 404);
  assert.equal((await call(owner.token, `/bots/${botId}/import`, { body: "nope\n1\n" })).body.error.code, "invalid_csv");

  // export: only active cases, lists joined, formulas defused
  await owner.client.from("test_cases").insert({ bot_id: botId, question: "=HYPERLINK(\"x\")" });
  const exported = await call(owner.token, `/bots/${botId}/export`, { method: "GET" });
  assert.equal(exported.status, 200);
  assert.match(exported.headers.get("content-type")!, /text\/csv/);
  const lines = String(exported.body).trim().split("\r\n");
  assert.equal(lines[0], "question,expected_answer,required_phrases,forbidden_phrases,expected_sources,tags,language,history");
  assert.equal(lines.length, 4);
  assert.ok(lines.includes('How do I reset my password?,"Open Settings, then Security.",Reset password | Settings,,,account,en,'));
  assert.ok(lines.some((l) => l.startsWith(`"'=HYPERLINK(""x"")"`)), "a formula is defused");

  // cancel a queued run (nobody took it yet)
  const { data: queued } = await serviceClient().from("test_runs").insert({ bot_id: botId }).select("id").single();
  assert.equal((await call(stranger.token, `/runs/${queued!.id}/cancel`)).status, 404);

  // The platform administrator reads the bot's cases and runs but starts, suggests, imports and cancels nothing.
  const platform = await seededPlatformAdmin();
  assert.equal((await platform.client.from("test_runs").select("id").eq("id", queued!.id)).data?.length, 1);
  for (const path of [`/bots/${botId}/runs`, `/bots/${botId}/suggestions`, `/bots/${botId}/import`, `/runs/${queued!.id}/cancel`]) {
    const refused = await call(platform.token, path, path.endsWith("/import") ? { body: csv, headers: { "content-type": "text/csv" } } : {});
    assert.equal(refused.status, 404, `${path} as the platform administrator`);
    assert.equal(refused.body.error.code, "not_found");
  }
  const { data: stillQueued } = await serviceClient().from("test_runs").select("status, cancel_requested").eq("id", queued!.id).single();
  assert.deepEqual(stillQueued, { status: "queued", cancel_requested: false });
  const { count: caseCount } = await serviceClient().from("test_cases").select("id", { count: "exact", head: true }).eq("bot_id", botId);
  assert.equal(caseCount, 5, "the refused suggestions and import added no case");
  const cancelled = await call(owner.token, `/runs/${queued!.id}/cancel`);
  assert.equal(cancelled.status, 200);
  assert.equal(cancelled.body.status, "cancelled");
  // cancel a running one: it stops before the next case
  const started = await call(owner.token, `/bots/${botId}/runs`);
  assert.equal(started.status, 202);
  const stop = await call(owner.token, `/runs/${started.body.run_id}/cancel`);
  assert.equal(stop.status, 200);
  const run = await waitForRun(started.body.run_id);
  assert.ok(["cancelled", "succeeded"].includes(run.status));
  if (run.status === "cancelled") assert.ok(run.progress_done < run.progress_total || run.progress_total === 0);
});

function must<T extends { error: unknown }>(r: T): T {
  if (r.error) throw r.error;
  return r;
}

Deno.test("similarity: with an embeddings provider the cosine of the answers' embeddings, trigram where embedding fails", async () => {
  // A fake OpenAI-compatible /v1/embeddings: texts about Settings point one way, about bicycles
  // another, the rest a third;
  // a batch mentioning invoices is refused (the runner falls back to trigram for that case).
  const inputs: string[][] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    const body = await req.json();
    inputs.push(body.input);
    if (new URL(req.url).pathname !== "/v1/embeddings") return new Response("no route", { status: 404 });
    if (body.input.some((t: string) => /invoices/i.test(t))) return Response.json({ error: { message: "down" } }, { status: 500 });
    const axis = (t: string) => (/settings/i.test(t) ? 0 : /bicycles/i.test(t) ? 1 : 2);
    const vector = (t: string) => Array.from({ length: 1536 }, (_, i) => (i === axis(t) ? 1 : 0));
    return Response.json({ object: "list", data: body.input.map((t: string, index: number) => ({ object: "embedding", index, embedding: vector(t) })) });
  });
  try {
    const { botId, teamId, owner } = await createBot({ chunks: knowledge });
    await setProviderKey(teamId, "openai_compatible", `http://127.0.0.1:${server.addr.port}/v1`, null);
    await serviceClient().from("bot_test_settings").insert({ bot_id: botId, require_source: false });
    const [same, other, invoices] = await addCases(botId, owner.user.id, [
      { question: "How do I reset my password?", expected_answer: "Open Settings and choose Security." },
      { question: "How do I change my password?", expected_answer: "Bicycles are sold in Ulaanbaatar." },
      { question: "When are invoices sent?", expected_answer: "Invoices are sent on the first day of each month." },
    ]);
    const started = await call(owner.token, `/bots/${botId}/runs`);
    const run = await waitForRun(started.body.run_id);
    assert.equal(run.status, "succeeded");
    assert.equal(run.snapshot.similarity, "embedding");
    assert.equal(run.snapshot.provider, "extractive", "the answers still come from the extractive default");
    const byCase = new Map((await resultsOf(run.id)).map((r) => [r.case_id, r]));
    const sim = (id: string) => byCase.get(id)!.scores.find((s) => s.name === "similarity")!;
    assert.deepEqual(sim(same.id).reasons, [{ code: "similarity.embedding", params: { score: 1, min: 0.3 } }]);
    assert.equal(sim(same.id).explanation, "Embedding similarity to the expected answer is 1.00 (at least 0.30 passes).");
    assert.equal(byCase.get(same.id)!.passed, true);
    assert.deepEqual(sim(other.id).reasons, [{ code: "similarity.embedding", params: { score: 0, min: 0.3 } }]);
    assert.equal(byCase.get(other.id)!.passed, false, "orthogonal embeddings fail the similarity");
    assert.equal(sim(invoices.id).reasons?.[0]?.code, "similarity.trigram", "a refused embedding falls back to trigram");
    assert.ok(sim(invoices.id).score > 0.3);
    // The expected answer and the bot's answer are embedded together, once per case (where
    // pgvector exists, retrieval also embeds each question alone).
    const pairs = inputs.filter((i) => i.length === 2);
    assert.equal(pairs.length, 3);
    const pair = pairs.find((i) => i[0] === "Open Settings and choose Security.")!;
    assert.match(pair[1], /Reset password/);
  } finally {
    await server.shutdown();
  }
});

Deno.test("suggestions with a model provider: questions the passages answer, written by the bot's model, in the bot's language", async () => {
  const server = startRoutedFakeProvider(
    "openai",
    [
      { kind: "stream", tokens: ['{"question": "Wie lange gilt der Link zum Zurücksetzen?", ', '"answer": "Eine Stunde."}'] },
      { kind: "stream", tokens: ['{"question": "Wie lange gilt der Link zum Zurücksetzen?", "answer": "Eine Stunde."}'] },
    ],
    [{ kind: "stream", tokens: ['{"skip": true}'] }],
    (body) => String(body.messages?.[1]?.content ?? "").includes("Invoices are sent"),
  );
  try {
    const { botId, teamId, owner } = await createBot({ provider: "openai_compatible", model: "llama-test", language: "de", chunks: knowledge });
    await setProviderKey(teamId, "openai_compatible", server.baseUrl);
    const first = await call(owner.token, `/bots/${botId}/suggestions`);
    assert.equal(first.status, 200);
    assert.deepEqual(first.body, { created: 1, method: "model" });
    const { data: cases } = await owner.client.from("test_cases").select("question, expected_answer, expected_sources, status, language, origin")
      .eq("bot_id", botId);
    assert.deepEqual(cases, [{
      question: "Wie lange gilt der Link zum Zurücksetzen?",
      expected_answer: "Eine Stunde.",
      expected_sources: ["https://docs.example.test/passwords"],
      status: "suggested",
      language: "de",
      origin: "suggestion",
    }]);
    // Each passage was read once, with the instruction to write in the bot's language.
    assert.equal(server.first.received.length, 1);
    assert.equal(server.second.received.length, 1, "the model skipped the invoices passage");
    const system = String(server.first.received[0].body.messages[0].content);
    assert.match(system, /^You write test questions/);
    assert.match(system, /Write both in German/);
    assert.match(server.first.received[0].body.messages[1].content, /Passage:\nTo reset your password/);

    // The model only repeats a question already asked: the headings give the suggestions instead.
    const second = await call(owner.token, `/bots/${botId}/suggestions`);
    assert.deepEqual(second.body, { created: 2, method: "headings" });
    const { data: all } = await owner.client.from("test_cases").select("question").eq("bot_id", botId).order("question");
    assert.deepEqual(all!.map((c) => c.question), [
      "Was können Sie mir über Invoices sagen?",
      "Was können Sie mir über Passwords sagen?",
      "Wie lange gilt der Link zum Zurücksetzen?",
    ]);
  } finally {
    await server.close();
  }
});
