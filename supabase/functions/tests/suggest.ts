// Suggested test cases from the bot's knowledge. With the extractive default (and as the base
// for every provider) they come from headings and titles: a question about each section,
// the section's opening as the expected answer and its document as the expected source.
import type { Db } from "../_shared/clients.ts";
import { must } from "../_shared/db.ts";

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

/** Suggestions from the chunks' heading paths (the section titles) and document titles, new questions only. */
export async function suggestCases(service: Db, botId: string, language: string): Promise<Suggestion[]> {
  const chunks = must(
    await service
      .from("chunks")
      .select("heading_path, content, position, documents(title, url)")
      .eq("bot_id", botId)
      .order("document_id")
      .order("position")
      .limit(2000),
    "chunks",
  );
  const existing = must(await service.from("test_cases").select("question").eq("bot_id", botId).limit(5000), "cases");
  const asked = new Set(existing.map((c) => c.question.trim().toLowerCase()));
  const ask = ASK[language] ?? ASK.en;
  const out: Suggestion[] = [];
  for (const chunk of chunks) {
    const doc = chunk.documents as unknown as { title: string; url: string } | null;
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
