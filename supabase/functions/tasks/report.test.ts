// Task mails in the reader's language: the digest and a test task's result (no stack needed).
import assert from "node:assert/strict";
import { MAIL_LANGUAGES, mailText } from "../_shared/mail-text.ts";
import { type Digest, digestMail, testMail } from "./report.ts";

const digest: Digest = {
  since: "2030-01-14T08:00:00.000Z",
  until: "2030-01-15T08:00:00.000Z",
  counts: { chats: 3, questions: 5, answers: 5, feedback_up: 2, feedback_down: 1, leads: 1 },
  top_questions: [{ question: "do you ship to mars?", count: 2 }],
  unanswered_questions: [{ question: "Do you ship to Mars?", chat_id: "c1", at: "2030-01-14T09:00:00Z" }],
  negative_feedback: [{ comment: null, answer: "I do not know.", chat_id: "c1", at: "2030-01-14T09:01:00Z" }],
  leads: [{ id: "l1", chat_id: "c1", fields: { name: "Ada", email: "ada@example.com" }, at: "2030-01-14T09:02:00Z" }],
};

Deno.test("a digest mail is written in the reader's language, with the visitors' own words as they are", () => {
  const de = digestMail(mailText("de"), "Morgens", digest);
  assert.equal(de.subject, "Parley-Zusammenfassung: Morgens");
  assert.match(de.text, /Gespräche: 3, Fragen: 5, Antworten: 5/);
  assert.match(de.text, /\(kein Kommentar\) — zu: I do not know\./);
  assert.match(de.text, /Leads: 1\n {2}- name: Ada, email: ada@example\.com/);
  assert.match(de.html!, /^<pre>/);
  const en = digestMail(mailText("en"), "Morning", { ...digest, counts: { ...digest.counts, leads: 30 } });
  assert.match(en.text, /Leads: 30 \(the latest 1\)/);
});

Deno.test("a test task's mail says the result and the regressed questions", () => {
  const mail = testMail(mailText("fr"), "Régressions", {
    test_run_id: "r1",
    test_run: { status: "succeeded", total: 4, passed: 3, failed: 1, regression_count: 1, fixed_count: 0 },
    regressions: [{ case_id: "k1", question: "Open on Sundays?" }],
  }, null);
  assert.equal(mail.subject, "Tests Parley : Régressions");
  assert.match(mail.text, /^Régressions: terminée\n/);
  assert.match(mail.text, /Cas : 4, réussis : 3, échoués : 1/);
  assert.match(mail.text, /: 1 ; corrigés : 0\n {2}- Open on Sundays\?$/);
});

Deno.test("every language has every text; an unknown language reads English", () => {
  const keys = Object.keys(mailText("en")).sort();
  for (const l of MAIL_LANGUAGES) assert.deepEqual(Object.keys(mailText(l)).sort(), keys, l);
  assert.equal(mailText("xx"), mailText("en"));
  assert.equal(mailText(null), mailText("en"));
  assert.notEqual(mailText("jp").endpointDisabledSubject, mailText("en").endpointDisabledSubject);
});
