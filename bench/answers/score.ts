// Scores the extractive answers of bench/answers/passages.json (see README.md):
//   deno run --allow-read --allow-write bench/answers/score.ts <baseline extractive.ts>
// Answerable questions: does the answer contain the expected fact? Unanswerable ones: does it say
// it does not know? The threshold is calibrated on the calibration half (best balanced accuracy)
// and reported on the held-out half. Writes results.json.
import { ANSWER_THRESHOLD, extractivePhrases, extractiveReply, type Passage } from "../../supabase/functions/_shared/providers/extractive.ts";

interface Question {
  q: string;
  answerable: boolean;
  expect?: string[];
  half: "calibration" | "held-out";
  passages: Passage[];
  live: { content: string; sources: number };
}
const here = new URL(".", import.meta.url);
const data = JSON.parse(await Deno.readTextFile(new URL("passages.json", here)));
const questions: Question[] = data.questions;
const baseline = await import(Deno.args[0]!);

const plain = (s: string) => s.replace(/[*_`]/g, "").toLowerCase();
const NONE = extractivePhrases("en").none;
/** The answer's own words: without the lead line and the "read more" line. */
const body = (text: string) => text.split("\n\n").filter((p) => !p.startsWith("Here is what I found") && !p.startsWith("Read more:")).join("\n\n");

interface Outcome {
  q: string;
  answerable: boolean;
  half: string;
  correct: boolean;
  saidUnknown: boolean;
  chars: number;
  best?: number;
}
function judge(question: Question, text: string, saidUnknown: boolean, best?: number): Outcome {
  const correct = question.answerable
    ? !saidUnknown && question.expect!.some((e) => plain(body(text)).includes(plain(e)))
    : saidUnknown;
  return { q: question.q, answerable: question.answerable, half: question.half, correct, saidUnknown, chars: body(text).length, best };
}
const after = (threshold: number) =>
  questions.map((q) => {
    const r = extractiveReply(q.q, q.passages, "en", { threshold });
    return judge(q, r.text, r.kind !== "answer", r.best);
  });
const before = questions.map((q) => {
  const text: string = baseline.extractiveAnswer(q.q, q.passages, "en");
  return judge(q, text, text === NONE);
});
const live = questions.map((q) => judge(q, q.live.content, q.live.sources === 0));

function summary(outcomes: Outcome[], half?: string) {
  const set = half ? outcomes.filter((o) => o.half === half) : outcomes;
  const ans = set.filter((o) => o.answerable);
  const un = set.filter((o) => !o.answerable);
  const share = (xs: Outcome[]) => Number((xs.filter((o) => o.correct).length / xs.length).toFixed(3));
  const factShare = share(ans);
  const unknownShare = share(un);
  return {
    answerable: ans.length,
    unanswerable: un.length,
    expected_fact: factShare,
    correct_unknown: unknownShare,
    balanced: Number(((factShare + unknownShare) / 2).toFixed(3)),
    answer_chars_median: ans.map((o) => o.chars).sort((a, b) => a - b)[Math.floor(ans.length / 2)],
  };
}

// Calibration: every threshold from 0.10 to 0.95 in steps of 0.025 on the calibration half.
const sweep = [];
for (let t = 0.1; t <= 0.951; t += 0.025) {
  const threshold = Number(t.toFixed(3));
  sweep.push({ threshold, ...summary(after(threshold), "calibration") });
}
const bestBalanced = Math.max(...sweep.map((s) => s.balanced));
const plateau = sweep.filter((s) => s.balanced === bestBalanced);
// The lowest threshold of the best plateau: among equally good ones, the one that answers most.
const calibrated = plateau[0]!.threshold;

const now = after(ANSWER_THRESHOLD);
const results = {
  date: new Date().toISOString(),
  stored_passages_from: data.date,
  corpus: data.corpus,
  chunks: data.chunks,
  match_count: data.match_count,
  committed_threshold: ANSWER_THRESHOLD,
  calibrated_threshold: calibrated,
  before: { all: summary(before), calibration: summary(before, "calibration"), held_out: summary(before, "held-out") },
  after: { all: summary(now), calibration: summary(now, "calibration"), held_out: summary(now, "held-out") },
  live_chat_function: summary(live),
  sweep,
  misses: now.filter((o) => !o.correct).map(({ q, answerable, best, half }) => ({ q, answerable, half, best: Number(best!.toFixed(3)) })),
  scores: now.map(({ q, answerable, best }) => ({ q, answerable, best: Number(best!.toFixed(3)) })),
};
await Deno.writeTextFile(new URL("results.json", here), JSON.stringify(results, null, 1) + "\n");
const row = (name: string, s: ReturnType<typeof summary>) =>
  console.log(`${name.padEnd(28)} expected fact ${s.expected_fact.toFixed(2)}  correct "I don't know" ${s.correct_unknown.toFixed(2)}  median answer ${s.answer_chars_median} chars`);
row("before (all)", results.before.all);
row("after (all)", results.after.all);
row("after (calibration half)", results.after.calibration);
row("after (held-out half)", results.after.held_out);
row("live chat function", results.live_chat_function);
console.log(`threshold: committed ${ANSWER_THRESHOLD}, calibrated ${calibrated} (plateau ${plateau[0]!.threshold}..${plateau.at(-1)!.threshold})`);
if (calibrated !== ANSWER_THRESHOLD) console.log("  the committed ANSWER_THRESHOLD differs from the calibrated one: update providers/extractive.ts");
console.log("wrote bench/answers/results.json");
