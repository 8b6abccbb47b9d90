// The prompt a model sees: the bot's instructions, answering rules, and the
// retrieved passages numbered so the answer can cite them as [n].
import type { ChatSource } from "../contracts/chat.ts";
import type { Passage } from "../providers/extractive.ts";

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


/**
 * "Document › Heading › Subheading". A heading path often starts with the document's own
 * title (its h1): that part is not repeated, and the path's ">" separators become "›".
 */
export function passageTitle(p: Passage): string {
  const title = (p.document_title ?? "").trim();
  const headings = (p.heading_path ?? "")
    .split(/\s*>\s*/)
    .map((h) => h.trim())
    .filter(Boolean);
  while (headings.length && title && headings[0]!.toLowerCase() === title.toLowerCase()) headings.shift();
  return [title, ...headings].filter(Boolean).join(" › ");
}

export function toSource(p: Passage): ChatSource {
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
