// Scores of one answer against its test case, each with an explanation, and the pass rule.
// Pure functions: the similarity and the judge's grade are measured elsewhere and passed in.
import type { ChatSource } from "../_shared/contracts/chat.ts";
import type { TestScore } from "../_shared/contracts/tests.ts";

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
    explanation: passed
      ? `Expected source${c.expected_sources.length > 1 ? "s" : ""} in the top ${rules.top_k} (position ${positions.map((p) => p + 1).join(", ")}).`
      : `Not in the top ${rules.top_k} sources: ${missing.join(", ")}.`,
  };
}

export function phraseScore(c: CaseToScore, answer: string): TestScore | null {
  if (!c.required_phrases.length && !c.forbidden_phrases.length) return null;
  const text = norm(answer);
  const missing = c.required_phrases.filter((p) => !text.includes(norm(p)));
  const present = c.forbidden_phrases.filter((p) => norm(p) && text.includes(norm(p)));
  const total = c.required_phrases.length + c.forbidden_phrases.length;
  const parts: string[] = [];
  parts.push(missing.length ? `Missing required phrase${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}.` : c.required_phrases.length ? `All ${c.required_phrases.length} required phrases present.` : "");
  parts.push(present.length ? `Forbidden phrase${present.length > 1 ? "s" : ""} present: ${present.join(", ")}.` : c.forbidden_phrases.length ? "No forbidden phrase." : "");
  return {
    name: "phrases",
    applies: true,
    passed: !missing.length && !present.length,
    score: (total - missing.length - present.length) / total,
    explanation: parts.filter(Boolean).join(" "),
  };
}

export function similarityScore(c: CaseToScore, similarity: number | null, rules: PassRules, method = "trigram"): TestScore | null {
  if (!c.expected_answer.trim() || similarity === null) return null;
  const score = Math.round(similarity * 100) / 100;
  return {
    name: "similarity",
    applies: true,
    passed: score >= rules.min_similarity,
    score,
    explanation: `${method === "trigram" ? "Trigram" : "Embedding"} similarity to the expected answer is ${score.toFixed(2)} (at least ${rules.min_similarity.toFixed(2)} passes).`,
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
    explanation: nothing
      ? "The bot said it found nothing."
      : `The bot answered${sources.length ? ` with ${sources.length} source${sources.length > 1 ? "s" : ""}` : ""}.`,
  };
}

export function judgeScore(grade: { score: number; reasoning: string } | { error: string } | null, rules: PassRules): TestScore | null {
  if (!grade) return null;
  if ("error" in grade) {
    return { name: "judge", applies: false, passed: false, score: 0, explanation: `The judge could not grade this answer: ${grade.error}` };
  }
  const score = Math.max(0, Math.min(1, grade.score));
  return {
    name: "judge",
    applies: true,
    passed: score >= rules.min_judge_score,
    score,
    explanation: `The judge graded the answer ${score.toFixed(2)} against the expected one (at least ${rules.min_judge_score.toFixed(2)} passes).`,
    reasoning: grade.reasoning,
  };
}

/** A case passes when it got an answer without error and every score that applies passed. */
export function passes(scores: TestScore[], error: string | null): boolean {
  return !error && scores.every((s) => !s.applies || s.passed);
}
