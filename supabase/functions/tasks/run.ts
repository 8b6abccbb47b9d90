// Running one claimed (or manual) task run by type, then ending it with its output. Output goes
// to e-mail (the task's recipients who are team members) here, and to webhooks through the
// task.completed event that finishing the run queues (the task's endpoint included).
import type { Db } from "../_shared/clients.ts";
import type { Json } from "../_shared/database.types.ts";
import { must } from "../_shared/db.ts";
import { collectAnswer, startAnswer } from "../_shared/engine/index.ts";
import { describe, type Logger } from "../_shared/log.ts";
import { escapeHtml, type Mail, type MailResult } from "../_shared/mail.ts";
import { type MailText, sendMailInLanguages } from "../_shared/mail-text.ts";
import { isMessagingType, sendChannelMessage } from "../_shared/channels/platforms.ts";
import { latestConversation, loadChannel } from "../_shared/channels/store.ts";
import { PlatformError } from "../_shared/channels/types.ts";
import { activeJob, createJob, runJob } from "../ingest/sync.ts";
import { processRun } from "../tests/runner.ts";
import { type Digest, digestMail, type TestOutput, testMail } from "./report.ts";

export interface TaskRow {
  id: string;
  bot_id: string;
  name: string;
  type: "digest" | "ask" | "sync" | "test";
  cron: string | null;
  timezone: string;
  every_hours: number | null;
  settings: Json;
  last_run_at: string | null;
}

export const TASK_COLUMNS = "id, bot_id, name, type, cron, timezone, every_hours, settings, last_run_at";

class TaskFailure extends Error {
  constructor(readonly code: string, message: string, readonly output: Record<string, unknown> = {}) {
    super(message);
  }
}

/** Channels whose conversations are one person each: a task must name who gets its answer. */
const DIRECT_MESSAGE_TYPES = new Set(["telegram", "whatsapp"]);

const settingsOf = (t: TaskRow) => (t.settings && typeof t.settings === "object" && !Array.isArray(t.settings) ? t.settings : {}) as Record<string, unknown>;

/**
 * Runs the task for `runId` (a running task_runs row) and finishes it; never throws for the task's
 * own failure. A test task's run is the exception: it stays running and its test run ends it
 * (private.test_run_finished), so the answer then says status "running".
 */
export async function runTask(service: Db, task: TaskRow, runId: string, at: Date, log: Logger, background: (p: Promise<unknown>) => void) {
  const t0 = performance.now();
  let ok = true;
  let output: Record<string, unknown> = {};
  let error: string | null = null;
  try {
    if (task.type === "digest") output = await digest(service, task, at);
    else if (task.type === "ask") output = await ask(service, task, log);
    else if (task.type === "sync") output = await sync(service, task, log, background);
    else output = await test(service, task, runId, log, background);
  } catch (e) {
    ok = false;
    if (e instanceof TaskFailure) {
      error = `${e.code}: ${e.message}`;
      output = e.output;
    } else {
      error = "internal_error";
      log.error("task_failed", { task_id: task.id, run_id: runId, error: describe(e) });
    }
  }
  if (ok && task.type === "test") {
    log.info("task_run", { task_id: task.id, run_id: runId, type: task.type, ok, waiting_for: output.test_run_id });
    return { ok, status: "running" as const, output, error };
  }
  // finished on the same clock the run started on (the tick's, which tests move)
  const finishedAt = new Date(at.getTime() + Math.round(performance.now() - t0));
  must(
    await service.rpc("finish_task_run", { run_id: runId, ok, output: output as Json, error: error ?? undefined, at_time: finishedAt.toISOString() }),
    "finish run",
  );
  log.info("task_run", { task_id: task.id, run_id: runId, type: task.type, ok, error });
  return { ok, status: ok ? "succeeded" as const : "failed" as const, output, error };
}

/** Mails the task's recipients who are team members, each in the language they read Parley in. */
async function mailRecipients(service: Db, task: TaskRow, build: (text: MailText) => Omit<Mail, "to">): Promise<MailResult> {
  const rows = must(await service.rpc("task_recipient_emails", { task_id: task.id }), "recipients");
  return await sendMailInLanguages(rows, build);
}

/** The period a digest covers: since the last run (or the task's period), up to now. */
function digestPeriodHours(task: TaskRow): number {
  const hours = Number(settingsOf(task).period_hours);
  if (Number.isFinite(hours) && hours >= 1 && hours <= 24 * 31) return hours;
  return task.every_hours ?? 24;
}


async function digest(service: Db, task: TaskRow, at: Date) {
  const since = new Date(at.getTime() - digestPeriodHours(task) * 3600_000);
  const d = must(await service.rpc("task_digest", { bot_id: task.bot_id, since: since.toISOString(), until: at.toISOString() }), "digest") as unknown as Digest;
  const emailed = await mailRecipients(service, task, (t) => digestMail(t, task.name, d));
  return { digest: d, emailed };
}

async function ask(service: Db, task: TaskRow, log: Logger) {
  const prompt = String(settingsOf(task).prompt ?? "").trim();
  if (!prompt) throw new TaskFailure("invalid_task", "The task has no prompt");
  // The answer is not a stored turn, so the chat's quota trigger never sees it: check it here,
  // before the model is called (docs/billing.md: tasks and tests stop when the messages are used up).
  if (must(await service.rpc("message_quota_reached", { bot_id: task.bot_id }), "message quota")) {
    throw new TaskFailure("quota_exceeded", "The team's messages for this month are used up", { prompt });
  }
  const answer = await collectAnswer(
    await startAnswer({ botId: task.bot_id, message: prompt, conversation: { kind: "ephemeral", purpose: "task" }, log }),
  );
  if (answer.error) throw new TaskFailure("answer_failed", answer.error.message, { prompt, answer: answer.content });
  const sources = answer.sources.map((s) => ({ title: s.title, url: s.url }));
  const sourceList = sources.map((s) => `- ${s.title}${s.url ? ` ${s.url}` : ""}`).join("\n");
  const text = `${prompt}\n\n${answer.content}\n\n${sourceList}`;
  const emailed = await mailRecipients(service, task, () => ({ subject: `Parley: ${task.name}`, text, html: `<pre>${escapeHtml(text)}</pre>` }));
  const output = { prompt, answer: answer.content, sources, emailed };
  const channelId = settingsOf(task).channel_id;
  if (typeof channelId !== "string" || !channelId) return output;
  return { ...output, posted: await postToChannel(service, task, channelId, `${answer.content}\n\n${sourceList}`.trim(), output) };
}

/** Posts an ask task's answer to the bot's messaging channel the task names (settings.channel_id). */
async function postToChannel(service: Db, task: TaskRow, channelId: string, text: string, output: Record<string, unknown>) {
  const channel = await loadChannel(service, channelId);
  if (!channel || channel.botId !== task.bot_id || !isMessagingType(channel.type)) {
    throw new TaskFailure("channel_not_found", "The task's channel no longer exists", output);
  }
  if (!channel.enabled || channel.status !== "connected") {
    throw new TaskFailure("channel_not_connected", `The channel "${channel.name}" is not connected`, output);
  }
  const named = settingsOf(task).channel_recipient;
  const recipient = typeof named === "string" && named.trim() ? named.trim() : null;
  const latest = await latestConversation(service, channel);
  let to = { recipient, ...latest };
  if (DIRECT_MESSAGE_TYPES.has(channel.type)) {
    // Telegram and WhatsApp talk to one person: never whoever wrote to the bot last.
    const target = recipient ?? channel.settings.test_recipient?.trim() ?? "";
    if (!target) {
      throw new TaskFailure(
        "no_recipient",
        `A ${channel.type} channel sends direct messages: name the task's recipient, or set the channel's test recipient`,
        output,
      );
    }
    // WhatsApp's 24-hour window is the recipient's own (when the latest conversation is theirs)
    const theirs = latest.conversationKey?.split(":").includes(target) ?? false;
    to = { recipient: target, conversationKey: null, lastInboundAt: theirs ? latest.lastInboundAt : null };
  }
  try {
    await sendChannelMessage(channel, text, to);
  } catch (e) {
    if (e instanceof PlatformError) throw new TaskFailure("channel_failed", `${channel.type}: ${e.message}`, output);
    throw e;
  }
  return { channel_id: channel.id, type: channel.type };
}

/** Starts a sync of each chosen source of the bot, as the ingest function's schedule does. */
async function sync(service: Db, task: TaskRow, log: Logger, background: (p: Promise<unknown>) => void) {
  const wanted = settingsOf(task).data_source_ids;
  const ids = Array.isArray(wanted) ? wanted.filter((x): x is string => typeof x === "string").slice(0, 50) : [];
  const sources = ids.length
    ? must(await service.from("data_sources").select("id, bot_id").eq("bot_id", task.bot_id).in("id", ids), "sources")
    : [];
  const started: { data_source_id: string; job_id: string }[] = [];
  const skipped: { data_source_id: string; reason: string }[] = ids
    .filter((id) => !sources.some((s) => s.id === id))
    .map((id) => ({ data_source_id: id, reason: "not_found" }));
  for (const source of sources) {
    if (await activeJob(service, source.id)) {
      skipped.push({ data_source_id: source.id, reason: "sync_in_progress" });
      continue;
    }
    const jobId = await createJob(service, source, "schedule", null);
    background(runJob(service, jobId, { log: log.with({ job_id: jobId }) }));
    started.push({ data_source_id: source.id, job_id: jobId });
  }
  if (started.length === 0 && skipped.length > 0) throw new TaskFailure("nothing_synced", "No data source could be synced", { started, skipped });
  return { started, skipped };
}

/**
 * Queues a test run of the bot for this task run (or joins the one already queued or running)
 * and runs it in the background right away; its end ends the task run (SQL trigger) with the
 * result and regressions, and then the recipients get them by e-mail.
 */
async function test(service: Db, task: TaskRow, runId: string, log: Logger, background: (p: Promise<unknown>) => void) {
  const r = await service.rpc("start_task_test_run", { bot_id: task.bot_id, task_run_id: runId });
  if (r.error) {
    if (r.error.hint === "no_test_cases") throw new TaskFailure("no_test_cases", "The bot has no test cases");
    if (r.error.hint === "run_in_progress") throw new TaskFailure("run_in_progress", "Another task is waiting for the bot's test run");
    throw new Error(`start test run: ${r.error.code} ${r.error.message}`);
  }
  const testRunId = r.data as string;
  background((async () => {
    // false: the tests tick took it first, or it was already running; its end still ends this run
    if (await processRun(service, testRunId, log.with({ test_run_id: testRunId }))) await mailTestResult(service, task, runId);
  })());
  return { test_run_id: testRunId };
}


async function mailTestResult(service: Db, task: TaskRow, runId: string) {
  const run = must(await service.from("task_runs").select("status, output, error").eq("id", runId).single(), "task run");
  if (run.status === "running") return; // timed out meanwhile: nothing to report
  const o = run.output as unknown as TestOutput;
  const emailed = await mailRecipients(service, task, (t) => testMail(t, task.name, o, run.error));
  must(await service.from("task_runs").update({ output: { ...o, emailed } as unknown as { [key: string]: Json } }).eq("id", runId), "record mail");
}
