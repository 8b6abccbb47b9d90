// Renders a chat as a plain-text or Markdown transcript.
export interface TranscriptMessage {
  role: "user" | "assistant";
  content: string;
  created_at: string;
  sources?: Array<{ title?: string; url?: string | null }>;
}

export interface Transcript {
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
  const lines = [t.title, "=".repeat(t.title.length), `Bot: ${t.botName}`, `Started: ${stamp(t.createdAt)}`, ""];
  for (const m of t.messages) {
    lines.push(`[${stamp(m.created_at)}] ${m.role === "user" ? "You" : t.botName}:`, m.content, "");
    const sources = (m.sources ?? []).filter((s) => s.title || s.url);
    if (sources.length) {
      lines.push(
        "Sources:",
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
  const out = [
    `# ${mdEscapeInline(t.title)}`,
    "",
    `**Bot:** ${mdEscapeInline(t.botName)}  `,
    `**Started:** ${stamp(t.createdAt)}`,
    "",
  ];
  for (const m of t.messages) {
    out.push(
      `### ${m.role === "user" ? "You" : mdEscapeInline(t.botName)} · ${stamp(m.created_at)}`,
      "",
      m.content,
      "",
    );
    const sources = (m.sources ?? []).filter((s) => s.title || s.url);
    if (sources.length) {
      out.push(
        "Sources:",
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
