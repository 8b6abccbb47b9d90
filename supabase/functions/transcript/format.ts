// Renders a chat as a plain-text or Markdown transcript, labelled in the reader's language; the
// plain text has the answers' Markdown taken out (no asterisks, links as "text <url>").
export interface TranscriptMessage {
  /** "human": a reply written by a person of the bot's team (after a handoff). */
  role: "user" | "assistant" | "human";
  content: string;
  created_at: string;
  sources?: Array<{ title?: string; url?: string | null }>;
  /** What the bot's power-ups showed the visitor with this answer (messages.actions). */
  actions?: unknown;
}

type Labels = ReturnType<typeof transcriptLabels>;
/** `before`: shown before the answer's text (a tool's line), as in the chat; the rest after it. */
export type ActionLine = { text: string; url?: string; before?: boolean };

const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");

/**
 * The lines a message's actions showed the visitor, in order: a tool's "Action: …" or its failure,
 * a link button as "label <url>" (http(s) only: the chat shows no button for another scheme), a contact form offered, the
 * handoff notice. Unknown entries and keys are left out, like the chat leaves them out.
 * Only label/name/ok/url/text are read: what private.visitor_actions keeps for a shared chat.
 */
export function actionLines(actions: unknown, l: Labels): ActionLine[] {
  if (!Array.isArray(actions)) return [];
  return actions.flatMap((a): ActionLine[] => {
    if (!a || typeof a !== "object") return [];
    const x = a as Record<string, unknown>;
    const label = text(x.label) || text(x.name);
    if (x.type === "tool" && label)
      return [{ text: (x.ok === false ? l.actionFailed : l.actionDone).replace("{label}", label), before: true }];
    if (x.type === "link" && label) {
      const url = text(x.url);
      return /^https?:\/\//i.test(url) ? [{ text: label, url }] : [];
    }
    if (x.type === "lead_form" && label) return [{ text: l.formOffered.replace("{label}", label) }];
    if (x.type === "handoff" && text(x.text)) return [{ text: text(x.text) }];
    return [];
  });
}

const speaker = (m: TranscriptMessage, l: Labels, botName: string) =>
  m.role === "user" ? l.you : m.role === "human" ? l.team : botName;

export const TRANSCRIPT_LANGUAGES = ["en", "de", "es", "fr", "it", "jp", "cn", "el", "pl", "nl"] as const;
export type TranscriptLanguage = (typeof TRANSCRIPT_LANGUAGES)[number];

/**
 * "title (powered by)|title (bot: {bot})|Bot|Started|You|Sources|Team (a person's reply)|
 * Action: {label}|{label} failed|contact form offered: {label}" per language (the action lines are the
 * chat's own texts: chat.tool.done, chat.tool.failed, chat.lead.offered).
 */
const LABELS: Record<TranscriptLanguage, string> = {
  en: "Chat transcript powered by Parley|Chat transcript: {bot}|Bot|Started|You|Sources|Team|Action: {label}|Could not use {label}; the bot answered without it.|A contact form was offered here: {label}",
  de: "Chat-Protokoll, bereitgestellt von Parley|Chat-Protokoll: {bot}|Bot|Begonnen|Sie|Quellen|Team|Aktion: {label}|{label} war nicht erreichbar; der Bot hat ohne diese Aktion geantwortet.|Hier wurde ein Kontaktformular angeboten: {label}",
  es: "Transcripción del chat con tecnología de Parley|Transcripción del chat: {bot}|Bot|Inicio|Usted|Fuentes|Equipo|Acción: {label}|No se pudo usar {label}; el bot respondió sin ello.|Aquí se ofreció un formulario de contacto: {label}",
  fr: "Transcription du chat propulsée par Parley|Transcription du chat : {bot}|Bot|Début|Vous|Sources|Équipe|Action : {label}|Impossible d’utiliser {label} ; le bot a répondu sans.|Un formulaire de contact a été proposé ici : {label}",
  it: "Trascrizione della chat con tecnologia Parley|Trascrizione della chat: {bot}|Bot|Iniziata|Lei|Fonti|Team|Azione: {label}|Impossibile usare {label}; il bot ha risposto senza.|Qui è stato proposto un modulo di contatto: {label}",
  jp: "Parley によるチャット記録|チャット記録：{bot}|ボット|開始|あなた|出典|チーム|アクション: {label}|{label} を利用できなかったため、ボットはそれなしで回答しました。|ここで連絡先フォームが表示されました: {label}",
  cn: "由 Parley 提供的聊天记录|聊天记录：{bot}|机器人|开始时间|您|来源|团队|操作：{label}|无法使用 {label}，机器人在没有它的情况下作答。|此处提供了联系表单：{label}",
  el: "Αρχείο συνομιλίας με την τεχνολογία του Parley|Αρχείο συνομιλίας: {bot}|Bot|Έναρξη|Εσείς|Πηγές|Ομάδα|Ενέργεια: {label}|Δεν ήταν δυνατή η χρήση του {label}· το bot απάντησε χωρίς αυτό.|Εδώ προτάθηκε φόρμα επικοινωνίας: {label}",
  pl: "Zapis czatu, obsługiwane przez Parley|Zapis czatu: {bot}|Bot|Rozpoczęto|Ty|Źródła|Zespół|Akcja: {label}|Nie udało się użyć {label}; bot odpowiedział bez tego.|Tutaj zaproponowano formularz kontaktowy: {label}",
  nl: "Chattranscript mogelijk gemaakt door Parley|Chattranscript: {bot}|Bot|Gestart|U|Bronnen|Team|Actie: {label}|{label} kon niet worden gebruikt; de bot antwoordde zonder.|Hier werd een contactformulier aangeboden: {label}",
};

export function transcriptLabels(lang: TranscriptLanguage) {
  const [poweredBy, ofBot, bot, started, you, sources, team, actionDone, actionFailed, formOffered] = LABELS[lang].split("|") as [
    string, string, string, string, string, string, string, string, string, string,
  ];
  return { poweredBy, ofBot, bot, started, you, sources, team, actionDone, actionFailed, formOffered };
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
    const acts = actionLines(m.actions, l);
    const line = (a: ActionLine) => `  * ${a.text}${a.url ? ` <${a.url}>` : ""}`;
    lines.push(`[${stamp(m.created_at)}] ${speaker(m, l, t.botName)}:`);
    lines.push(...acts.filter((a) => a.before).map(line), plainText(m.content), "");
    const after = acts.filter((a) => !a.before);
    if (after.length) lines.push(...after.map(line), "");
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
    const acts = actionLines(m.actions, l);
    const item = (a: ActionLine) =>
      `- ${a.url ? `[${mdEscapeInline(a.text)}](<${a.url.replace(/[<>\s]/g, encodeURIComponent)}>)` : mdEscapeInline(a.text)}`;
    const before = acts.filter((a) => a.before);
    const after = acts.filter((a) => !a.before);
    out.push(`### ${mdEscapeInline(speaker(m, l, t.botName))} · ${stamp(m.created_at)}`, "");
    if (before.length) out.push(...before.map((a) => `> ${item(a).slice(2)}`), "");
    out.push(m.content, "");
    if (after.length) out.push(...after.map(item), "");
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
