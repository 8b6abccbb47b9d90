// The prompt a model sees: the bot's instructions, answering rules, and the
// retrieved passages numbered so the answer can cite them as [n].
import type { Passage } from "../_shared/providers/extractive.ts";

const languageNames: Record<string, string> = {
  en: "English",
  de: "German",
  es: "Spanish",
  fr: "French",
  it: "Italian",
  jp: "Japanese",
  cn: "Chinese (Simplified)",
  el: "Greek",
  pl: "Polish",
  nl: "Dutch",
};

export interface Source {
  chunk_id: string;
  document_id: string;
  title: string;
  url: string | null;
  excerpt: string;
}

/** "Document › Heading", without repeating a heading that is the document's title. */
export function passageTitle(p: Passage): string {
  const parts = [p.document_title, p.heading_path].map((s) => (s ?? "").trim()).filter(Boolean);
  return [...new Set(parts)].join(" › ");
}

export function toSource(p: Passage): Source {
  const title = passageTitle(p) || (p.document_url ?? "");
  const text = p.content.replace(/\s+/g, " ").trim();
  return {
    chunk_id: p.chunk_id,
    document_id: p.document_id,
    title,
    url: p.document_url,
    excerpt: text.length > 300 ? text.slice(0, 299) + "…" : text,
  };
}

export function systemPrompt(instructions: string, language: string, passages: Passage[]): string {
  const lang = languageNames[language] ?? "English";
  const rules = [
    `Answer in ${lang} unless the user writes in another language; then answer in the user's language.`,
    "Base your answer on the numbered passages below when they are relevant, and cite them as [1], [2] right after the facts they support.",
    "If the passages do not contain the answer, say so plainly instead of guessing.",
    "Format the answer in Markdown.",
  ].join("\n");
  const context = passages.length
    ? passages
        .map((p, i) => {
          return `[${i + 1}] ${passageTitle(p) || "Untitled"}\n${p.content.trim()}`;
        })
        .join("\n\n")
    : "(no passages matched this question)";
  return `${instructions.trim() || "You are a helpful assistant."}\n\n${rules}\n\nPassages:\n${context}`;
}
