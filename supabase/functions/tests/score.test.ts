// Unit tests (no stack): the scores and the pass rule, the judge's reply, CSV in and out, model suggestions, the regression mail.
import assert from "node:assert/strict";
import { MAIL_LANGUAGES } from "../_shared/mail-text.ts";
import { regressionMail } from "./regression-mail.ts";
import { parseSuggestion } from "./suggest.ts";
import { formatCases, parseCases } from "./csv.ts";
import { parseGrade } from "./judge.ts";
import { answeredScore, cosine, DEFAULT_RULES, explainReason, foundNothing, judgeScore, passes, phraseScore, similarityScore, sourceScore } from "./score.ts";

const source = (url: string, title = "Doc") => ({ chunk_id: "c", document_id: "d", title, url, excerpt: "" });
const base = { expected_answer: "", required_phrases: [] as string[], forbidden_phrases: [] as string[], expected_sources: [] as string[] };

Deno.test("source: an expected source must be among the first top_k, matched by URL, path ending or title", () => {
  const sources = [1, 2, 3, 4, 5, 6].map((i) => source(`https://docs.test/p${i}/`, `Page ${i}`));
  const rules = { ...DEFAULT_RULES, top_k: 5 };
  assert.equal(sourceScore(base, sources, rules), null, "no expected source: no score");
  assert.equal(sourceScore({ ...base, expected_sources: ["https://docs.test/p2"] }, sources, rules)!.passed, true);
  assert.equal(sourceScore({ ...base, expected_sources: ["/p3"] }, sources, rules)!.passed, true);
  assert.equal(sourceScore({ ...base, expected_sources: ["page 4"] }, sources, rules)!.passed, true);
  const late = sourceScore({ ...base, expected_sources: ["https://docs.test/p6"] }, sources, rules)!;
  assert.equal(late.passed, false);
  assert.match(late.explanation, /Not in the top 5/);
  assert.deepEqual(late.reasons, [{ code: "source.missing", params: { k: 5, missing: ["https://docs.test/p6"] } }]);
  assert.deepEqual(sourceScore({ ...base, expected_sources: ["/p3", "page 1"] }, sources, rules)!.reasons, [{ code: "source.found", params: { k: 5, positions: [3, 1] } }]);
  assert.equal(sourceScore({ ...base, expected_sources: ["x"] }, sources, { ...rules, require_source: false })!.applies, false);
});

Deno.test("phrases: required present and forbidden absent, case- and space-insensitive", () => {
  const s = phraseScore({ ...base, required_phrases: ["Reset  Password", "one hour"], forbidden_phrases: ["call us"] }, "Click reset password. Call us!")!;
  assert.equal(s.passed, false);
  assert.equal(s.score, 1 / 3);
  assert.match(s.explanation, /Missing required phrase: one hour\./);
  assert.match(s.explanation, /Forbidden phrase present: call us\./);
  assert.deepEqual(s.reasons, [
    { code: "phrases.missing", params: { phrases: ["one hour"] } },
    { code: "phrases.forbidden", params: { phrases: ["call us"] } },
  ]);
  const good = phraseScore({ ...base, required_phrases: ["50"], forbidden_phrases: ["never"] }, "Up to 50 tags.")!;
  assert.deepEqual(good.reasons!.map((r) => r.code), ["phrases.allPresent", "phrases.noForbidden"]);
  assert.equal(good.explanation, "All 1 required phrases present. No forbidden phrase.");
  assert.equal(phraseScore(base, "x"), null);
});

Deno.test("similarity, answered, judge and the pass rule", () => {
  assert.equal(similarityScore(base, 0.9, DEFAULT_RULES), null, "no expected answer: no score");
  assert.equal(similarityScore({ ...base, expected_answer: "x" }, 0.25, DEFAULT_RULES)!.passed, false);
  assert.ok(foundNothing("I couldn't find anything about that in my knowledge base. Could you rephrase your question?", []));
  assert.ok(foundNothing("Dazu habe ich in meiner Wissensdatenbank leider nichts gefunden.", []));
  assert.ok(!foundNothing("Here is what I found: open Settings. [1]", [source("u")]));
  assert.equal(answeredScore("", [], { ...DEFAULT_RULES, require_answer: false }).applies, false);
  const failedJudge = judgeScore({ error: "timeout" }, DEFAULT_RULES)!;
  assert.equal(failedJudge.applies, false, "a judge that failed does not decide");
  assert.equal(judgeScore({ score: 0.7, reasoning: "ok" }, DEFAULT_RULES)!.passed, true);
  assert.equal(passes([failedJudge, answeredScore("Yes. [1]", [source("u")], DEFAULT_RULES)], null), true);
  assert.equal(passes([], "provider_timeout: slow"), false, "an error fails the case");
});

Deno.test("every score says why as codes with parameters, and the English explanation is written from them", () => {
  const sim = similarityScore({ ...base, expected_answer: "x" }, 0.256, DEFAULT_RULES, "embedding")!;
  assert.deepEqual(sim.reasons, [{ code: "similarity.embedding", params: { score: 0.26, min: 0.3 } }]);
  assert.equal(sim.explanation, "Embedding similarity to the expected answer is 0.26 (at least 0.30 passes).");
  const nothing = answeredScore("", [], DEFAULT_RULES);
  assert.deepEqual(nothing.reasons, [{ code: "answered.nothing", params: {} }]);
  assert.equal(nothing.explanation, "The bot said it found nothing.");
  assert.deepEqual(answeredScore("Yes. [1]", [source("u"), source("v")], DEFAULT_RULES).reasons, [{ code: "answered.yes", params: { sources: 2 } }]);
  assert.equal(answeredScore("Yes. [1]", [source("u")], DEFAULT_RULES).explanation, "The bot answered with 1 source.");
  const judged = judgeScore({ score: 0.72, reasoning: "Close." }, DEFAULT_RULES)!;
  assert.deepEqual(judged.reasons, [{ code: "judge.graded", params: { score: 0.72, min: 0.6 } }]);
  assert.deepEqual(judgeScore({ error: "timeout" }, DEFAULT_RULES)!.reasons, [{ code: "judge.error", params: { error: "timeout" } }]);
  assert.equal(explainReason({ code: "source.found", params: { k: 5, positions: [1, 4] } }), "Expected sources in the top 5 (position 1, 4).");
  // Reasons are plain JSON: stored in test_results.scores and read back unchanged.
  for (const s of [sim, nothing, judged]) assert.deepEqual(JSON.parse(JSON.stringify(s.reasons)), s.reasons);
});

Deno.test("the judge's reply: JSON in text or a code fence, a 0..10 scale, garbage refused", () => {
  assert.deepEqual(parseGrade('Sure: ```json\n{"score": 0.8, "reasoning": "Same."}\n```'), { score: 0.8, reasoning: "Same." });
  assert.deepEqual(parseGrade('{"score": 7, "reasoning": ""}'), { score: 0.7, reasoning: "" });
  assert.ok("error" in parseGrade("no idea"));
  assert.ok("error" in parseGrade('{"score": "high"}'));
});

Deno.test("CSV: rows checked one by one, lists and history parsed, export round-trips and defuses formulas", () => {
  const { rows, errors } = parseCases(
    'Question,Tags,history,language\n"A, B?",x | y,,de\n,t,,\nC?,,not json,\nD?,,,xx\n',
    "en",
  );
  assert.deepEqual(rows.map((r) => [r.question, r.tags, r.language]), [["A, B?", ["x", "y"], "de"]]);
  assert.deepEqual(errors.map((e) => e.row), [3, 4, 5]);
  const csv = formatCases([{ ...rows[0]!, question: "=1+1", history: [{ role: "user", content: "Hi" }] }]);
  const back = parseCases(csv, "en");
  assert.equal(back.rows[0]!.question, "'=1+1");
  assert.deepEqual(back.rows[0]!.history, [{ role: "user", content: "Hi" }]);
});

Deno.test("cosine: same direction 1, orthogonal 0, opposite clamped to 0, empty 0", () => {
  assert.equal(cosine([1, 2, 3], [2, 4, 6]), 1);
  assert.equal(cosine([1, 0], [0, 1]), 0);
  assert.equal(cosine([1, 0], [-1, 0]), 0);
  assert.equal(cosine([0, 0], [1, 0]), 0);
  assert.ok(Math.abs(cosine([1, 1], [1, 0]) - Math.SQRT1_2) < 1e-9);
});

Deno.test("parseSuggestion: the model's question and answer, a skip or anything unusable is null", () => {
  assert.deepEqual(parseSuggestion('```json\n{"question": " How long? ", "answer": "One hour."}\n```'), { question: "How long?", answer: "One hour." });
  assert.equal(parseSuggestion('{"skip": true}'), null);
  assert.equal(parseSuggestion('{"question": "Why?", "answer": "x"}'), null, "too short a question");
  assert.equal(parseSuggestion('{"question": "How long is it?"}'), null, "no answer");
  assert.equal(parseSuggestion("I cannot"), null);
  assert.equal(parseSuggestion("{not json}"), null);
});

Deno.test("regression mail: every language has its words; the questions, the counts and the link", () => {
  const report = { bot: "Help", link: "https://parley.test/app/bots/b/tests/r?filter=new", total: 4, passed: 2, fixed: 1, regressions: 2, questions: ["<b>A?</b>", "B?"] };
  const subjects = new Set(MAIL_LANGUAGES.map((l) => regressionMail(l, report).subject));
  assert.equal(subjects.size, MAIL_LANGUAGES.length, "a subject of its own in each language");
  const en = regressionMail("en", report);
  assert.equal(en.subject, "Help: 2 test cases failing since the last run");
  assert.equal(en.text, [
    "The latest test run of Help fails 2 cases that passed in the run before.",
    "Passed: 2 of 4; fixed since the last run: 1.",
    "",
    "New failures:",
    "- <b>A?</b>",
    "- B?",
    "",
    "See what changed:",
    report.link,
  ].join("\n"));
  assert.ok(en.html!.includes("<li>&lt;b&gt;A?&lt;/b&gt;</li>"), "questions are escaped in HTML");
  assert.equal(regressionMail("xx", report).subject, en.subject, "an unknown language reads English");
  assert.match(regressionMail("jp", { ...report, regressions: 1 }).subject, /1 件/);
});
