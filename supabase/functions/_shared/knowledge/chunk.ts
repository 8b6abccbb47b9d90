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
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/**
 * Reads lines in order and says which belong to a fenced code block (the fences included).
 * As in CommonMark, a block closes only on a bare fence of the same character at least as
 * long as the one that opened it, so a ``` line inside a ```` block stays code.
 */
class Fences {
  open: string | null = null;
  read(line: string): boolean {
    const m = FENCE.exec(line);
    if (!m) return this.open !== null;
    if (this.open === null) this.open = m[1];
    else if (m[1][0] === this.open[0] && m[1].length >= this.open.length && line.trim() === m[1]) this.open = null;
    return true;
  }
}

function sections(text: string, title?: string): Section[] {
  const out: Section[] = [];
  const stack: { level: number; text: string }[] = [];
  let current: Section = { path: title ? [title] : [], lines: [] };
  const fences = new Fences();
  for (const raw of text.replace(/\r\n?/g, "\n").split("\n")) {
    const m = fences.read(raw) ? null : HEADING.exec(raw);
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

interface Paragraph {
  text: string;
  /** A fenced code block, fences included: never split into sentences or at blank lines. */
  code: boolean;
}

/** Paragraphs (blank-line separated; list items and table rows kept as their own lines; code blocks whole). */
function paragraphs(lines: string[]): Paragraph[] {
  const out: Paragraph[] = [];
  let buf: string[] = [];
  let code = false;
  const flush = () => {
    const text = code ? buf.join("\n").replace(/^\n+|\s+$/g, "") : buf.join("\n").trim();
    if (text) out.push({ text, code });
    buf = [];
  };
  const fences = new Fences();
  for (const line of lines) {
    const isCode = fences.read(line);
    if (isCode !== code) {
      flush();
      code = isCode;
    }
    if (!code && !line.trim()) flush();
    else buf.push(line);
    // a closing fence ends the block; what follows is a new paragraph
    if (code && buf.length > 1 && fences.open === null) {
      flush();
      code = false;
    }
  }
  flush();
  return out;
}

/**
 * A code block as chunk units: whole if it fits, else runs of whole lines, each fenced again
 * so every chunk holding code is valid Markdown.
 */
function codeUnits(block: string, max: number): string[] {
  if (block.length <= max) return [block];
  const lines = block.split("\n");
  const open = lines[0];
  const fence = FENCE.exec(open)![1];
  const closed = lines.length > 1 && lines[lines.length - 1].trim().startsWith(fence);
  const body = lines.slice(1, closed ? -1 : undefined);
  const room = Math.max(max - open.length - fence.length - 2, 20);
  const out: string[] = [];
  let run: string[] = [];
  let size = 0;
  const flush = () => {
    if (run.length) out.push(`${open}\n${run.join("\n")}\n${fence}`);
    run = [];
    size = 0;
  };
  for (const line of body.flatMap((l) => (l.length > room ? hardSplit(l, room) : [l]))) {
    if (size + line.length + 1 > room) flush();
    run.push(line);
    size += line.length + 1;
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
      if (p.code) {
        for (const piece of codeUnits(p.text, max)) units.push({ text: piece, paraStart: true });
        continue;
      }
      const lines = p.text.split("\n");
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
