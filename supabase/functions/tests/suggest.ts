// Suggested test cases from the bot's knowledge. With a model provider, the bot's model reads
// passages of the documents and writes a question each passage answers, with the answer (in
// the bot's language); the passage's document is the expected source. With the extractive
// default (or when the model wrote nothing usable) they come from headings and titles: a
// question about each section, the section's opening as the expected answer and its document
// as the expected source.
import type { Db } from "../_shared/clients.ts";
import { must } from "../_shared/db.ts";
import type { ProviderChoice } from "../_shared/engine/provider.ts";
import { describe, type Logger } from "../_shared/log.ts";
import { complete } from "./judge.ts";

const ASK: Record<string, (topic: string) => string> = {
  en: (t) => `What can you tell me about ${t}?`,
  de: (t) => `Was können Sie mir über ${t} sagen?`,
  es: (t) => `¿Qué me puede decir sobre ${t}?`,
  fr: (t) => `Que pouvez-vous me dire sur ${t} ?`,
  it: (t) => `Cosa può dirmi su ${t}?`,
  jp: (t) => `${t}について教えてください。`,
  cn: (t) => `请介绍一下${t}。`,
  el: (t) => `Τι μπορείτε να μου πείτε για ${t};`,
  pl: (t) => `Co może mi Pan/Pani powiedzieć o ${t}?`,
  nl: (t) => `Wat kunt u mij vertellen over ${t}?`,
};

export const MAX_SUGGESTIONS = 20;

/** The opening sentences of a passage, at most ~300 characters. */
function opening(text: string): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if (clean.length <= 300) return clean;
  const cut = clean.slice(0, 300);
  const end = Math.max(cut.lastIndexOf(". "), cut.lastIndexOf("。"));
  return end > 80 ? cut.slice(0, end + 1) : cut;
}

export interface Suggestion {
  question: string;
  expected_answer: string;
  expected_sources: string[];
}

interface Passage {
  heading_path: string;
  content: string;
  document_id: string;
  documents: unknown;
}

const docOf = (chunk: Passage) => chunk.documents as { title: string; url: string } | null;
const sourceOf = (chunk: Passage) => {
  const doc = docOf(chunk);
  return doc?.url ? [doc.url] : doc?.title ? [doc.title] : [];
};

/** Suggestions from the chunks' heading paths (the section titles) and document titles, new questions only. */
function fromHeadings(chunks: Passage[], language: string, asked: Set<string>): Suggestion[] {
  const ask = ASK[language] ?? ASK.en;
  const out: Suggestion[] = [];
  for (const chunk of chunks) {
    const doc = docOf(chunk);
    const topic = (chunk.heading_path.split(">").pop() ?? "").trim() || doc?.title?.trim() || "";
    if (topic.length < 3 || topic.length > 150) continue;
    const question = ask(topic);
    if (asked.has(question.toLowerCase())) continue;
    asked.add(question.toLowerCase());
    out.push({ question, expected_answer: opening(chunk.content), expected_sources: doc?.url ? [doc.url] : [] });
    if (out.length >= MAX_SUGGESTIONS) break;
  }
  return out;
}

/** The model's prompt starts with this sentence (tests route on it). */
export const SUGGEST_MARKER = "You write test questions for a customer-support chatbot.";

const LANGUAGE_NAMES: Record<string, string> = {
  en: "English", de: "German", es: "Spanish", fr: "French", it: "Italian", jp: "Japanese",
  cn: "Simplified Chinese", el: "Greek", pl: "Polish", nl: "Dutch",
};

const suggestSystem = (language: string) => `${SUGGEST_MARKER}
Read the passage from the bot's documents and write one question a customer could ask that the
passage answers, and the answer as the passage gives it (one to three sentences, only facts from
the passage). Write both in ${LANGUAGE_NAMES[language] ?? "English"}. If the passage answers no
useful question (a table of contents, a legal notice, a fragment), reply {"skip": true}.
Reply with JSON only, no code fence: {"question": "...", "answer": "..."}`;

/** Reads {"question", "answer"} from a model's reply; null for a skip or anything unusable. */
export function parseSuggestion(reply: string): { question: string; answer: string } | null {
  const match = reply.match(/\{[\s\S]*\}/);
  if (!match) return null;
  try {
    const parsed = JSON.parse(match[0]) as { question?: unknown; answer?: unknown; skip?: unknown };
    const question = typeof parsed.question === "string" ? parsed.question.trim() : "";
    const answer = typeof parsed.answer === "string" ? parsed.answer.trim() : "";
    if (parsed.skip === true || question.length < 5 || question.length > 500 || !answer) return null;
    return { question, answer: answer.slice(0, 2000) };
  } catch {
    return null;
  }
}

/** Passages worth a question, the documents taken in turn so that every document gets one first. */
function spread(chunks: Passage[], limit: number): Passage[] {
  const byDoc = new Map<string, Passage[]>();
  for (const c of chunks) if (c.content.trim().length >= 80) byDoc.set(c.document_id, [...(byDoc.get(c.document_id) ?? []), c]);
  const out: Passage[] = [];
  for (let i = 0; out.length < limit; i++) {
    const round = [...byDoc.values()].map((list) => list[i]).filter(Boolean);
    if (!round.length) break;
    out.push(...round.slice(0, limit - out.length));
  }
  return out;
}

/** How many passages the model reads per request for suggestions, two at a time. */
export const MODEL_SUGGESTIONS = 10;

async function fromModel(
  choice: Extract<ProviderChoice, { kind: "model" }>,
  chunks: Passage[],
  language: string,
  asked: Set<string>,
  log: Logger,
): Promise<Suggestion[]> {
  const passages = spread(chunks, MODEL_SUGGESTIONS);
  const replies: ({ question: string; answer: string } | null)[] = new Array(passages.length).fill(null);
  let next = 0;
  const worker = async () => {
    while (next < passages.length) {
      const i = next++;
      const p = passages[i];
      const title = docOf(p)?.title ?? "";
      try {
        replies[i] = parseSuggestion(
          await complete(choice, suggestSystem(language), `Document: ${title}\nSection: ${p.heading_path}\n\nPassage:\n${p.content.slice(0, 6000)}`),
        );
      } catch (e) {
        log.warn("suggestion_failed", { error: describe(e) });
      }
    }
  };
  await Promise.all([worker(), worker()]);
  const out: Suggestion[] = [];
  replies.forEach((r, i) => {
    if (!r || asked.has(r.question.toLowerCase())) return;
    asked.add(r.question.toLowerCase());
    out.push({ question: r.question, expected_answer: r.answer, expected_sources: sourceOf(passages[i]) });
  });
  return out;
}

/**
 * New suggested cases (questions not yet asked by a case of the bot): written by the bot's model
 * when it has one, else (or when the model wrote none) from headings and titles.
 */
export async function suggestCases(
  service: Db,
  botId: string,
  language: string,
  choice: ProviderChoice,
  log: Logger,
): Promise<{ suggestions: Suggestion[]; method: "model" | "headings" }> {
  const chunks = must(
    await service
      .from("chunks")
      .select("heading_path, content, position, document_id, documents(title, url)")
      .eq("bot_id", botId)
      .order("document_id")
      .order("position")
      .limit(2000),
    "chunks",
  ) as Passage[];
  const existing = must(await service.from("test_cases").select("question").eq("bot_id", botId).limit(5000), "cases");
  const asked = new Set(existing.map((c) => c.question.trim().toLowerCase()));
  if (choice.kind === "model") {
    const suggestions = await fromModel(choice, chunks, language, asked, log);
    if (suggestions.length) return { suggestions, method: "model" };
  }
  return { suggestions: fromHeadings(chunks, language, asked), method: "headings" };
}
