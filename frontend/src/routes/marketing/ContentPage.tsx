// A Markdown page: blog post, docs page, legal document, launch-week page or /pages/*.
import { FormattedDate, FormattedMessage } from "react-intl";
import { useLoaderData, useNavigate } from "react-router";
import type { MouseEvent } from "react";
import { usePageTitle } from "../../app/head";
import { notFound } from "../../app/errors";
import type { ScreenLoaderArgs } from "../../app/routes";
import { loadContent, type ContentEntry } from "../../features/content/collections";
import { LocalizedLink } from "../../components/LocalizedLink";
import "../../features/content/content.css";

export async function loader({ params, def, locale, request }: ScreenLoaderArgs): Promise<ContentEntry> {
  const collection = def.meta?.collection ?? "pages";
  const slug = def.meta?.slug ?? params.slug ?? params["*"] ?? "";
  const entry = await loadContent(collection, slug, locale);
  if (!entry) notFound(new URL(request.url).pathname);
  return entry;
}

export default function ContentPage() {
  const { attributes, html } = useLoaderData() as ContentEntry;
  const navigate = useNavigate();
  usePageTitle(attributes.title);
  // Links inside Markdown are plain <a>; keep same-site ones in the single-page app.
  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    const a = (e.target as HTMLElement).closest("a");
    const href = a?.getAttribute("href");
    if (!a || !href || !href.startsWith("/") || href.startsWith("//") || a.target || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(href);
  };
  const isBlog = !!attributes.date;
  return (
    <article className="prose-page container container--narrow">
      {isBlog && (
        <LocalizedLink to="/blog" className="back-link">
          ← <FormattedMessage id="blog.back" />
        </LocalizedLink>
      )}
      <header className="prose-page__header">
        <h1>{attributes.title}</h1>
        {attributes.description && <p className="lead">{attributes.description}</p>}
        {attributes.date && (
          <p className="muted">
            <FormattedDate value={new Date(attributes.date + "T12:00:00Z")} dateStyle="long" timeZone="UTC" />
            {attributes.author && <> · {attributes.author}</>}
          </p>
        )}
      </header>
      {/* Markdown from this repository's content/ folder, rendered at build time. */}
      <div className="prose" onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />
    </article>
  );
}
