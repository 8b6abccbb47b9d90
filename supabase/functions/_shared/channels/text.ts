// Turning the engine's Markdown answer into each platform's text: splitting at a
// platform's length limit (at paragraph, line or word boundaries where possible)
// and the formatting dialects (Telegram MarkdownV2, Slack mrkdwn).

/**
 * Splits `text` into pieces whose rendered form (`render(piece)`) is at most
 * `limit` characters, preferring paragraph, then line, then word boundaries.
 */
export function splitMessage(text: string, limit: number, render: (s: string) => string = (s) => s): string[] {
  const fits = (s: string) => render(s).length <= limit;
  const out: string[] = [];
  let rest = text.trim();
  while (rest) {
    if (fits(rest)) {
      out.push(rest);
      break;
    }
    // The longest prefix that fits, found by halving (render is not linear).
    let lo = 1;
    let hi = rest.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fits(rest.slice(0, mid))) lo = mid;
      else hi = mid - 1;
    }
    let cut = lo;
    const window = rest.slice(0, lo);
    for (const sep of ["\n\n", "\n", " "]) {
      const at = window.lastIndexOf(sep);
      if (at > lo * 0.5) {
        cut = at;
        break;
      }
    }
    // Never cut a surrogate pair in half.
    if (/[\uD800-\uDBFF]/.test(rest[cut - 1] ?? "")) cut--;
    out.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  return out.filter(Boolean);
}

const MDV2_SPECIAL = /[_*[\]()~`>#+\-=|{}.!\\]/g;

/** Escapes every MarkdownV2 special character (Telegram Bot API, "MarkdownV2 style"). */
export function escapeMarkdownV2(text: string): string {
  return text.replace(MDV2_SPECIAL, (c) => "\\" + c);
}

/**
 * The engine's Markdown as Telegram MarkdownV2: **bold** stays bold, [text](url)
 * stays a link, everything else is escaped so Telegram shows it as written.
 */
export function toTelegramMarkdown(text: string): string {
  let out = "";
  const pattern = /\*\*([^*\n]+)\*\*|\[([^\]\n]+)\]\((https?:\/\/[^)\s]+)\)/g;
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    out += escapeMarkdownV2(text.slice(last, m.index));
    if (m[1] !== undefined) out += `*${escapeMarkdownV2(m[1])}*`;
    else out += `[${escapeMarkdownV2(m[2]!)}](${m[3]!.replace(/[)\\]/g, (c) => "\\" + c)})`;
    last = m.index! + m[0].length;
  }
  return out + escapeMarkdownV2(text.slice(last));
}

/** The engine's Markdown as Slack mrkdwn: &, <, > escaped, **bold** as *bold*, links as <url|text>. */
export function toSlackMrkdwn(text: string): string {
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  let out = "";
  const pattern = /\*\*([^*\n]+)\*\*|\[([^\]\n]+)\]\((https?:\/\/[^)\s|<>]+)\)/g;
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    out += esc(text.slice(last, m.index));
    if (m[1] !== undefined) out += `*${esc(m[1])}*`;
    else out += `<${m[3]}|${esc(m[2]!)}>`;
    last = m.index! + m[0].length;
  }
  return out + esc(text.slice(last));
}
