// Scores of one answer against its test case, each with its reasons, and the pass rule.
// Pure functions: the similarity and the judge's grade are measured elsewhere and passed in.
// A reason is a code with parameters (the app says it in the reader's language); the English
// explanation stored beside it is written from the same reasons, for API readers and mails.
import type { ChatSource } from "../_shared/contracts/chat.ts";
import type { TestScore, TestScoreReason } from "../_shared/contracts/tests.ts";

export interface PassRules {
  top_k: number;
  require_answer: boolean;
  require_source: boolean;
  min_similarity: number;
  min_judge_score: number;
}

export const DEFAULT_RULES: PassRules = {
  top_k: 5,
  require_answer: true,
  require_source: true,
  min_similarity: 0.3,
  min_judge_score: 0.6,
};

export interface CaseToScore {
  expected_answer: string;
  required_phrases: string[];
  forbidden_phrases: string[];
  expected_sources: string[];
}

const plural = (n: number, one: string, other: string) => (n === 1 ? one : other);
const fixed2 = (n: number) => n.toFixed(2);

/** A reason in English. */
export function explainReason(r: TestScoreReason): string {
  switch (r.code) {
    case "source.found":
      return `Expected ${plural(r.params.positions.length, "source", "sources")} in the top ${r.params.k} (position ${r.params.positions.join(", ")}).`;
    case "source.missing":
      return `Not in the top ${r.params.k} sources: ${r.params.missing.join(", ")}.`;
    case "phrases.missing":
      return `Missing required ${plural(r.params.phrases.length, "phrase", "phrases")}: ${r.params.phrases.join(", ")}.`;
    case "phrases.allPresent":
      return `All ${r.params.count} required phrases present.`;
    case "phrases.forbidden":
      return `Forbidden ${plural(r.params.phrases.length, "phrase", "phrases")} present: ${r.params.phrases.join(", ")}.`;
    case "phrases.noForbidden":
      return "No forbidden phrase.";
    case "similarity.trigram":
    case "similarity.embedding":
      return `${r.code === "similarity.trigram" ? "Trigram" : "Embedding"} similarity to the expected answer is ${fixed2(r.params.score)} (at least ${fixed2(r.params.min)} passes).`;
    case "answered.nothing":
      return "The bot said it found nothing.";
    case "answered.yes":
      return `The bot answered${r.params.sources ? ` with ${r.params.sources} ${plural(r.params.sources, "source", "sources")}` : ""}.`;
    case "judge.error":
      return `The judge could not grade this answer: ${r.params.error}`;
    case "judge.graded":
      return `The judge graded the answer ${fixed2(r.params.score)} against the expected one (at least ${fixed2(r.params.min)} passes).`;
  }
}

/** A score's reasons and their English explanation. */
const explained = (...reasons: TestScoreReason[]) => ({ reasons, explanation: reasons.map(explainReason).join(" ") });

const norm = (s: string) => s.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();

/** Does a source match what the case expects (its URL, its URL's path, or its title)? */
function sourceMatches(source: ChatSource, expected: string): boolean {
  const want = norm(expected).replace(/\/+$/, "");
  if (!want) return false;
  const url = norm(source.url ?? "").replace(/\/+$/, "");
  return url === want || ((want.startsWith("/") || want.length > 3) && url.endsWith(want)) || norm(source.title) === want;
}

export function sourceScore(c: CaseToScore, sources: ChatSource[], rules: PassRules): TestScore | null {
  if (!c.expected_sources.length) return null;
  const positions = c.expected_sources.map((e) => sources.findIndex((s) => sourceMatches(s, e)));
  const inTop = positions.filter((p) => p >= 0 && p < rules.top_k).length;
  const missing = c.expected_sources.filter((_, i) => positions[i] < 0 || positions[i] >= rules.top_k);
  const passed = missing.length === 0;
  return {
    name: "source",
    applies: rules.require_source,
    passed,
    score: inTop / c.expected_sources.length,
    ...explained(passed
      ? { code: "source.found", params: { k: rules.top_k, positions: positions.map((p) => p + 1) } }
      : { code: "source.missing", params: { k: rules.top_k, missing } }),
  };
}

export function phraseScore(c: CaseToScore, answer: string): TestScore | null {
  if (!c.required_phrases.length && !c.forbidden_phrases.length) return null;
  const text = norm(answer);
  const missing = c.required_phrases.filter((p) => !text.includes(norm(p)));
  const present = c.forbidden_phrases.filter((p) => norm(p) && text.includes(norm(p)));
  const total = c.required_phrases.length + c.forbidden_phrases.length;
  const reasons: TestScoreReason[] = [];
  if (missing.length) reasons.push({ code: "phrases.missing", params: { phrases: missing } });
  else if (c.required_phrases.length) reasons.push({ code: "phrases.allPresent", params: { count: c.required_phrases.length } });
  if (present.length) reasons.push({ code: "phrases.forbidden", params: { phrases: present } });
  else if (c.forbidden_phrases.length) reasons.push({ code: "phrases.noForbidden", params: {} });
  return {
    name: "phrases",
    applies: true,
    passed: !missing.length && !present.length,
    score: (total - missing.length - present.length) / total,
    ...explained(...reasons),
  };
}

/** Cosine similarity of two vectors, clamped to 0..1 (opposite meanings are as far as unrelated ones). */
export function cosine(a: number[], b: number[]): number {
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  if (!na || !nb) return 0;
  return Math.max(0, Math.min(1, dot / Math.sqrt(na * nb)));
}

export function similarityScore(c: CaseToScore, similarity: number | null, rules: PassRules, method: "trigram" | "embedding" = "trigram"): TestScore | null {
  if (!c.expected_answer.trim() || similarity === null) return null;
  const score = Math.round(similarity * 100) / 100;
  return {
    name: "similarity",
    applies: true,
    passed: score >= rules.min_similarity,
    score,
    ...explained({ code: method === "trigram" ? "similarity.trigram" : "similarity.embedding", params: { score, min: rules.min_similarity } }),
  };
}

// What the extractive default and models say when the knowledge has nothing; checked on the
// answer's opening only, so a full answer that mentions "not found" later still counts.
const NOTHING_FOUND = [
  /couldn'?t find|could not find|can'?t find|no information|don'?t have (any )?information|not (in|covered by) (my|the) knowledge/i,
  /habe ich .*nichts gefunden|keine informationen/i,
  /no encontré|no tengo información/i,
  /je n'ai rien trouvé|je n'ai pas d'information/i,
  /non ho trovato/i,
  /見つかりませんでした/,
  /没有找到/,
  /δεν βρήκα/i,
  /nie znalazłem|nie znalazłam|nie mam informacji/i,
  /niets over gevonden|niets gevonden|geen informatie/i,
];

export function foundNothing(answer: string, sources: ChatSource[]): boolean {
  if (!answer.trim()) return true;
  const opening = answer.slice(0, 200);
  return NOTHING_FOUND.some((re) => re.test(opening)) || (sources.length === 0 && answer.length < 200 && /\?\s*$/.test(answer));
}

export function answeredScore(answer: string, sources: ChatSource[], rules: PassRules): TestScore {
  const nothing = foundNothing(answer, sources);
  return {
    name: "answered",
    applies: rules.require_answer,
    passed: !nothing,
    score: nothing ? 0 : 1,
    ...explained(nothing ? { code: "answered.nothing", params: {} } : { code: "answered.yes", params: { sources: sources.length } }),
  };
}

export function judgeScore(grade: { score: number; reasoning: string } | { error: string } | null, rules: PassRules): TestScore | null {
  if (!grade) return null;
  if ("error" in grade) {
    return { name: "judge", applies: false, passed: false, score: 0, ...explained({ code: "judge.error", params: { error: grade.error } }) };
  }
  const score = Math.max(0, Math.min(1, grade.score));
  return {
    name: "judge",
    applies: true,
    passed: score >= rules.min_judge_score,
    score,
    ...explained({ code: "judge.graded", params: { score, min: rules.min_judge_score } }),
    reasoning: grade.reasoning,
  };
}

/** A case passes when it got an answer without error and every score that applies passed. */
export function passes(scores: TestScore[], error: string | null): boolean {
  return !error && scores.every((s) => !s.applies || s.passed);
}
