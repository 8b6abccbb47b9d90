// Markdown content (content/<collection>/<slug>.md, optional translations <slug>.<locale>.md).
// Front matter is bundled for lists; bodies are separate chunks loaded per page.
import type { LocaleCode } from "../../i18n/locales";

export interface ContentMeta {
  slug: string;
  title: string;
  description?: string;
  date?: string;
  author?: string;
  order?: number;
}

export interface ContentEntry {
  attributes: ContentMeta;
  html: string;
}

const metas = import.meta.glob<ContentMeta>("/content/**/*.md", { eager: true, query: "?meta", import: "default" });
const bodies = import.meta.glob<ContentEntry>("/content/**/*.md", { import: "default" });

interface Key {
  collection: string;
  slug: string;
  locale: string | undefined;
}

function parseKey(file: string): Key | null {
  const m = /^\/content\/([^/]+)\/(.+?)(?:\.([a-z]{2}))?\.md$/.exec(file);
  return m ? { collection: m[1]!, slug: m[2]!, locale: m[3] } : null;
}

function fileFor(collection: string, slug: string, locale?: string): string {
  return `/content/${collection}/${slug}${locale && locale !== "en" ? `.${locale}` : ""}.md`;
}

/** Entries of a collection in one language (falling back to English), newest or `order` first. */
export function listContent(collection: string, locale: LocaleCode = "en"): ContentMeta[] {
  const out: ContentMeta[] = [];
  for (const [file, meta] of Object.entries(metas)) {
    const key = parseKey(file);
    if (!key || key.collection !== collection || key.locale) continue;
    const localized = metas[fileFor(collection, key.slug, locale)];
    out.push({ ...(localized ?? meta), slug: key.slug });
  }
  return out.sort((a, b) => (a.order ?? 999) - (b.order ?? 999) || (b.date ?? "").localeCompare(a.date ?? "") || a.title.localeCompare(b.title));
}

export async function loadContent(collection: string, slug: string, locale: LocaleCode = "en"): Promise<ContentEntry | null> {
  const loader = bodies[fileFor(collection, slug, locale)] ?? bodies[fileFor(collection, slug)];
  if (!loader) return null;
  const entry = await loader();
  return { ...entry, attributes: { ...entry.attributes, slug } };
}
