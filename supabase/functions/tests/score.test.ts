// Unit tests (no stack): the scores and the pass rule, the judge's reply, CSV in and out.
import assert from "node:assert/strict";
import { formatCases, parseCases } from "./csv.ts";
import { parseGrade } from "./judge.ts";
import { answeredScore, DEFAULT_RULES, foundNothing, judgeScore, passes, phraseScore, similarityScore, sourceScore } from "./score.ts";

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
  assert.equal(sourceScore({ ...base, expected_sources: ["x"] }, sources, { ...rules, require_source: false })!.applies, false);
});

Deno.test("phrases: required present and forbidden absent, case- and space-insensitive", () => {
  const s = phraseScore({ ...base, required_phrases: ["Reset  Password", "one hour"], forbidden_phrases: ["call us"] }, "Click reset password. Call us!")!;
  assert.equal(s.passed, false);
  assert.equal(s.score, 1 / 3);
  assert.match(s.explanation, /Missing required phrase: one hour\./);
  assert.match(s.explanation, /Forbidden phrase present: call us\./);
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
