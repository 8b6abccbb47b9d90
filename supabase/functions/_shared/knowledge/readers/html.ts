// HTML → main content as Markdown-ish text (headings kept for the chunker, <pre> as fenced
// code), plus the page's title, language, canonical URL and links (for crawling).
// linkedom parses; user CSS selectors keep or drop parts; without them the page's
// <main>/<article> is used, else the element holding all its headings and paragraphs when that
// holds nearly all its visible text, else Mozilla Readability picks the main content. When that keeps
// much less than the page's visible text (reference pages whose description sits outside
// <main>, pages Readability misjudges), the visible body text without the page's chrome is kept.
import { parseHTML as linkedomParse } from "npm:linkedom@0.18.12";
import { Readability } from "npm:@mozilla/readability@0.6.0";

export interface HtmlPage {
  title: string;
  text: string;
  links: string[];
  canonical?: string;
  lang?: string;
  noindex: boolean;
  /**
   * Which extraction made `text`: the owner's selectors, <main>/<article>, the element holding all
   * headings and paragraphs, Readability, or the visible body.
   */
  extraction: "selectors" | "main" | "region" | "readability" | "body";
  /** Characters of the page's visible text without its chrome (0 with selectors): the kept-text ratio's denominator. */
  visibleChars: number;
  /** Share of the kept text that is link text (0–1). */
  linkShare: number;
  /** A navigation-only page (index, table of contents, link list): ranked below pages with content. */
  navigation: boolean;
}

/**
 * Below this share of the visible text (without chrome) the main-content extractor has dropped
 * part of what a reader sees, and the visible text is kept instead. A page whose main region
 * holds its content keeps close to all of it; the reference page of issue 17 kept 8 KB of 120 KB.
 */
export const MIN_KEPT_RATIO = 0.4;

/**
 * A page is navigation-only when at least this share of its kept text is link text (a table of
 * contents, an index), or NAV_LINK_SHARE_WITH_SHORT_LINES of it is and most of its lines are short
 * (a link list with one-line descriptions). Over the PostgreSQL documentation (bench/ingest) the
 * first catches the book, part and index pages; chapter pages with an introduction stay content.
 */
export const NAV_LINK_SHARE = 0.5;
export const NAV_LINK_SHARE_WITH_SHORT_LINES = 0.3;
export const NAV_SHORT_LINE_SHARE = 0.7;
const SHORT_LINE = 80;

/** Characters of link text under `root` ÷ characters of its text (whitespace collapsed). */
export function linkTextShare(root: El): number {
  const len = (s: unknown) =>
    String(s ?? "")
      .replace(/\s+/g, " ")
      .trim().length;
  const total = len(root?.textContent);
  if (!total) return 0;
  const links = queryAll(root, "a[href]").reduce((sum: number, a: El) => sum + len(a.textContent), 0);
  return Math.min(links / total, 1);
}

/** Navigation-only: mostly link text, or much link text on mostly short lines (fenced code not counted). */
export function isNavigation(text: string, linkShare: number): boolean {
  if (linkShare >= NAV_LINK_SHARE) return true;
  if (linkShare < NAV_LINK_SHARE_WITH_SHORT_LINES) return false;
  const lines = withoutCode(text)
    .split("\n")
    .filter((l) => l.trim());
  return lines.length >= 5 && lines.filter((l) => l.length <= SHORT_LINE).length / lines.length >= NAV_SHORT_LINE_SHARE;
}

/**
 * Readability keeps one region: on reference pages whose sections are sibling blocks (the
 * PostgreSQL manual's Synopsis, Description, Parameters...) it can keep the largest and drop the
 * rest, above MIN_KEPT_RATIO. When it keeps less than this share of the visible text and a
 * section heading (##, ###) of the visible text is not in its output, the visible text is kept.
 */
export const MAX_SECTION_CHECK_RATIO = 0.9;

const withoutCode = (text: string) => text.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, "");

/** Section headings (##, ###) of `full` that `kept` does not have at any level. */
export function missingHeadings(full: string, kept: string): string[] {
  const norm = (h: string) => h.replace(/\s+/g, " ").trim().toLowerCase();
  const have = new Set([...withoutCode(kept).matchAll(/^#{1,6} (.+)$/gm)].map((m) => norm(m[1])));
  return [...withoutCode(full).matchAll(/^#{2,3} (.+)$/gm)].map((m) => norm(m[1])).filter((h) => !have.has(h));
}

/**
 * A page without <main> whose headings, paragraphs, code blocks and quotes all sit in one element
 * (not the body) holding at least this share of its visible text without chrome is read from that
 * element, without Readability: it would keep nearly everything, and what it leaves out holds no
 * heading or paragraph (header and footer link bars). Readability is most of the extraction's CPU
 * time; over the PostgreSQL documentation (bench/ingest) 350 of 1,169 pages, the long ones, take
 * this path and the extraction costs half as much.
 */
export const MIN_REGION_RATIO = 0.97;

const CONTENT_ELEMENTS = "h1, h2, h3, h4, h5, h6, p, pre, blockquote";

/** The smallest element holding every heading, paragraph, code block and quote under `root` (`root` itself at most; null: none). */
export function contentRegion(root: El): El | null {
  const [first, ...rest] = queryAll(root, CONTENT_ELEMENTS);
  let region = first?.parentElement ?? null;
  for (const el of rest) {
    while (region && region !== root && !region.contains(el)) region = region.parentElement;
  }
  return region;
}

export interface HtmlOptions {
  keepSelectors?: string[];
  dropSelectors?: string[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- linkedom DOM nodes, read defensively
type El = any;

/** linkedom's types describe a Window; the DOM is all we use. */
export const parseHTML = (html: string): { document: El } => linkedomParse(html) as unknown as { document: El };

const BLOCK = new Set([
  "p",
  "div",
  "section",
  "article",
  "main",
  "header",
  "footer",
  "ul",
  "ol",
  "table",
  "thead",
  "tbody",
  "tr",
  "blockquote",
  "pre",
  "dl",
  "dt",
  "dd",
  "figure",
  "figcaption",
  "details",
  "summary",
  "form",
  "fieldset",
  "address",
]);
const SKIP = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "iframe",
  "object",
  "embed",
  "canvas",
  "button",
  "select",
  "input",
  "textarea",
]);
const CHROME =
  "nav, aside, [role=navigation], [role=banner], [role=contentinfo], [role=complementary], [aria-hidden=true], [hidden]";

function queryAll(root: El, selector: string): El[] {
  try {
    return [...root.querySelectorAll(selector)];
  } catch {
    return []; // an invalid user selector matches nothing rather than failing the page
  }
}

/** The text of a `<pre>` as written: line breaks and indentation kept, `<br>` as a break. */
function preformattedText(node: El): string {
  if (node.nodeType === 3) return String(node.textContent ?? "");
  if (node.nodeType !== 1) return "";
  const tag = String(node.localName ?? node.tagName ?? "").toLowerCase();
  if (tag === "br") return "\n";
  if (SKIP.has(tag)) return "";
  return [...(node.childNodes ?? [])].map(preformattedText).join("");
}

/** The language a highlighter names on a `<pre>` or its `<code>` (class "language-sql", "lang-js", data-lang). */
function codeLanguage(pre: El): string {
  const code = pre.querySelector?.("code");
  for (const el of [pre, code]) {
    const cls = String(el?.getAttribute?.("class") ?? "");
    const m = /(?:^|\s)(?:language|lang)-([\w+#.-]+)/i.exec(cls) ?? /(?:^|\s)highlight-source-([\w+#-]+)/i.exec(cls);
    if (m) return m[1].toLowerCase();
    const attr = el?.getAttribute?.("data-lang") ?? el?.getAttribute?.("data-language");
    if (attr && /^[\w+#.-]+$/.test(attr)) return String(attr).toLowerCase();
  }
  return "";
}

/**
 * A `<pre>` as a fenced code block, so the chunker keeps it as code: `# comment` lines of shell,
 * Python or SQL-plus examples must not become headings. The fence is longer than any backtick
 * run at a line start inside the code.
 */
function fencedCode(pre: El): string {
  const code = preformattedText(pre)
    .replace(/\r\n?/g, "\n")
    .replace(/^\n+|\s+$/g, "");
  if (!code.trim()) return "";
  const longest = Math.max(2, ...[...code.matchAll(/^\s*(`{3,})/gm)].map((m) => m[1].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${codeLanguage(pre)}\n${code}\n${fence}`;
}

/**
 * Removes the page's chrome (navigation, sidebars, hidden parts) under `root`. A <header> or
 * <footer> is the page's banner or footer only outside <main>, <article> and <section>; inside
 * one it holds that part's title, lead or byline, which a reader sees as content.
 */
function removeChrome(root: El): void {
  for (const el of queryAll(root, CHROME)) el.remove();
  for (const el of queryAll(root, "header, footer")) {
    if (!el.parentElement?.closest?.("main, article, section, [role=main]")) el.remove();
  }
}

/** Marks the lines that are headings of the page, so text that merely starts with "#" is not read as one. */
const HEADING_MARK = "\u0001";

/** Markdown-ish text of an element tree. */
export function elementToText(root: El): string {
  const out: string[] = [];
  // Code blocks are set aside and put back after the whitespace clean-up, which would flatten them.
  const code: string[] = [];
  const walk = (node: El) => {
    if (node.nodeType === 3) {
      out.push(node.textContent.replace(/\s+/g, " "));
      return;
    }
    if (node.nodeType !== 1) return;
    const tag = String(node.localName ?? node.tagName ?? "").toLowerCase();
    if (SKIP.has(tag)) return;
    const h = /^h([1-6])$/.exec(tag);
    if (h) {
      const text = String(node.textContent ?? "")
        .replace(/\s+/g, " ")
        .trim();
      if (text) out.push(`\n\n${HEADING_MARK}${"#".repeat(Number(h[1]))} ${text}\n\n`);
      return;
    }
    if (tag === "br") return void out.push("\n");
    if (tag === "pre") {
      const block = fencedCode(node);
      if (block) out.push(`\n\n\u0000${code.push(block) - 1}\u0000\n\n`);
      return;
    }
    if (tag === "li") out.push("\n- ");
    else if (tag === "td" || tag === "th") out.push(" | ");
    else if (BLOCK.has(tag)) out.push("\n\n");
    for (const child of node.childNodes ?? []) walk(child);
    if (tag === "tr") out.push("\n");
    else if (BLOCK.has(tag)) out.push("\n\n");
  };
  walk(root);
  return (
    out
      .join("")
      .split("\n")
      .map((l) =>
        l
          .replace(/[ \t]+/g, " ")
          .replace(/^ \| /, "")
          .trimEnd(),
      )
      .join("\n")
      .replace(/^[ \t]+(?!-)/gm, "")
      // a text line that starts like a heading (an operator "# point" in a table cell) is escaped
      .replace(/^(?=#{1,6}(?:[ \t]|$))/gm, "\\")
      .replace(/\u0001/g, "")
      .replace(/\n{3,}/g, "\n\n")
      .trim()
      .replace(/\u0000(\d+)\u0000/g, (_, i) => code[Number(i)])
  );
}

export function extractHtml(html: string, baseUrl: string, options: HtmlOptions = {}): HtmlPage {
  const { document } = parseHTML(html);
  const resolve = (href: string | null | undefined) => {
    if (!href) return undefined;
    try {
      return new URL(href, baseUrl).href;
    } catch {
      return undefined;
    }
  };
  const title = String(document.querySelector("title")?.textContent ?? document.querySelector("h1")?.textContent ?? "")
    .replace(/\s+/g, " ")
    .trim();
  const links = [...document.querySelectorAll("a[href]")]
    .map((a: El) => resolve(a.getAttribute("href")))
    .filter((u): u is string => !!u);
  const canonical = resolve(document.querySelector("link[rel=canonical]")?.getAttribute("href"));
  const lang = document.documentElement?.getAttribute?.("lang") ?? undefined;
  const robots = String(document.querySelector("meta[name=robots]")?.getAttribute("content") ?? "").toLowerCase();

  for (const sel of ["script", "style", "noscript", "template", ...(options.dropSelectors ?? [])]) {
    for (const el of queryAll(document, sel)) el.remove();
  }
  const keep = options.keepSelectors?.filter(Boolean) ?? [];
  const page = { title, links, canonical, lang, noindex: /\bnoindex\b/.test(robots) };
  if (keep.length) {
    const text = keep
      .flatMap((sel) => queryAll(document, sel))
      .map(elementToText)
      .join("\n\n");
    const linkShare = keep
      .flatMap((sel) => queryAll(document, sel))
      .reduce((max: number, el: El) => Math.max(max, linkTextShare(el)), 0);
    return {
      ...page,
      text,
      extraction: "selectors",
      visibleChars: 0,
      linkShare,
      navigation: isNavigation(text, linkShare),
    };
  }
  let text = "";
  let extraction: HtmlPage["extraction"] = "main";
  let linkShare = 0;
  const main = document.querySelector("main, article, [role=main]");
  if (main) {
    removeChrome(main);
    text = elementToText(main);
    linkShare = linkTextShare(main);
  }
  // Readability, if it runs, changes the document it reads: it gets its own parse, of the source
  // itself when no selector was dropped (which spares serialising this one), taken before the chrome goes
  const readabilitySource = !main && options.dropSelectors?.length ? document.toString() : html;
  removeChrome(document);
  const body = document.body ?? document.documentElement;
  const visible = elementToText(body);
  if (!main) {
    // A page without <main>: the element holding all its headings, paragraphs and code, when it
    // holds nearly all the visible text, is its content (MIN_REGION_RATIO); otherwise Mozilla
    // Readability picks the main content.
    const region = contentRegion(body);
    const regionText = region && region !== body ? elementToText(region) : "";
    if (regionText && regionText.length >= MIN_REGION_RATIO * visible.length) {
      extraction = "region";
      text = regionText;
      linkShare = linkTextShare(region);
    } else {
      extraction = "readability";
      // hands back its article element rather than HTML to parse a third time
      let article: { content?: El } | null = null;
      try {
        article = new Readability(parseHTML(readabilitySource).document, {
          charThreshold: 200,
          serializer: (el: El) => el,
        }).parse();
      } catch {
        article = null;
      }
      if (article?.content) {
        text = elementToText(article.content);
        linkShare = linkTextShare(article.content);
      }
    }
  }
  const dropsSections =
    extraction === "readability" &&
    text.length < MAX_SECTION_CHECK_RATIO * visible.length &&
    missingHeadings(visible, text).length > 0;
  if (
    (text.length < 200 || text.length < MIN_KEPT_RATIO * visible.length || dropsSections) &&
    visible.length > text.length
  ) {
    text = visible;
    extraction = "body";
    linkShare = linkTextShare(body);
  }
  return {
    ...page,
    text,
    extraction,
    visibleChars: visible.length,
    linkShare,
    navigation: isNavigation(text, linkShare),
  };
}
