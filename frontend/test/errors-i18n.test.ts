// Server messages never reach the interface in English: every code the functions answer with,
// every ingest job code and every RAISE EXCEPTION of the migrations maps to a message that
// exists in all ten languages.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "@shared/contracts/errors.ts";
import { AppError, deliveryErrorMessage, disabledReasonMessage, ERROR_MESSAGE_IDS, errorMessage, jobErrorMessage, storedErrorCode, taskRunErrorMessage } from "../src/lib/errors";
import { LOCALE_CODES } from "../src/i18n/locales";

const dir = path.resolve(__dirname, "../src/i18n/messages");
const catalog = (code: string) => {
  const all: Record<string, string> = JSON.parse(fs.readFileSync(path.join(dir, `${code}.json`), "utf8"));
  for (const area of fs.readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    const file = path.join(dir, area.name, `${code}.json`);
    if (fs.existsSync(file)) Object.assign(all, JSON.parse(fs.readFileSync(file, "utf8")));
  }
  return all;
};

const migrations = path.resolve(__dirname, "../../supabase/migrations");
const raised = [
  ...new Set(
    fs.readdirSync(migrations).flatMap((f) => [...fs.readFileSync(path.join(migrations, f), "utf8").matchAll(/raise exception\s+'((?:[^']|'')*)'/gi)].map((m) => m[1]!.replace(/''/g, "'"))),
  ),
];

const functions = path.resolve(__dirname, "../../supabase/functions");
const codesIn = (file: string, pattern: RegExp) => [...new Set([...fs.readFileSync(file, "utf8").matchAll(pattern)].map((m) => m[1]!))];
// What the tasks function and the stale-run sweep store as task_runs.error, and what the deliver
// worker stores as webhook_deliveries.error (safe-fetch's codes, network_error, http_<status>).
const taskRunCodes = [
  ...codesIn(path.join(functions, "tasks/run.ts"), /new TaskFailure\("([a-z_]+)"/g),
  ...codesIn(path.join(functions, "tasks/run.ts"), /error = "([a-z_]+)"/g),
  ...codesIn(path.join(migrations, "20261123050100_tasks.sql"), /error = '([a-z_]+)'/g),
  // A test task's run ends with test_run_<status> of its test run (failed or cancelled).
  ...(fs.readFileSync(path.join(migrations, "20261127020000_webhook_events_more.sql"), "utf8").includes("format('test_run_%s: %s'") ? ["test_run_failed", "test_run_cancelled"] : []),
];
const deliveryCodes = [...codesIn(path.join(functions, "_shared/safe-fetch.ts"), /new SafeFetchError\(\s*"([a-z_]+)"/g), "network_error"];

describe("error messages in every language", () => {
  it("has every id the mapping can return in all ten catalogues", () => {
    for (const code of LOCALE_CODES) {
      const messages = catalog(code);
      for (const id of ERROR_MESSAGE_IDS) expect(messages[id], `${code}: ${id}`).toBeTruthy();
    }
  });

  it("maps every function error code to its own message, not the generic one", () => {
    for (const code of ERROR_CODES) expect(errorMessage(new AppError({ status: 400, code, message: "English text" })).id, code).not.toBe("error.generic");
  });

  it("maps every SQL exception of the migrations to a message", () => {
    expect(raised.length).toBeGreaterThan(30);
    for (const message of raised) {
      const { id } = errorMessage({ code: "P0001", message, details: null, hint: null });
      expect(id, message).not.toBe("error.generic");
    }
    expect(errorMessage({ code: "P0001", message: "A team must keep at least one owner: make another member owner first, or delete the team", hint: "last_owner" }).id).toBe("teams.error.lastOwner");
    expect(errorMessage({ code: "42501", message: "Only team owners can invite members" }).id).toBe("error.sql.onlyOwners");
    expect(errorMessage({ code: "42501", message: "The id of a bot cannot be changed" }).id).toBe("error.forbidden");
    // the task form and the webhooks page say which limit refused the save (20261201200000, 20261201200100)
    expect(errorMessage({ code: "22023", message: "A task runs at most every 15 minutes: …", hint: "task_too_frequent" }).id).toBe("error.task.tooFrequent");
    expect(errorMessage({ code: "22023", message: "A bot has at most 20 tasks: delete one first", hint: "too_many_tasks" }).id).toBe("error.task.tooMany");
    expect(errorMessage({ code: "22023", message: "A bot has at most 20 webhook endpoints: delete one first", hint: "too_many_endpoints" }).id).toBe("error.webhook.tooMany");
    expect(errorMessage({ code: "PT429", message: "Too many test events and redeliveries for this bot: …", hint: "rate_limited" }).id).toBe("error.rateLimited");
  });

  it("translates the ingest job's codes, HTTP statuses included", () => {
    for (const code of ["blocked_address", "dns_failed", "robots_disallowed", "unreadable_pdf", "no_transcript", "notion_not_found", "stalled", "redirected"]) expect(jobErrorMessage(code).id, code).not.toBe("error.generic");
    expect(jobErrorMessage("http_404")).toEqual({ id: "error.job.http", values: { status: 404 } });
  });

  it("falls back by status, never to the server's text", () => {
    expect(errorMessage(new TypeError("Failed to fetch")).id).toBe("error.network");
    expect(errorMessage(new AppError({ status: 502, code: "http_502", message: "Bad Gateway" })).id).toBe("error.internal");
    expect(errorMessage(new AppError({ status: 418, code: "teapot", message: "I'm a teapot" })).id).toBe("error.generic");
  });

  it("translates every error the tasks function stores on a run, with its own message", () => {
    expect(taskRunCodes).toEqual(expect.arrayContaining(["invalid_task", "answer_failed", "nothing_synced", "no_test_cases", "run_in_progress", "test_run_failed", "test_run_cancelled", "internal_error", "timed_out"]));
    for (const code of taskRunCodes) {
      const stored = code === "internal_error" || code === "timed_out" ? code : `${code}: Some English detail`;
      expect(taskRunErrorMessage(stored).id, code).not.toBe("error.generic");
      expect(storedErrorCode(stored)).toBe(code);
    }
    expect(taskRunErrorMessage("tests_unavailable: Tests are not available yet")).toEqual({ id: "error.task.testsUnavailable" });
    expect(taskRunErrorMessage("quota_exceeded: The team's messages for this month are used up")).toEqual({ id: "error.task.quotaExceeded" });
    expect(taskRunErrorMessage("no_recipient: A telegram channel sends direct messages: …")).toEqual({ id: "error.task.noRecipient" });
    expect(taskRunErrorMessage("something_new: English")).toEqual({ id: "error.generic" });
  });

  it("translates every error the deliver worker stores on a delivery", () => {
    expect(deliveryCodes).toEqual(expect.arrayContaining(["blocked_address", "dns_failed", "timeout", "too_many_redirects", "network_error"]));
    for (const code of deliveryCodes) expect(deliveryErrorMessage(`${code}: example.test said no`).id, code).not.toBe("error.generic");
    expect(deliveryErrorMessage("blocked_address: 10.0.0.1 resolves to 10.0.0.1 (private), which Parley does not fetch")).toEqual({ id: "error.delivery.blockedAddress" });
    expect(deliveryErrorMessage("http_502")).toEqual({ id: "error.delivery.http", values: { status: 502 } });
    expect(storedErrorCode("http_502")).toBe("http_502");
    expect(deliveryErrorMessage("Connection reset by peer")).toEqual({ id: "error.generic" });
    expect(storedErrorCode("Connection reset by peer")).toBe("");
  });

  it("reads an endpoint's disabled_reason as written by complete_webhook_delivery", () => {
    const sql = fs.readFileSync(path.join(migrations, "20261123050000_webhooks.sql"), "utf8");
    const format = /disabled_reason = format\('([^']*)'/.exec(sql)![1]!;
    const written = (attempts: number, last: string) => format.replace("%s", String(attempts)).replace("%s", last);
    expect(disabledReasonMessage(written(9, "timeout: No complete answer from example.test in time"))).toEqual({
      id: "error.delivery.disabled", attempts: 9, last: { id: "error.delivery.timeout" }, code: "timeout",
    });
    expect(disabledReasonMessage(written(9, "http_503"))).toMatchObject({ attempts: 9, last: { id: "error.delivery.http", values: { status: 503 } }, code: "http_503" });
    expect(disabledReasonMessage(written(12, "HTTP 500"))).toMatchObject({ attempts: 12, last: { id: "error.delivery.http", values: { status: 500 } }, code: "http_500" });
    expect(disabledReasonMessage("Turned off by an operator")).toEqual({ id: "error.delivery.disabledUnknown", attempts: 0, last: { id: "error.generic" }, code: "" });
  });
});
