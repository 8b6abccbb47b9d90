// Front matter + Markdown → { attributes, html }. Runs in Node at build time only
// (Vite plugin), never in the browser bundle.
import frontMatter from "front-matter";
import { Marked } from "marked";

const marked = new Marked({ gfm: true, async: false });

/** @param {string} source @param {string} slug */
export function parseMarkdownFile(source, slug) {
  const { attributes, body } = frontMatter(source);
  const attrs = { slug, ...(attributes ?? {}) };
  if (attrs.date instanceof Date) attrs.date = attrs.date.toISOString().slice(0, 10);
  return { attributes: attrs, html: /** @type {string} */ (marked.parse(body)) };
}
