// The embedded default responder: no model, no key. It answers with the most
// relevant passages of the bot's own knowledge (as retrieved by match_chunks),
// cites them [1], [2], ... in the bot's language, and says so honestly when
// nothing matched. Streams in small pieces like a model would.
import type { GenerateEvent } from "./types.ts";

export type BotLanguage = "en" | "de" | "es" | "fr" | "it" | "jp" | "cn" | "el" | "pl" | "nl";

export interface Passage {
  chunk_id: string;
  document_id: string;
  content: string;
  heading_path: string | null;
  document_title: string | null;
  document_url: string | null;
  score: number;
}

const phrases: Record<BotLanguage, { lead: string; none: string }> = {
  en: {
    lead: "Here is what I found in the knowledge base:",
    none: "I couldn't find anything about that in my knowledge base. Could you rephrase your question?",
  },
  de: {
    lead: "Das habe ich in der Wissensdatenbank gefunden:",
    none: "Dazu habe ich in meiner Wissensdatenbank leider nichts gefunden. Können Sie Ihre Frage anders formulieren?",
  },
  es: {
    lead: "Esto es lo que encontré en la base de conocimientos:",
    none: "No encontré nada sobre eso en mi base de conocimientos. ¿Podrías reformular tu pregunta?",
  },
  fr: {
    lead: "Voici ce que j'ai trouvé dans la base de connaissances :",
    none: "Je n'ai rien trouvé à ce sujet dans ma base de connaissances. Pourriez-vous reformuler votre question ?",
  },
  it: {
    lead: "Ecco cosa ho trovato nella base di conoscenza:",
    none: "Non ho trovato nulla al riguardo nella mia base di conoscenza. Puoi riformulare la domanda?",
  },
  jp: {
    lead: "ナレッジベースで見つかった情報は次のとおりです。",
    none: "ナレッジベースに該当する情報が見つかりませんでした。質問を言い換えていただけますか？",
  },
  cn: {
    lead: "以下是我在知识库中找到的内容：",
    none: "我在知识库中没有找到相关内容。能换个方式提问吗？",
  },
  el: {
    lead: "Να τι βρήκα στη βάση γνώσεων:",
    none: "Δεν βρήκα τίποτα σχετικό στη βάση γνώσεών μου. Μπορείτε να διατυπώσετε διαφορετικά την ερώτησή σας;",
  },
  pl: {
    lead: "Oto, co znalazłem w bazie wiedzy:",
    none: "Nie znalazłem nic na ten temat w mojej bazie wiedzy. Czy możesz sformułować pytanie inaczej?",
  },
  nl: {
    lead: "Dit heb ik gevonden in de kennisbank:",
    none: "Ik heb hierover niets gevonden in mijn kennisbank. Kun je je vraag anders formuleren?",
  },
};

export function extractivePhrases(language: string) {
  return phrases[(language in phrases ? language : "en") as BotLanguage];
}

/** How many passages the extractive answer quotes. */
export const EXTRACTIVE_MAX_PASSAGES = 3;
const MAX_EXCERPT_CHARS = 420;

function terms(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .normalize("NFKC")
      .split(/[^\p{L}\p{N}]+/u)
      .filter((t) => t.length >= 3),
  );
}

function sentences(text: string): string[] {
  return text
    .replace(/\s+/g, " ")
    .split(/(?<=[.!?。！？])\s+|(?<=[。！？])/u)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The sentences of a passage that share most words with the question, in their original order, bounded. */
export function excerpt(content: string, question: string, maxChars = MAX_EXCERPT_CHARS): string {
  const all = sentences(content);
  if (!all.length) return "";
  const q = terms(question);
  const scored = all.map((s, i) => {
    let hits = 0;
    for (const t of terms(s)) if (q.has(t)) hits++;
    return { s, i, hits };
  });
  const best = scored.some((x) => x.hits > 0) ? [...scored].sort((a, b) => b.hits - a.hits || a.i - b.i) : scored;
  const picked: typeof scored = [];
  let size = 0;
  for (const x of best) {
    if (picked.length && size + x.s.length > maxChars) break;
    picked.push(x);
    size += x.s.length + 1;
    if (size >= maxChars) break;
  }
  const text = picked
    .sort((a, b) => a.i - b.i)
    .map((x) => x.s)
    .join(" ");
  return text.length > maxChars ? text.slice(0, maxChars - 1).trimEnd() + "…" : text;
}

/** The passages the answer will cite (best first). */
export function extractiveSelection(passages: Passage[]): Passage[] {
  return passages.slice(0, EXTRACTIVE_MAX_PASSAGES);
}

/** The whole answer text; [n] refers to the n-th selected passage. */
export function extractiveAnswer(question: string, passages: Passage[], language: string): string {
  const p = extractivePhrases(language);
  const selected = extractiveSelection(passages);
  if (!selected.length) return p.none;
  const parts = selected.map((s, i) => {
    const title = (s.heading_path || s.document_title || "").trim();
    const body = excerpt(s.content, question);
    return `${title ? `**${title}**: ` : ""}${body} [${i + 1}]`;
  });
  return [p.lead, ...parts].join("\n\n");
}

/** Splits text into small pieces (a few words, or a few characters of CJK) so the answer streams. */
export function pieces(text: string): string[] {
  return text.match(/\S+\s*|\s+/gu)?.flatMap((w) => (w.length > 12 ? (w.match(/.{1,6}/gsu) ?? [w]) : [w])) ?? [];
}

export async function* generateExtractive(
  question: string,
  passages: Passage[],
  language: string,
): AsyncGenerator<GenerateEvent> {
  const text = extractiveAnswer(question, passages, language);
  let n = 0;
  let buf = "";
  for (const piece of pieces(text)) {
    buf += piece;
    // ~3 words per token event.
    if (++n % 3 === 0) {
      yield { type: "token", text: buf };
      buf = "";
    }
  }
  if (buf) yield { type: "token", text: buf };
  const words = terms(text).size;
  yield { type: "done", usage: { prompt_tokens: 0, completion_tokens: words } };
}
