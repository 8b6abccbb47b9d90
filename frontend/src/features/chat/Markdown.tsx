// A minimal Markdown renderer for model answers. It builds React elements, never HTML
// strings, so raw HTML in the text stays text (no dangerouslySetInnerHTML, no parser
// with an HTML mode to forget). Supports what answers use: paragraphs, headings, lists,
// quotes, fenced code, inline code, bold, italic, links, and [n] citations.
import { Fragment, type ReactNode } from "react";

/** Only these link targets are rendered as links; javascript:, data: etc. stay text. */
export function safeHref(url: string): string | null {
  const u = url.trim();
  if (/^(https?:|mailto:)/i.test(u)) return u;
  if (/^(\/(?!\/)|#)/.test(u)) return u;
  return null;
}

type Block =
  | { kind: "p"; lines: string[] }
  | { kind: "h"; level: number; text: string }
  | { kind: "ul" | "ol"; items: string[] }
  | { kind: "quote"; lines: string[] }
  | { kind: "code"; lang: string; text: string };

export function parseBlocks(src: string): Block[] {
  const lines = src.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const fence = /^\s*(```|~~~)\s*([\w+-]*)/.exec(line);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i]!.trim().startsWith(fence[1]!)) body.push(lines[i++]!);
      i++;
      blocks.push({ kind: "code", lang: fence[2] ?? "", text: body.join("\n") });
      continue;
    }
    if (!line.trim()) {
      i++;
      continue;
    }
    const h = /^(#{1,6})\s+(.*)$/.exec(line);
    if (h) {
      blocks.push({ kind: "h", level: h[1]!.length, text: h[2]!.replace(/\s#+\s*$/, "") });
      i++;
      continue;
    }
    const listRe = { ul: /^\s*[-*+]\s+(.*)$/, ol: /^\s*\d{1,9}[.)]\s+(.*)$/ } as const;
    const kind = listRe.ul.test(line) ? "ul" : listRe.ol.test(line) ? "ol" : null;
    if (kind) {
      const items: string[] = [];
      while (i < lines.length) {
        const m = listRe[kind].exec(lines[i]!);
        if (m) items.push(m[1]!);
        else if (/^\s{2,}\S/.test(lines[i]!) && items.length) items[items.length - 1] += " " + lines[i]!.trim();
        else break;
        i++;
      }
      blocks.push({ kind, items });
      continue;
    }
    if (/^\s*>/.test(line)) {
      const q: string[] = [];
      while (i < lines.length && /^\s*>/.test(lines[i]!)) q.push(lines[i++]!.replace(/^\s*>\s?/, ""));
      blocks.push({ kind: "quote", lines: q });
      continue;
    }
    const p: string[] = [];
    while (i < lines.length && lines[i]!.trim() && !/^(#{1,6}\s|\s*```|\s*~~~|\s*>|\s*[-*+]\s|\s*\d{1,9}[.)]\s)/.test(lines[i]!)) p.push(lines[i++]!);
    if (!p.length) p.push(lines[i++]!);
    blocks.push({ kind: "p", lines: p });
  }
  return blocks;
}

export interface InlineOptions {
  /** Renders a [n] citation; without it citations stay text. */
  citation?: (n: number) => ReactNode;
}

const INLINE = /(`+)([\s\S]*?[^`])\1(?!`)|\*\*([\s\S]+?)\*\*|(?<![\w])__([\s\S]+?)__(?![\w])|\*([^*\s][^*]*?)\*|(?<![\w])_([^_\s][^_]*?)_(?![\w])|\[([^\]]+)\]\(([^)\s]+)(?:\s+"[^"]*")?\)|\[(\d{1,3})\]|(https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"])/g;

export function renderInline(text: string, opts: InlineOptions = {}, keyPrefix = "i"): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  let k = 0;
  INLINE.lastIndex = 0;
  const re = new RegExp(INLINE.source, "g");
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const key = `${keyPrefix}-${k++}`;
    if (m[2] !== undefined) out.push(<code key={key}>{m[2]}</code>);
    else if (m[3] !== undefined || m[4] !== undefined) out.push(<strong key={key}>{renderInline(m[3] ?? m[4]!, opts, key)}</strong>);
    else if (m[5] !== undefined || m[6] !== undefined) out.push(<em key={key}>{renderInline(m[5] ?? m[6]!, opts, key)}</em>);
    else if (m[7] !== undefined) {
      const href = safeHref(m[8]!);
      out.push(
        href ? (
          <a key={key} href={href} target="_blank" rel="noopener noreferrer nofollow">
            {renderInline(m[7], opts, key)}
          </a>
        ) : (
          <Fragment key={key}>{m[7]}</Fragment>
        ),
      );
    } else if (m[9] !== undefined) out.push(opts.citation ? <Fragment key={key}>{opts.citation(Number(m[9]))}</Fragment> : m[0]);
    else if (m[10] !== undefined)
      out.push(
        <a key={key} href={m[10]} target="_blank" rel="noopener noreferrer nofollow">
          {m[10]}
        </a>,
      );
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

function withBreaks(lines: string[], opts: InlineOptions, key: string): ReactNode[] {
  return lines.flatMap((l, i) => (i ? [<br key={`${key}-br${i}`} />, ...renderInline(l, opts, `${key}-${i}`)] : renderInline(l, opts, `${key}-${i}`)));
}

export function Markdown({ text, citation, className }: { text: string; className?: string } & InlineOptions) {
  const opts = { citation };
  return (
    <div className={className ?? "markdown"}>
      {parseBlocks(text).map((b, i) => {
        const key = `b${i}`;
        switch (b.kind) {
          case "code":
            return (
              <pre key={key}>
                <code data-lang={b.lang || undefined}>{b.text}</code>
              </pre>
            );
          case "h": {
            const Tag = `h${Math.min(6, b.level + 2)}` as "h3";
            return <Tag key={key}>{renderInline(b.text, opts, key)}</Tag>;
          }
          case "ul":
          case "ol": {
            const Tag = b.kind;
            return (
              <Tag key={key}>
                {b.items.map((it, j) => (
                  <li key={j}>{renderInline(it, opts, `${key}-${j}`)}</li>
                ))}
              </Tag>
            );
          }
          case "quote":
            return <blockquote key={key}>{withBreaks(b.lines, opts, key)}</blockquote>;
          default:
            return <p key={key}>{withBreaks(b.lines, opts, key)}</p>;
        }
      })}
    </div>
  );
}
