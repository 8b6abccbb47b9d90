// Renders a chat as a plain-text or Markdown transcript, labelled in the reader's language; the
// plain text has the answers' Markdown taken out (no asterisks, links as "text <url>").
export interface TranscriptMessage {
  role: "user" | "assistant";
  content: string;
  created_at: string;
  sources?: Array<{ title?: string; url?: string | null }>;
}

export const TRANSCRIPT_LANGUAGES = ["en", "de", "es", "fr", "it", "jp", "cn", "el", "pl", "nl"] as const;
export type TranscriptLanguage = (typeof TRANSCRIPT_LANGUAGES)[number];

/** "title (powered by)|title (bot: {bot})|Bot|Started|You|Sources" per language. */
const LABELS: Record<TranscriptLanguage, string> = {
  en: "Chat transcript powered by Parley|Chat transcript: {bot}|Bot|Started|You|Sources",
  de: "Chat-Protokoll, bereitgestellt von Parley|Chat-Protokoll: {bot}|Bot|Begonnen|Sie|Quellen",
  es: "Transcripción del chat con tecnología de Parley|Transcripción del chat: {bot}|Bot|Inicio|Usted|Fuentes",
  fr: "Transcription du chat propulsée par Parley|Transcription du chat : {bot}|Bot|Début|Vous|Sources",
  it: "Trascrizione della chat con tecnologia Parley|Trascrizione della chat: {bot}|Bot|Iniziata|Lei|Fonti",
  jp: "Parley によるチャット記録|チャット記録：{bot}|ボット|開始|あなた|出典",
  cn: "由 Parley 提供的聊天记录|聊天记录：{bot}|机器人|开始时间|您|来源",
  el: "Αρχείο συνομιλίας με την τεχνολογία του Parley|Αρχείο συνομιλίας: {bot}|Bot|Έναρξη|Εσείς|Πηγές",
  pl: "Zapis czatu, obsługiwane przez Parley|Zapis czatu: {bot}|Bot|Rozpoczęto|Ty|Źródła",
  nl: "Chattranscript mogelijk gemaakt door Parley|Chattranscript: {bot}|Bot|Gestart|U|Bronnen",
};

export function transcriptLabels(lang: TranscriptLanguage) {
  const [poweredBy, ofBot, bot, started, you, sources] = LABELS[lang].split("|") as [string, string, string, string, string, string];
  return { poweredBy, ofBot, bot, started, you, sources };
}

/** The language from ?lang=, else the first supported one of Accept-Language, else English. */
export function transcriptLanguage(query: string | null, acceptLanguage: string | null): TranscriptLanguage {
  const alias: Record<string, TranscriptLanguage> = { ja: "jp", zh: "cn" };
  const pick = (code: string) => {
    const base = code.trim().toLowerCase().split(/[-_;]/)[0] ?? "";
    const lang = alias[base] ?? base;
    return (TRANSCRIPT_LANGUAGES as readonly string[]).includes(lang) ? (lang as TranscriptLanguage) : null;
  };
  return (query && pick(query)) || (acceptLanguage ?? "").split(",").map(pick).find(Boolean) || "en";
}

/** Markdown as plain text: emphasis and code marks out, links as "text <url>", headings bare. */
export function plainText(md: string): string {
  return md
    .replace(/^```[^\n]*\n?/gm, "")
    .replace(/!?\[([^\]]*)\]\(<?([^)>\s]+)>?\)/g, (_, text: string, url: string) => (text && text !== url ? `${text} <${url}>` : `<${url}>`))
    .replace(/^#{1,6}\s+/gm, "")
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, "$2")
    .replace(/(^|[^\w*])[*_](?=\S)([^*_\n]*?\S)[*_](?![\w*])/g, "$1$2")
    .replace(/`([^`\n]+)`/g, "$1")
    .replace(/^(\s*)[*+]\s+/gm, "$1- ");
}

export interface Transcript {
  lang: TranscriptLanguage;
  title: string;
  botName: string;
  chatTitle: string | null;
  createdAt: string;
  messages: TranscriptMessage[];
}

const stamp = (iso: string) =>
  iso
    .replace("T", " ")
    .replace(/\.\d+/, "")
    .replace(/\+00:00$|Z$/, " UTC");

export function toText(t: Transcript): string {
  const l = transcriptLabels(t.lang);
  const lines = [t.title, "=".repeat(t.title.length), `${l.bot}: ${t.botName}`, `${l.started}: ${stamp(t.createdAt)}`, ""];
  for (const m of t.messages) {
    lines.push(`[${stamp(m.created_at)}] ${m.role === "user" ? l.you : t.botName}:`, plainText(m.content), "");
    const sources = (m.sources ?? []).filter((s) => s.title || s.url);
    if (sources.length) {
      lines.push(
        `${l.sources}:`,
        ...sources.map((s, i) => `  [${i + 1}] ${s.title ?? ""}${s.url ? ` <${s.url}>` : ""}`),
        "",
      );
    }
  }
  return lines.join("\n");
}

function mdEscapeInline(s: string): string {
  return s.replace(/([\\`*_[\]<>])/g, "\\$1");
}

export function toMarkdown(t: Transcript): string {
  const l = transcriptLabels(t.lang);
  const out = [
    `# ${mdEscapeInline(t.title)}`,
    "",
    `**${l.bot}:** ${mdEscapeInline(t.botName)}  `,
    `**${l.started}:** ${stamp(t.createdAt)}`,
    "",
  ];
  for (const m of t.messages) {
    out.push(
      `### ${m.role === "user" ? l.you : mdEscapeInline(t.botName)} · ${stamp(m.created_at)}`,
      "",
      m.content,
      "",
    );
    const sources = (m.sources ?? []).filter((s) => s.title || s.url);
    if (sources.length) {
      out.push(
        `${l.sources}:`,
        "",
        ...sources.map((s, i) => {
          const title = mdEscapeInline(s.title || s.url || "");
          return `${i + 1}. ${s.url && /^https?:\/\//.test(s.url) ? `[${title}](<${s.url}>)` : title}`;
        }),
        "",
      );
    }
  }
  return out.join("\n");
}

/** A safe ASCII filename plus an RFC 5987 UTF-8 one. */
export function contentDisposition(base: string, ext: string): string {
  const ascii =
    base
      .normalize("NFKD")
      .replace(/[^\w\- ]+/g, "")
      .trim()
      .replace(/\s+/g, "-")
      .slice(0, 80) || "chat";
  const utf8 = encodeURIComponent(`${base.slice(0, 80)}.${ext}`);
  return `attachment; filename="${ascii}.${ext}"; filename*=UTF-8''${utf8}`;
}
