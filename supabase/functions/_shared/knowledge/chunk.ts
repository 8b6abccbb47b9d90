// Splits a document (Markdown-ish text: every parser emits `#` headings) into
// passages sized for model context: sections keep their heading path
// ("Guide > Install"), sentences stay whole, and consecutive chunks of a
// section overlap by about 15% so a fact on a boundary is found from both sides.

export interface Chunk {
  position: number;
  heading_path: string;
  content: string;
  token_count: number;
}

export interface ChunkOptions {
  /** Target size in characters (chunks stay under it unless one sentence is longer). */
  maxChars?: number;
  /** Characters of the previous chunk repeated at the start of the next. */
  overlapChars?: number;
}

interface Section {
  path: string[];
  lines: string[];
}

const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;

function sections(text: string, title?: string): Section[] {
  const out: Section[] = [];
  const stack: { level: number; text: string }[] = [];
  let current: Section = { path: title ? [title] : [], lines: [] };
  let inFence = false;
  for (const raw of text.replace(/\r\n?/g, "\n").split("\n")) {
    if (/^\s*(```|~~~)/.test(raw)) inFence = !inFence;
    const m = inFence ? null : HEADING.exec(raw);
    if (m) {
      if (current.lines.some((l) => l.trim())) out.push(current);
      const level = m[1].length;
      while (stack.length && stack[stack.length - 1].level >= level) stack.pop();
      stack.push({ level, text: m[2].replace(/[*_`]/g, "").trim() });
      const path = stack.map((s) => s.text);
      // A document whose first heading repeats its title should not say it twice.
      if (title && path[0] !== title) path.unshift(title);
      current = { path, lines: [] };
    } else {
      current.lines.push(raw);
    }
  }
  if (current.lines.some((l) => l.trim())) out.push(current);
  return out;
}

// Sentence ends: . ! ? … (and the Greek question mark) followed by space, or
// CJK full stops that need no space. "3.5" and "example.com" do not end one.
const SENTENCE_END = /[.!?\u037e…]+["'”’)\]]*\s+|[。！？]+["'」』）]*/gu;

export function splitSentences(paragraph: string): string[] {
  const out: string[] = [];
  let last = 0;
  for (const m of paragraph.matchAll(SENTENCE_END)) {
    const end = m.index! + m[0].length;
    out.push(paragraph.slice(last, end).trim());
    last = end;
  }
  out.push(paragraph.slice(last).trim());
  return out.filter(Boolean);
}

/** Paragraphs (blank-line separated; list items and table rows kept as their own lines). */
function paragraphs(lines: string[]): string[] {
  const out: string[] = [];
  let buf: string[] = [];
  const flush = () => {
    const p = buf.join("\n").trim();
    if (p) out.push(p);
    buf = [];
  };
  for (const line of lines) {
    if (!line.trim()) flush();
    else buf.push(line);
  }
  flush();
  return out;
}

/** Rough token estimate: ~4 Latin characters per token, one per CJK character. */
export function estimateTokens(text: string): number {
  const cjk = (text.match(/[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/g) ?? []).length;
  return Math.ceil((text.length - cjk) / 4) + cjk;
}

function hardSplit(sentence: string, max: number): string[] {
  const out: string[] = [];
  let rest = sentence;
  while (rest.length > max) {
    let cut = rest.lastIndexOf(" ", max);
    if (cut < max * 0.5) cut = max;
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) out.push(rest);
  return out;
}

export function chunkText(text: string, options: ChunkOptions & { title?: string } = {}): Chunk[] {
  const max = options.maxChars ?? 1000;
  const overlap = options.overlapChars ?? Math.round(max * 0.15);
  const chunks: Chunk[] = [];
  for (const section of sections(text, options.title)) {
    const heading = section.path.join(" > ").slice(0, 1000);
    // units: sentences, with paragraph breaks kept as "\n\n" joins
    const units: { text: string; paraStart: boolean }[] = [];
    for (const p of paragraphs(section.lines)) {
      const lines = p.split("\n");
      let first = true;
      for (const line of lines) {
        // list items and table rows are units of their own; prose lines are split into sentences
        const sentences = /^\s*([-*+]|\d+[.)]|\|)/.test(line) ? [line.trim()] : splitSentences(line);
        for (const s of sentences) {
          for (const piece of hardSplit(s, max)) {
            units.push({ text: piece, paraStart: first });
            first = false;
          }
        }
      }
    }
    let current: { text: string; paraStart: boolean }[] = [];
    let size = 0;
    const emit = () => {
      const content = current
        .map((u, i) => (i === 0 ? "" : u.paraStart ? "\n\n" : " ") + u.text)
        .join("")
        .trim();
      if (content) {
        chunks.push({ position: chunks.length, heading_path: heading, content, token_count: estimateTokens(content) });
      }
    };
    for (const unit of units) {
      if (size + unit.text.length + 1 > max && current.length) {
        emit();
        // carry the tail of this chunk (whole sentences, up to `overlap` characters) into the next
        const carried: typeof current = [];
        let carriedSize = 0;
        for (let i = current.length - 1; i >= 1; i--) {
          if (carriedSize + current[i].text.length > overlap) break;
          carried.unshift(current[i]);
          carriedSize += current[i].text.length + 1;
        }
        // the overlap must leave room for the new sentence
        if (carriedSize + unit.text.length + 1 > max) {
          current = [];
          size = 0;
        } else {
          current = carried;
          size = carriedSize;
        }
      }
      current.push(unit);
      size += unit.text.length + 1;
    }
    emit();
  }
  return chunks;
}
