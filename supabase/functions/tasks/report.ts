// What a digest and a test task's result say by e-mail, in the reader's language (the data as
// stored: questions, comments and lead fields are the visitors' own words).
import { escapeHtml, type Mail } from "../_shared/mail.ts";
import type { MailText } from "../_shared/mail-text.ts";

export interface Digest {
  since: string;
  until: string;
  counts: { chats: number; questions: number; answers: number; feedback_up: number; feedback_down: number; leads: number };
  top_questions: { question: string; count: number }[];
  unanswered_questions: { question: string; chat_id: string; at: string }[];
  negative_feedback: { comment: string | null; answer: string; chat_id: string; at: string }[];
  leads: { id: string; chat_id: string | null; fields: Record<string, string>; at: string }[];
}

export interface TestOutput {
  test_run_id: string;
  test_run: { status: "succeeded" | "failed" | "cancelled"; total: number; passed: number; failed: number; regression_count: number; fixed_count: number };
  regressions: { case_id: string; question: string }[];
}

const asMail = (subject: string, lines: string[]): Omit<Mail, "to"> => {
  const text = lines.join("\n");
  return { subject, text, html: `<pre>${escapeHtml(text)}</pre>` };
};

export function digestMail(t: MailText, task: string, d: Digest): Omit<Mail, "to"> {
  return asMail(t.digestSubject(task), [
    `${task}: ${d.since} – ${d.until}`,
    "",
    t.conversations(d.counts.chats, d.counts.questions, d.counts.answers),
    t.feedback(d.counts.feedback_up, d.counts.feedback_down),
    "",
    t.topQuestions,
    ...d.top_questions.map((q) => `  ${q.count} × ${q.question}`),
    "",
    t.unanswered,
    ...d.unanswered_questions.map((q) => `  - ${q.question}`),
    "",
    t.negativeFeedback,
    ...d.negative_feedback.map((f) => `  - ${f.comment ?? t.noComment} — ${t.on}: ${f.answer.slice(0, 200)}`),
    "",
    t.leads(d.counts.leads, d.leads.length),
    ...d.leads.map((l) => `  - ${Object.entries(l.fields).map(([k, v]) => `${k}: ${v}`).join(", ")}`),
  ]);
}

export function testMail(t: MailText, task: string, o: TestOutput, error: string | null): Omit<Mail, "to"> {
  return asMail(t.testSubject(task), [
    `${task}: ${t.testStatus[o.test_run.status] ?? o.test_run.status}${error ? ` (${error})` : ""}`,
    "",
    t.testCounts(o.test_run.total, o.test_run.passed, o.test_run.failed),
    t.regressions(o.test_run.regression_count, o.test_run.fixed_count),
    ...o.regressions.map((g) => `  - ${g.question}`),
  ]);
}
